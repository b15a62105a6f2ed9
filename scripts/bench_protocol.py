"""Decode throughput of ``ClientConnection`` on a synthesised Servatrice event stream.

Usage::

    python scripts/bench_protocol.py [--messages 50000] [--chunk 65536] [--repeat 3]

The stream imitates a busy game room as the bot sees it: per-second ping updates
(``Event_PlayerPropertiesChanged`` + ``Context_PingChanged``), card moves, game and room chat, command
responses, and now and then a full ``Event_GameStateChanged`` of a 4-player game with 60-card decks.  It is
built deterministically (seeded ``random.Random``), framed for TCP (with the XML preamble) and for
WebSocket, and fed to the sans-I/O connection in ``--chunk``-byte pieces (TCP) or one message at a time
(WebSocket).  Reports messages per second and MB per second, best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from cockatrice_ext.protocol import NEED_DATA, ClientConnection, LoginSucceeded, ServerIdentified
from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.protocol.serverside import (
    TCP_PREAMBLE,
    encode_server_message,
    game_event,
    game_events_message,
    identification_message,
    response_message,
    room_event_message,
)

GAME_ID = 12


def _game_state(rng: random.Random) -> pb.ServerMessage:
    """A full game state: 4 players, each with library, hand, table and graveyard cards."""
    state = pb.Event_GameStateChanged(game_started=True, active_player_id=1, active_phase=3)
    for player_id in range(4):
        player = state.player_list.add()
        player.properties.player_id = player_id
        player.properties.user_info.name = f"player{player_id}"
        zones = (("deck", 45, False), ("hand", 7, True), ("table", 12, True), ("grave", 6, True))
        for zone_name, count, visible in zones:
            zone = player.zone_list.add(name=zone_name, card_count=count, with_coords=zone_name == "table")
            if visible:
                for card_id in range(count):
                    zone.card_list.add(id=card_id, name=f"Card {rng.randrange(20000)}", x=card_id * 10, y=0)
        for counter_id, name in enumerate(("life", "w", "u", "b", "r", "g", "x", "storm")):
            player.counter_list.add(id=counter_id, name=name, count=20 if counter_id == 0 else 0)
    return game_events_message(GAME_ID, [game_event(-1, state)])


def synthesise(count: int, seed: int = 14) -> list[pb.ServerMessage]:
    """``count`` server messages in a realistic mix, after identification and login."""
    rng = random.Random(seed)
    login = pb.Response_Login(user_info=pb.ServerInfo_User(name="bot"))
    messages = [identification_message(), response_message(1, 1, login)]
    big_state = _game_state(rng)
    cmd_id = 2
    for index in range(count):
        roll = rng.random()
        if index % 5000 == 4999:
            messages.append(big_state)
        elif roll < 0.40:
            props = pb.ServerInfo_PlayerProperties(player_id=rng.randrange(4), ping_seconds=rng.randrange(5))
            messages.append(
                game_events_message(
                    GAME_ID,
                    [game_event(-1, pb.Event_PlayerPropertiesChanged(player_properties=props))],
                    context=pb.Context_PingChanged(),
                )
            )
        elif roll < 0.65:
            move = pb.Event_MoveCard(
                card_id=rng.randrange(100),
                card_name="Lightning Bolt",
                start_player_id=0,
                start_zone="hand",
                target_player_id=0,
                target_zone="table",
                x=rng.randrange(500),
                y=rng.randrange(300),
                new_card_id=rng.randrange(100),
            )
            messages.append(game_events_message(GAME_ID, [game_event(rng.randrange(4), move)]))
        elif roll < 0.80:
            say = pb.Event_GameSay(message=f"!bid {rng.randrange(1, 50)}")
            messages.append(game_events_message(GAME_ID, [game_event(rng.randrange(4), say)]))
        elif roll < 0.90:
            say = pb.Event_RoomSay(name=f"user{rng.randrange(100)}", message="anyone for auction?")
            messages.append(room_event_message(0, say))
        else:
            messages.append(response_message(cmd_id, 1))
            cmd_id += 1
    return messages


def run_once(frames: list[bytes], transport: str, chunk: int) -> tuple[float, int]:
    """Decode everything once; return (seconds, events)."""
    conn = ClientConnection(transport=transport)
    if transport == "tcp":
        stream = TCP_PREAMBLE + b"".join(frames)
        pieces = [stream[i : i + chunk] for i in range(0, len(stream), chunk)]
    else:
        pieces = frames
    events = 0
    logged_in = False
    start = time.perf_counter()
    for piece in pieces:
        conn.receive_data(piece)
        while (event := conn.next_event()) is not NEED_DATA:
            events += 1
            if isinstance(event, ServerIdentified):
                conn.login("bot")
            elif isinstance(event, LoginSucceeded):
                logged_in = True
    if not logged_in:
        raise RuntimeError("the synthesised stream did not log in")
    return time.perf_counter() - start, events


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per transport."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=50_000)
    parser.add_argument("--chunk", type=int, default=65_536, help="TCP read size in bytes")
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args(argv)
    messages = synthesise(options.messages)
    for transport in ("tcp", "ws"):
        frames = [encode_server_message(message, transport=transport) for message in messages]
        total = sum(len(frame) for frame in frames)
        best = min(run_once(frames, transport, options.chunk) for _ in range(options.repeat))
        seconds, events = best
        print(
            f"{transport}: {len(frames)} messages, {total / 1e6:.1f} MB -> {events} events "
            f"in {seconds:.3f} s: "
            f"{len(frames) / seconds:,.0f} messages/s, {total / 1e6 / seconds:.1f} MB/s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
