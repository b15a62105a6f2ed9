"""Card names as players type them (cockatrice_ext.cards.typed): one rule for every chat command."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.cards.typed import closest_names, match_names, split_names, split_pair, typed_key

HAND = [
    "Goblin Assault",
    "Sovereign's Bite",
    "Lim-Dûl's Vault",
    "Æther Adept",
    "Fire // Ice",
    "Delver of Secrets // Insectile Aberration",
    "Mikaeus, the Lunarch",
    "Shock",
    "Shocking Grasp",
]


def test_a_phone_s_apostrophe_accents_ligatures_and_spacing_name_the_card() -> None:
    assert match_names("Sovereign\u2019s Bite ", HAND) == ["Sovereign's Bite"]
    assert match_names("lim-dul's vault", HAND) == ["Lim-Dûl's Vault"]
    assert match_names("Lim\u2010Dûl\u2019s Vault", HAND) == ["Lim-Dûl's Vault"]  # a Unicode hyphen
    assert match_names("AEther Adept", HAND) == ["Æther Adept"]
    assert match_names("goblin\u00a0assault", HAND) == ["Goblin Assault"]
    assert match_names("Gob\u200blin Assault\ufeff", HAND) == ["Goblin Assault"]  # invisible characters


def test_quote_marks_and_a_set_code_after_the_name_are_not_part_of_it() -> None:
    assert match_names('"Goblin Assault"', HAND) == ["Goblin Assault"]
    assert match_names("\u201cGoblin Assault\u201d", HAND) == ["Goblin Assault"]
    assert match_names("Goblin Assault (M10) 146", HAND) == ["Goblin Assault"]
    assert match_names("Shock [M21]", HAND) == ["Shock"]


def test_one_face_names_a_split_or_double_faced_card() -> None:
    assert match_names("Fire", HAND) == ["Fire // Ice"]
    assert match_names("ice", HAND) == ["Fire // Ice"]
    assert match_names("Fire/Ice", HAND) == ["Fire // Ice"]
    assert match_names("Delver of Secrets", HAND) == ["Delver of Secrets // Insectile Aberration"]
    assert match_names("Insectile Aberration", HAND) == ["Delver of Secrets // Insectile Aberration"]


def test_a_start_of_three_characters_names_a_card_and_two_candidates_are_both_offered() -> None:
    assert match_names("Gob", HAND) == ["Goblin Assault"]
    assert match_names("Go", HAND) == []  # too short to mean anything
    assert match_names("Mikaeus", HAND) == ["Mikaeus, the Lunarch"]
    assert match_names("Shock", HAND) == ["Shock"]  # the whole name wins over a start of another
    assert match_names("Shoc", HAND) == ["Shock", "Shocking Grasp"]
    assert match_names("Black Lotus", HAND) == []
    assert match_names("   ", HAND) == []


def test_an_un_card_named_in_quote_marks_is_named_with_or_without_them() -> None:
    names = ['"Ach! Hans, Run!"', "Shock"]
    assert match_names("Ach! Hans, Run!", names) == ['"Ach! Hans, Run!"']
    assert match_names("\u201cAch! Hans, Run!\u201d", names) == ['"Ach! Hans, Run!"']


def test_each_name_once_in_the_order_given() -> None:
    assert match_names("shock", ["Shock", "Shock", "SHOCK"]) == ["Shock", "SHOCK"]


def test_a_typo_gets_the_closest_names() -> None:
    assert closest_names("Goblin Asault", HAND) == ["Goblin Assault"]
    assert closest_names("Zzzz", HAND) == []


def test_a_list_keeps_names_with_commas_whole() -> None:
    assert split_names("Mikaeus, the Lunarch, Shock", HAND) == ["Mikaeus, the Lunarch", "Shock"]
    assert split_names("Shock,Mikaeus,the Lunarch", HAND) == ["Shock", "Mikaeus,the Lunarch"]
    assert split_names("Shock, Black Lotus, Fire", HAND) == ["Shock", "Black Lotus", "Fire"]
    assert split_names("Shock,, ", HAND) == ["Shock"]


def test_a_pair_splits_where_both_sides_name_cards() -> None:
    pool = ["Back for More", "Shock"]
    assert split_pair("Back for More for Shock", " for ", pool, pool) == ("Back for More", "Shock")
    assert split_pair("Shock FOR Back for More", " for ", pool, pool) == ("Shock", "Back for More")
    assert split_pair("Shock and Back", " for ", pool, pool) is None


NAMES = st.lists(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZÆæûéöñ' ,-/!\u00a0", max_size=30),
    min_size=1,
    max_size=8,
)


@given(NAMES, st.data())
def test_every_name_typed_whole_in_any_case_is_among_what_it_names(names: list[str], data) -> None:
    name = data.draw(st.sampled_from(names))
    if not typed_key(name):
        return
    typed = data.draw(st.sampled_from([name, name.upper(), name.lower(), f" {name} ", f'"{name}"']))
    assert name in match_names(typed, names)


@given(st.text(max_size=200), st.lists(st.text(max_size=40), max_size=6))
def test_any_text_is_answered_without_an_exception(typed: str, names: list[str]) -> None:
    found = match_names(typed, names)
    assert set(found) <= set(names)
    assert set(closest_names(typed, names)) <= set(names)
    assert all(piece.strip() for piece in split_names(typed, names))
