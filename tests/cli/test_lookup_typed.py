"""``cards lookup`` reads a name as lists and chat do: quote marks, invisible characters and a printing
pinned after the name (``Lightning Bolt (M10) 146``, as ``export`` takes the same line)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cockatrice_ext.cli import main


def lookup(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["cards", "lookup", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("typed", "printing"),
    [
        ("Lightning Bolt (M10) 146", "M10 146"),
        ('"Lightning Bolt (M10) 146"', "M10 146"),
        ("\u201cLightning Bolt\u201d (M10) 146", "M10 146"),
        ("[M10:146] Lightning Bolt", "M10 146"),
        ("Plains (UNH) 136", "UNH 136"),  # a printing only the shipped store has, as export pins it
    ],
)
def test_a_pinned_name_shows_the_card_in_that_printing(typed: str, printing: str) -> None:
    code, out, err = lookup(typed)
    assert code == 0, err
    assert out.startswith(("Lightning Bolt  {R}\n", "Plains\n"))
    assert f"Selected printing: {printing}" in out
    assert "no printing" not in err


def test_quote_marks_and_invisible_characters_are_no_part_of_the_name() -> None:
    code, out, err = lookup('"Shock"', "Counter\u200bspell")
    assert code == 0, err
    assert out.startswith("Shock  {R}")
    assert "\nCounterspell  {U}{U}" in out


def test_a_pin_that_names_no_printing_warns_and_shows_the_card() -> None:
    code, out, err = lookup("Lightning Bolt (ZZZ) 1")
    assert code == 0, err
    assert out.startswith("Lightning Bolt  {R}")
    assert "'Lightning Bolt' has no printing (ZZZ) 1; using the default printing" in err


def test_the_options_win_over_the_pin() -> None:
    code, out, err = lookup("Lightning Bolt (M10) 146", "--set", "LEA")
    assert code == 0, err
    assert "Selected printing: LEA " in out


def test_a_real_name_with_parentheses_is_that_card() -> None:
    code, out, err = lookup("Hazmat Suit (Used)")
    assert code == 0, err
    assert out.startswith("Hazmat Suit (Used)")
    assert "Selected printing" not in out


def test_an_unknown_pinned_name_is_suggested_by_its_name() -> None:
    code, _, err = lookup("Lightnin Bolt (M10) 146")
    assert code == 2
    assert "unknown card 'Lightnin Bolt (M10) 146'" in err
    assert "Did you mean: Lightning Bolt" in err


@pytest.mark.parametrize(
    ("typed", "printing"),
    [
        ("4 Opt (ELD) 59", "ELD 59"),
        ('"4 Opt (ELD) 59"', "ELD 59"),
        ("4x Opt (ELD) 59", "ELD 59"),
        ("1 [ELD:59] Opt", "ELD 59"),
        ("SB: 2 Opt (ELD) 59", "ELD 59"),
        ("1x Opt (eld) 59 *F* [Cantrip]", "ELD 59"),
    ],
)
def test_a_pasted_list_line_with_its_count_is_that_card(typed: str, printing: str) -> None:
    """The help says a NAME is read as a list's line is: a line pasted from a list, count and all, used to
    be refused as unknown."""
    code, out, err = lookup(typed)
    assert code == 0, err
    assert out.startswith("Opt  {U}\n")
    assert f"Selected printing: {printing}" in out
    assert "warning" not in err


def test_a_count_alone_before_a_name_is_passed_over_and_names_with_digits_stay_whole() -> None:
    code, out, err = lookup("4 Opt", "1996 World Champion")
    assert code == 0, err
    assert out.startswith("Opt  {U}\n") and "\n1996 World Champion  {W}{U}{B}{R}{G}" in out
    assert "Selected printing" not in out
    code, _, err = lookup("4 Lightnin Bolt (M10) 146")
    assert code == 2 and "Did you mean: Lightning Bolt" in err


def test_the_help_says_a_pasted_line_with_its_count_is_read() -> None:
    result = CliRunner().invoke(main, ["cards", "lookup", "--help"])
    assert result.exit_code == 0
    assert '"4 Lightning Bolt (M10) 146"' in " ".join(result.output.split())


def test_a_number_the_named_set_does_not_hold_shows_that_sets_printing() -> None:
    code, out, err = lookup("1 Arcane Signet (C21) 236")
    assert code == 0, err
    assert "Selected printing: C21 234" in out
    assert "its number in C21 is 234, not 236; using (C21) 234" in err
