"""Names are matched in English only (the card data holds no translations): a translated name is unknown,
and what is said about it says so instead of only offering a card source, which cannot help."""

from __future__ import annotations

from click.testing import CliRunner, Result

from cockatrice_ext.cards.errors import UnknownCard, UnknownCardsError, latin_letters
from cockatrice_ext.cli import main


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def test_the_hint_under_unknown_names_says_names_are_english() -> None:
    assert "names are matched in English only" in UnknownCardsError.HINT
    message = str(UnknownCardsError([UnknownCard("Blitzschlag", line=1, suggestions=("Blitz Leech",))]))
    assert message.splitlines()[-1] == UnknownCardsError.HINT  # said once, under the names


def test_a_name_in_another_script_says_it_is_not_english() -> None:
    assert not latin_letters("稲妻") and not latin_letters("Молния")
    assert (
        latin_letters("Lim-Dûl's Vault") and latin_letters("Æther Vial") and latin_letters("Ach! Hans, Run!")
    )
    said = UnknownCard("稲妻", line=3).describe()
    assert said == "line 3: unknown card '稲妻' (not an English name: names are matched in English only)"
    assert "English" not in UnknownCard("Zzyzx Nothing", line=1).describe()


def test_lookup_of_a_translated_name_says_names_are_english() -> None:
    for name in ("Blitzschlag", "稲妻"):
        result = invoke("cards", "lookup", name)
        assert result.exit_code == 2
        assert "names are matched in English only" in result.stderr, result.stderr
    result = invoke("cards", "lookup", "稲妻")
    assert "It is not an English name" in result.stderr


def test_export_of_translated_names_says_names_are_english() -> None:
    result = invoke("export", "-", "--to", "text", "-o", "-", stdin="4 Blitzschlag\n4 Foudre\n1 稲妻\n")
    assert result.exit_code == 2
    assert "  <stdin>:3: unknown card '稲妻' (not an English name" in result.stderr
    assert "names are matched in English only" in result.stderr
