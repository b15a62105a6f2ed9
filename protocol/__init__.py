"""Cockatrice wire protocol (protocol version 14), sans-I/O."""
