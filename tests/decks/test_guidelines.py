"""Auction block guidelines measured from hand-made cards with real oracle texts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.model import Card, Face
from cockatrice_ext.decks.guidelines import (
    analyze_block,
    draws_more_than_one,
    is_removal,
    stall_reason,
)


def card(
    name: str,
    types: tuple[str, ...],
    text: str = "",
    mv: float = 2,
    pt: tuple[str, str] | None = None,
    subtypes: tuple[str, ...] = (),
) -> Card:
    power, toughness = pt if pt else (None, None)
    face = Face(
        name=name,
        mana_value=mv,
        types=types,
        subtypes=subtypes,
        oracle_text=text,
        power=power,
        toughness=toughness,
    )
    return Card(name=name, faces=(face,))


MURDER = card("Murder", ("Instant",), "Destroy target creature.", 3)
PACIFISM = card(
    "Pacifism", ("Enchantment",), "Enchant creature\nEnchanted creature can't attack or block.", 2
)
SHOCK = card("Shock", ("Instant",), "Shock deals 2 damage to any target.", 1)
PREY_UPON = card(
    "Prey Upon", ("Sorcery",), "Target creature you control fights target creature you don't control.", 1
)
UNSUMMON = card("Unsummon", ("Instant",), "Return target creature to its owner's hand.", 1)
EDICT = card("Cruel Edict", ("Sorcery",), "Target opponent sacrifices a creature.", 2)
BONE_SPLINTERS = card(
    "Bone Splinters",
    ("Sorcery",),
    "As an additional cost to cast this spell, sacrifice a creature.\nDestroy target creature.",
    1,
)
DEAD_WEIGHT = card("Dead Weight", ("Enchantment",), "Enchant creature\nEnchanted creature gets -2/-2.", 1)
DIVINATION = card("Divination", ("Sorcery",), "Draw two cards.", 3)
OPT = card("Opt", ("Instant",), "Scry 1.\nDraw a card.", 1)
BEARS = card("Grizzly Bears", ("Creature",), "", 2, ("2", "2"))
WALL_OF_FROST = card(
    "Wall of Frost",
    ("Creature",),
    "Defender\nWhenever Wall of Frost blocks a creature, that creature doesn't untap "
    "during its controller's next untap step.",
    3,
    ("0", "7"),
    ("Wall",),
)
GUARDIAN_LIONS = card("Guardian Lions", ("Creature",), "Vigilance", 5, ("1", "6"))
HYDROPON = card(
    "Vigean Hydropon", ("Creature",), "Graft 5\nVigean Hydropon can't attack or block.", 3, ("0", "0")
)
DETAINER = card(
    "Lyev Skyknight",
    ("Creature",),
    "Flying\nWhen Lyev Skyknight enters the battlefield, detain target nonland permanent "
    "an opponent controls. (Until your next turn, that permanent can't attack or block "
    "and its activated abilities can't be activated.)",
    3,
    ("3", "1"),
)
FOG = card("Fog", ("Instant",), "Prevent all combat damage that would be dealt this turn.", 1)
FOREST = card("Forest", ("Land",), "({T}: Add {G}.)", 0)


FORKED_BOLT = card(
    "Forked Bolt",
    ("Sorcery",),
    "Forked Bolt deals 2 damage divided as you choose among one or two targets.",
    1,
)
FIREBALL = card(
    "Fireball",
    ("Sorcery",),
    "This spell costs {1} more to cast for each target beyond the first.\nFireball deals X damage divided "
    "evenly, rounded down, among any number of targets.",
    1,
)


def test_removal_detection() -> None:
    for removal in (MURDER, PACIFISM, SHOCK, PREY_UPON, UNSUMMON, EDICT, BONE_SPLINTERS, DEAD_WEIGHT):
        assert is_removal(removal), removal.name
    for removal in (FORKED_BOLT, FIREBALL):  # damage divided among targets
        assert is_removal(removal), removal.name
    for other in (DIVINATION, OPT, BEARS, HYDROPON, DETAINER, FOG, FOREST):
        assert not is_removal(other), other.name


def test_draw_detection() -> None:
    assert draws_more_than_one(DIVINATION)
    assert not draws_more_than_one(OPT)
    assert draws_more_than_one(card("Ordeal", ("Enchantment",), "Sacrifice it. If you do, draw two cards."))
    assert draws_more_than_one(card("Harmonize", ("Sorcery",), "Draw three cards."))


def test_stall_detection() -> None:
    assert stall_reason(WALL_OF_FROST) == "defender"
    assert stall_reason(GUARDIAN_LIONS) == "1/6 blocker"
    assert stall_reason(HYDROPON) == "can't attack"
    assert stall_reason(FOG) == "prevents combat damage"
    assert stall_reason(card("Wall of Air", ("Creature",), "Flying", 3, ("1", "5"), ("Wall",))) == "Wall"
    for fine in (BEARS, MURDER, DETAINER, card("Tarmogoyf", ("Creature",), "", 2, ("*", "1+*"))):
        assert stall_reason(fine) is None, fine.name


def test_report_shares_curve_and_warnings() -> None:
    block = [(BEARS, 5), (MURDER, 1), (DIVINATION, 1), (WALL_OF_FROST, 1), (FOREST, 2)]
    report = analyze_block(block)
    assert report.total == 10
    assert report.creatures == 6 and report.creature_share == 0.6
    assert report.lands == 2
    assert report.removal == ("Murder",) and report.removal_share == 0.1
    assert report.draw == ("Divination",)
    assert report.stall == {"Wall of Frost": "defender"}
    assert report.curve == {2: 5, 3: 3}
    codes = [w.code for w in report.warnings]
    assert codes == ["draw", "board-stall"]  # 60% creatures and 10% removal are within the guidelines
    assert report.warnings[0].cards == ("Divination",)


def test_creature_and_removal_warnings() -> None:
    few = analyze_block([(BEARS, 1), (MURDER, 3)])
    assert [w.code for w in few.warnings] == ["creatures-low", "removal-high"]
    many = analyze_block([(BEARS, 9), (OPT, 1)])
    assert [w.code for w in many.warnings] == ["creatures-high", "removal-low"]
    assert [w.code for w in analyze_block([]).warnings] == ["empty"]


POOL = [MURDER, PACIFISM, SHOCK, DIVINATION, OPT, BEARS, WALL_OF_FROST, GUARDIAN_LIONS, HYDROPON, FOG, FOREST]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(POOL), st.integers(1, 8)), max_size=30))
def test_report_invariants(block: list[tuple[Card, int]]) -> None:
    report = analyze_block(block)
    assert report.total == sum(n for _, n in block)
    assert 0 <= report.creature_share <= 1 and 0 <= report.removal_share <= 1
    assert report.removal_count <= report.total and report.creatures <= report.total
    assert sum(report.curve.values()) == report.total - report.lands
    assert set(report.removal) == {c.name for c, _ in block if is_removal(c)}
    assert (report.total == 0) == any(w.code == "empty" for w in report.warnings)
