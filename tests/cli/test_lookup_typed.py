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
