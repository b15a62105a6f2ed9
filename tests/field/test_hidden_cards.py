"""The hidden-card scanner catches planted leaks, and only leaks (real Cockatrice event messages)."""

from __future__ import annotations

from field_players import FieldPlayer, Game, Protos, Received
from hidden_cards import (
    Secret,
    block_names,
    find_id_links,
    find_leaks,
    hand_secrets,
    private_secrets,
    turned_up_for_all,
)
from shared_paths import ROOT

BOT = "RefereeBot"


def player_with(protos: Protos, name: str, items: list[Received]) -> FieldPlayer:
    player = FieldPlayer(protos, name)
    player.games[1] = Game(1, names={0: BOT, 1: "alice", 2: "bob"})
    player.received = items
    return player


def test_planted_leaks_are_found_and_nothing_else(protos: Protos) -> None:
    pb = protos
    bob_pack = Received(
        1.0, "Event_UserMessage", pb.Event_UserMessage(sender_name=BOT, message="1. Shock 2. Giant Growth")
    )
    alice_pack = Received(
        1.0, "Event_UserMessage", pb.Event_UserMessage(sender_name=BOT, message="1. Grizzly Bears")
    )
    bob = player_with(protos, "bob", [bob_pack])
    alice = player_with(
        protos,
        "alice",
        [
            alice_pack,
            Received(
                0.5, "Event_GameSay", pb.Event_GameSay(message="bob holds Shock"), 1, 0
            ),  # before the deal
            Received(2.0, "Event_GameSay", pb.Event_GameSay(message="A Shocking turn, Grizzly Bears"), 1, 0),
            Received(3.0, "Event_GameSay", pb.Event_GameSay(message="bob picks shock"), 1, 0),  # lower-cased
            Received(
                3.5, "Event_MoveCard", pb.Event_MoveCard(card_name="Giant Growth", target_zone="table"), 1, 2
            ),
            Received(
                3.6,
                "Event_SetCardAttr",
                pb.Event_SetCardAttr(attribute=6, attr_value="Lot: Giant Growth"),
                1,
                0,
            ),
            Received(
                4.0, "Event_GameSay", pb.Event_GameSay(message="I guess Shock"), 1, 1
            ),  # alice's own words
            Received(
                9.0, "Event_GameSay", pb.Event_GameSay(message="bob casts Shock"), 1, 0
            ),  # revealed by then
        ],
    )
    universe = {"Shock", "Giant Growth", "Grizzly Bears", "Serra Angel"}
    secrets = [
        Secret(s.name, s.holders, 1.0, 8.0 if s.name == "Shock" else float("inf"))
        for s in private_secrets([alice, bob], BOT, universe)
    ]
    assert sorted((s.name, *s.holders) for s in secrets) == [
        ("Giant Growth", "bob"),
        ("Grizzly Bears", "alice"),
        ("Shock", "bob"),
    ]
    leaks = find_leaks([alice, bob], secrets)
    assert sorted((leak.reader, leak.name, leak.kind) for leak in leaks) == [
        ("alice", "Giant Growth", "Event_MoveCard"),
        ("alice", "Giant Growth", "Event_SetCardAttr"),
        ("alice", "Shock", "Event_GameSay"),
    ]
    assert "bob picks shock" in str(next(leak for leak in leaks if leak.name == "Shock"))


def test_a_name_both_players_hold_is_no_secret_from_either(protos: Protos) -> None:
    message = protos.Event_UserMessage(sender_name=BOT, message="your pack: Forest, Shock")
    alice = player_with(protos, "alice", [Received(1.0, "Event_UserMessage", message)])
    bob = player_with(protos, "bob", [Received(1.0, "Event_UserMessage", message)])
    alice.received.append(Received(2.0, "Event_GameSay", protos.Event_GameSay(message="bob: Forest"), 1, 0))
    assert find_leaks([alice, bob], private_secrets([alice, bob], BOT, {"Forest", "Shock"})) == []


def test_block_names_reads_the_shipped_pools() -> None:
    names = block_names(ROOT / "blocks" / "auction-sample.txt")
    assert {"Accorder Paladin", "Ainok Bond-Kin"} <= names and not any(
        n.startswith(("#", "1 ")) for n in names
    )


def test_a_card_moved_into_a_players_own_hand_is_theirs_alone(protos: Protos) -> None:
    """A judge referee deals draws into hands (no private message): the owner's client is told the name,
    which is then their secret; the same name in the other player's events is a leak."""
    pb = protos
    draw = pb.Event_MoveCard(card_name="Shock", start_zone="deck", target_zone="hand", target_player_id=2)
    bob = player_with(protos, "bob", [Received(1.0, "Event_MoveCard", draw, 1, 2)])
    bob.games[1].my_id = 2
    alice = player_with(protos, "alice", [Received(1.0, "Event_MoveCard", draw, 1, 2)])
    alice.games[1].my_id = 1
    secrets = hand_secrets([alice, bob], {"Shock", "Giant Growth"})
    assert [(s.name, *s.holders) for s in secrets] == [("Shock", "bob")]
    assert [(leak.reader, leak.name) for leak in find_leaks([alice, bob], secrets)] == [("alice", "Shock")]


def test_a_card_is_public_once_every_reader_was_shown_it_face_up(protos: Protos) -> None:
    """A judge referee flips a set card up at the reveal: public from the first arrival, when every reader
    got it face up; a face-down move, or a name moved face up where one reader did not see it (a draw into
    the other's hand), is not public by it."""
    pb = protos
    flip = pb.Event_FlipCard(card_name="Shock", face_down=False)
    down = pb.Event_MoveCard(card_name="Giant Growth", target_zone="table", face_down=True)
    drawn = pb.Event_MoveCard(card_name="Serra Angel", start_zone="deck", target_zone="hand")
    alice = player_with(
        protos,
        "alice",
        [Received(2.0, "Event_FlipCard", flip, 1, 0), Received(1.0, "Event_MoveCard", down, 1, 0)],
    )
    bob = player_with(
        protos,
        "bob",
        [
            Received(2.1, "Event_FlipCard", flip, 1, 0),
            Received(3.0, "Event_FlipCard", flip, 1, 0),
            Received(1.0, "Event_MoveCard", down, 1, 0),
            Received(1.5, "Event_MoveCard", drawn, 1, 2),
        ],
    )
    universe = {"Shock", "Giant Growth", "Serra Angel"}
    assert turned_up_for_all([alice, bob], universe) == {"Shock": 2.0}
    assert turned_up_for_all([alice], universe) == {"Shock": 2.0}


def test_a_card_id_paired_with_its_name_is_followed_to_a_face_down_deal(protos: Protos) -> None:
    """Alice was shown bob's pack as cards (a reveal: ids with names); bob's pick then goes face down to his
    table with its id: alice knows which card he took, without its name in any text. The same deal is no
    leak to bob (his own pick), nor to alice for a card she was never shown."""
    pb = protos
    reveal = pb.Event_RevealCards(
        zone_name="deck", other_player_id=1, cards=[pb.ServerInfo_Card(id=7, name="Shock")]
    )
    deal = pb.Event_MoveCard(
        card_id=7,
        start_player_id=0,
        start_zone="deck",
        target_player_id=2,
        target_zone="table",
        new_card_id=3,
        face_down=True,
    )
    unseen = pb.Event_MoveCard(
        card_id=8,
        start_player_id=0,
        start_zone="deck",
        target_player_id=2,
        target_zone="table",
        new_card_id=4,
        face_down=True,
    )
    alice = player_with(
        protos,
        "alice",
        [
            Received(1.0, "Event_RevealCards", reveal, 1, 0),
            Received(2.0, "Event_MoveCard", deal, 1, 0),
            Received(2.5, "Event_MoveCard", unseen, 1, 0),
        ],
    )
    alice.games[1].my_id = 1
    bob = player_with(protos, "bob", [Received(2.0, "Event_MoveCard", deal, 1, 0)])
    bob.games[1].my_id = 2
    secrets = [Secret("Shock", frozenset({"bob"}), 1.5), Secret("Opt", frozenset({"bob"}), 1.5)]
    links = find_id_links([alice, bob], secrets)
    assert [(leak.reader, leak.name, leak.kind) for leak in links] == [("alice", "Shock", "a card id")]
    assert find_leaks([alice, bob], secrets) == []  # no name in any text: only the id tells
