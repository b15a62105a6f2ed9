"""The committed generated code matches the .proto sources; extension numbers match the wire contract."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from cockatrice_ext.protocol import messages as pb

ROOT = Path(__file__).resolve().parents[2]


def _load_generator():
    spec = importlib.util.spec_from_file_location("generate_protos", ROOT / "scripts" / "generate_protos.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("generate_protos", module)
    spec.loader.exec_module(module)
    return module


def test_generated_code_is_up_to_date() -> None:
    pytest.importorskip("grpc_tools")
    generator = _load_generator()
    produced = generator.generate()
    stale = generator.stale_files(generator.PB_DIR, produced)
    assert stale == [], "run: python scripts/generate_protos.py"


def test_generation_is_deterministic(tmp_path: Path) -> None:
    pytest.importorskip("grpc_tools")
    generator = _load_generator()
    first = generator.generate()
    generator.write(tmp_path, first)
    assert generator.stale_files(tmp_path, generator.generate()) == []
    assert all("from cockatrice_ext.wire" not in text for text in first.values())


@pytest.mark.parametrize(
    ("container", "cls", "number"),
    [
        (pb.SessionCommand, pb.Command_Ping, 1000),
        (pb.SessionCommand, pb.Command_Login, 1001),
        (pb.SessionCommand, pb.Command_RequestPasswordSalt, 1024),
        (pb.SessionCommand, pb.Command_JoinRoom, 1015),
        (pb.RoomCommand, pb.Command_CreateGame, 1002),
        (pb.GameCommand, pb.Command_MoveCard, 1027),
        (pb.GameCommand, pb.Command_Judge, 1033),
        (pb.GameCommand, pb.Command_DeckSelect, 1029),
        (pb.Response, pb.Response_Login, 1005),
        (pb.Response, pb.Response_PasswordSalt, 1017),
        (pb.Response, pb.Response_DeckDownload, 1007),
        (pb.SessionEvent, pb.Event_ServerIdentification, 500),
        (pb.SessionEvent, pb.Event_GameJoined, 1009),
        (pb.RoomEvent, pb.Event_RoomSay, 1002),
        (pb.GameEvent, pb.Event_MoveCard, 2009),
        (pb.GameEvent, pb.Event_GameStateChanged, 1005),
        (pb.GameEventContext, pb.Context_PingChanged, 1006),
    ],
)
def test_extension_numbers(container: type, cls: type, number: int) -> None:
    assert cls.ext.number == number
    assert cls.ext.containing_type is container.DESCRIPTOR
    assert pb.extension_class(container, number) is cls


def test_every_extension_number_matches_its_type_enum() -> None:
    """Servatrice numbers each concrete extension with the value of its domain's *Type enum."""
    enums = {
        pb.SessionCommand: pb.SessionCommand.SessionCommandType,
        pb.RoomCommand: pb.RoomCommand.RoomCommandType,
        pb.GameCommand: pb.GameCommand.GameCommandType,
        pb.Response: pb.Response.ResponseType,
        pb.SessionEvent: pb.SessionEvent.SessionEventType,
        pb.RoomEvent: pb.RoomEvent.RoomEventType,
        pb.GameEvent: pb.GameEvent.GameEventType,
        pb.GameEventContext: pb.GameEventContext.ContextType,
    }
    for container, enum_type in enums.items():
        known = pb.extension_numbers(container)
        assert known, container
        assert set(known) <= set(enum_type.values()), container.DESCRIPTOR.name


def test_wire_bytes_of_a_login_are_stable() -> None:
    """A hand-checked encoding: CommandContainer{cmd_id=1, session_command{[1001]{user_name="bot"}}}."""
    container = pb.CommandContainer(cmd_id=1)
    container.session_command.add().Extensions[pb.Command_Login.ext].user_name = "bot"
    # field 1 varint 1; field 100 (0xa2 0x06) len 8; ext 1001 (0xca 0x3e) len 5; field 1 "bot"
    assert container.SerializeToString() == b"\x08\x01\xa2\x06\x08\xca\x3e\x05\x0a\x03bot"
