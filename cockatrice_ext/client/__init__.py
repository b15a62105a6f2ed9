"""Asyncio client for Servatrice (over protocol/)."""
