"""Small helpers between the client and ``cockatrice_ext.protocol`` (wrapping and naming commands)."""

from __future__ import annotations

from google.protobuf.message import Message

from cockatrice_ext.protocol import commands as protocol_commands
from cockatrice_ext.protocol.messages import payload_of
from cockatrice_ext.protocol.pb.commands_pb2 import GameCommand, RoomCommand, SessionCommand

_DOMAINS: dict[str, type[Message]] = {
    SessionCommand.DESCRIPTOR.full_name: SessionCommand,
    RoomCommand.DESCRIPTOR.full_name: RoomCommand,
    GameCommand.DESCRIPTOR.full_name: GameCommand,
}


def as_command(command: Message) -> Message:
    """Return a domain wrapper (``SessionCommand``/``RoomCommand``/``GameCommand``) for ``command``.

    Accepts either a wrapper (what ``protocol.commands`` builders return) or a concrete command such
    as ``messages.Command_RoomSay(message="hi")``, which is wrapped in its domain.

    Raises:
        TypeError: ``command`` is neither.
    """
    if isinstance(command, (SessionCommand, RoomCommand, GameCommand)):
        return command
    extension = getattr(type(command), "ext", None)
    domain = _DOMAINS.get(extension.containing_type.full_name) if extension is not None else None
    if domain is None:
        raise TypeError(f"not a command: {type(command).__name__}")
    wrapper = domain()
    inner = wrapper.Extensions[extension]
    inner.SetInParent()
    inner.MergeFrom(command)
    return wrapper


def domain_of(command: Message) -> str:
    """``session``, ``room`` or ``game`` for a wrapper."""
    return protocol_commands.domain_of(command)


def command_name(command: Message) -> str:
    """Name of the concrete command inside a wrapper (``Command_MoveCard``), or ``""`` if empty."""
    found = payload_of(command)
    return "" if found is None else str(found[1].DESCRIPTOR.name)


def inner_command(command: Message) -> Message | None:
    """The concrete command inside a wrapper, or None."""
    found = payload_of(command)
    return None if found is None else found[1]
