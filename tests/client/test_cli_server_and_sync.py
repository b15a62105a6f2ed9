"""``cockatrice-ext server`` commands and the blocking SyncClient, against a real Servatrice."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from servatrice import ServatriceServer

from cockatrice_ext.cli import main
from cockatrice_ext.cli.server import format_event
from cockatrice_ext.client import ClientEvent, Disconnected, SyncClient
from cockatrice_ext.protocol import messages as pb


def test_format_event_lines() -> None:
    say = pb.Event_RoomSay(name="alice", message="hi", message_type=2)
    assert format_event(ClientEvent("room", say, room_id=3, is_replay=True)) == "[room 3] alice: hi (history)"
    move = pb.Event_MoveCard(card_id=5, start_zone="hand", target_zone="table")
    line = format_event(ClientEvent("game", move, game_id=7, player_id=1))
    assert line.startswith("[game 7 p1] Event_MoveCard") and "\n" not in line
    assert "reconnecting" in format_event(Disconnected("boom", True))


def test_cli_reports_unreachable_server() -> None:
    result = CliRunner().invoke(main, ["server", "info", "tcp://127.0.0.1:1", "--timeout", "2"])
    assert result.exit_code != 0 and "127.0.0.1:1" in result.output


@pytest.mark.servatrice
def test_cli_info_and_rooms(servatrice: ServatriceServer) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["server", "info", servatrice.ws_url, "--user", "cli_info"])
    assert result.exit_code == 0, result.output
    assert "protocol: 14" in result.output and "Bot room" in result.output
    result = runner.invoke(main, ["server", "rooms", servatrice.tcp_url])
    assert result.exit_code == 0, result.output
    assert "0=Auction, 1=Vortex" in result.output


@pytest.mark.servatrice
def test_sync_client(servatrice: ServatriceServer) -> None:
    with SyncClient.connect(servatrice.tcp_url, "sync_bot") as client:
        assert client.user_name == "sync_bot"
        room_id = client.room_id_by_name("Bot room")
        client.join_room(room_id)
        client.room_say(room_id, "from a script")
        game_id = client.create_game(room_id, description="sync game", max_players=2)
        assert client.games[game_id].local_player_id >= 0
        client.game_say(game_id, "hello")
        client.leave_game(game_id)
        assert client.ping() >= 0


@pytest.mark.servatrice
def test_cli_looks_under_the_offered_name_when_its_own_is_in_use(servatrice: ServatriceServer) -> None:
    """Another look (or anyone) holds the user name: ``server info`` takes the name the server offers at once
    instead of logging out and waiting for it, as the referee does."""
    with SyncClient.connect(servatrice.tcp_url, "cli_held") as holder:
        assert holder.user_name == "cli_held"
        result = CliRunner().invoke(main, ["server", "info", servatrice.tcp_url, "--user", "cli_held"])
    assert result.exit_code == 0, result.output
    logins = [line for line in servatrice.log_tail(100_000).splitlines() if 'name= "cli_held_1"' in line]
    assert len([line for line in logins if "loginUser" in line]) == 1, logins  # one login, kept
