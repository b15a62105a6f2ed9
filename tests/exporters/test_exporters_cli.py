"""``cockatrice-ext export`` via click's CliRunner: happy paths, unknown names, bad input, no half files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from export_samples import load_schema, parse_xml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cockatrice_ext.cards.store import shipped_store
from cockatrice_ext.cli import main
from cockatrice_ext.cli.export import bundled_blocks, default_output
from cockatrice_ext.decks.blocklist import read_block_list
from cockatrice_ext.decks.readers import read_cod, read_forge


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    return CliRunner()


def _run(runner: CliRunner, *args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(main, ["export", *args], catch_exceptions=False)


def test_bundled_auction_sample_to_cod(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "x.cod"
    result = _run(runner, "auction-sample", "--to", "cod", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == str(out)
    data = out.read_bytes()
    schema = load_schema("deck.xsd", cod_printing_attributes=True)
    assert schema.validate(parse_xml(data)), schema.error_log
    written = read_cod(data)
    source = read_block_list(bundled_blocks()["auction-sample"])
    assert written.name == source.name == "Auction Magic sample block"
    expected: dict[str, int] = {}
    for entry in source.main:
        expected[entry.name] = expected.get(entry.name, 0) + entry.count
    assert {e.name: e.count for e in written.sections["main"]} == expected
    assert sum(expected.values()) == 199
    tokens = [e.name for e in written.sections.get("tokens", [])]
    data_names = set(shipped_store().token_cards().cards)  # trailing spaces and all (the reader keeps them)
    assert tokens and set(tokens) <= data_names  # the card data's token names, which are Cockatrice's


def test_a_pinned_printing_the_built_in_cards_lack_comes_from_every_real_card(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compact built-in cards hold a few printings of common cards (58 of Mountain's 610): a list that
    pins another (a Forge deck's ``Mountain|TMP``, Arena's ``(TMP) 344``) used to get the default printing
    and a warning although the shipped data has it. Unpinned cards keep their default printing."""
    monkeypatch.delenv("COCKATRICE_EXT_CARDS", raising=False)
    block = tmp_path / "basics.txt"
    block.write_text("6 Mountain|TMP\n4 Forest (TMP) 349\n2 Island\n", encoding="utf-8")
    out = tmp_path / "basics.cod"
    result = _run(runner, str(block), "--to", "cod", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "has no printing" not in result.stderr
    rows = {e.name: (e.count, e.set_code, e.collector_number) for e in read_cod(out.read_bytes()).main}
    assert rows["Mountain"][:2] == (6, "TMP") and rows["Mountain"][2] in {"343", "344", "345", "346"}
    assert rows["Forest"] == (4, "TMP", "349")
    assert rows["Island"][0] == 2


def test_every_format_from_the_cli_is_deterministic(runner: CliRunner, tmp_path: Path) -> None:
    for fmt in ("cockatrice-xml", "text", "forge", "forge-cube", "mtgo", "arena"):
        first, second = tmp_path / "a" / f"out-{fmt}", tmp_path / "b" / f"out-{fmt}"  # same file name
        assert _run(runner, "auction-sample", "--to", fmt, "-o", str(first)).exit_code == 0
        assert _run(runner, "auction-sample", "--to", fmt, "-o", str(second)).exit_code == 0
        files_a = (
            sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
            if first.is_dir()
            else [Path()]
        )
        files_b = (
            sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
            if second.is_dir()
            else [Path()]
        )
        assert files_a == files_b
        for rel in files_a:
            assert (first / rel).read_bytes() == (second / rel).read_bytes(), fmt


def test_auction_sample_card_database_is_schema_valid(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "auction.xml"
    assert _run(runner, "auction-sample", "--to", "cockatrice-xml", "-o", str(out)).exit_code == 0
    root = parse_xml(out.read_bytes())
    schema = load_schema("cards-v4.xsd")
    assert schema.validate(root), schema.error_log
    assert len(root.findall("cards/card")) >= 188


def test_forge_cube_from_the_cli(runner: CliRunner, tmp_path: Path) -> None:
    result = _run(runner, "auction-sample", "--to", "forge-cube", "-o", str(tmp_path / "res"))
    assert result.exit_code == 0, result.output
    cube = read_forge((tmp_path / "res/cube/Auction Magic sample block.dck").read_text())
    draft = (tmp_path / "res/draft/Auction Magic sample block.draft").read_text()
    assert f"DeckFile:{cube.name}\n" in draft
    assert sum(e.count for e in cube.sections["main"]) == 199


def test_custom_set_xml_to_forge_custom_and_back_to_xml(runner: CliRunner, tmp_path: Path) -> None:
    result = _run(runner, "auction-custom.xml", "--to", "forge-custom", "-o", str(tmp_path / "custom"))
    assert result.exit_code == 0, result.output
    edition = (tmp_path / "custom/editions/Auction Magic Custom Cards.txt").read_text()
    assert "Code=AUC\n" in edition and "1 R Packaged Gnome\n" in edition
    assert (tmp_path / "custom/cards/packaged_gnome.txt").read_text().startswith("Name:Packaged Gnome\n")
    out = tmp_path / "auc.xml"
    result = _run(
        runner,
        "auction-custom",
        "--to",
        "cockatrice-xml",
        "-o",
        str(out),
        "--set-code",
        "AUX",
        "--set-name",
        "Auction X",
    )
    assert result.exit_code == 0, result.output
    root = parse_xml(out.read_bytes())
    assert [(s.findtext("name"), s.findtext("longname")) for s in root.find("sets")] == [("AUX", "Auction X")]


def test_custom_block_resolves_with_its_custom_set(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "c.cod"
    result = _run(runner, "auction-custom.txt", "--to", "cod", "-o", str(out))
    assert result.exit_code == 0, result.output
    rows = [(e.name, e.set_code, e.collector_number) for e in read_cod(out.read_bytes()).sections["main"]]
    assert rows[0] == ("Packaged Gnome", "AUC", "1")


def test_unknown_names_are_all_reported_and_nothing_is_written(runner: CliRunner, tmp_path: Path) -> None:
    block = tmp_path / "typos.txt"
    block.write_text("# Name: typos\n1 Angelic Edict\n2 Angelic Edcit\n\n[Side]\n1 Not A Real Card At All\n")
    out = tmp_path / "typos.cod"
    result = _run(runner, str(block), "--to", "cod", "-o", str(out))
    assert result.exit_code == 2
    assert "2 unknown card name(s)" in result.stderr
    assert f"  {block}:3: unknown card 'Angelic Edcit' (did you mean: Angelic Edict" in result.stderr
    assert f"  {block}:6: unknown card 'Not A Real Card At All'" in result.stderr
    # A designer's newer card (Dazzling Angel, 2024) is "unknown" only because the built-in data is older.
    assert "the built-in data holds real cards up to April 2022" in result.stderr
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["typos.txt"]


def test_bad_format_name(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["export", "auction-sample", "--to", "pdf", "-o", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "Invalid value for '--to'" in result.output and "cod" in result.output
    assert not (tmp_path / "x").exists()


def test_malformed_block_names_file_and_line(runner: CliRunner, tmp_path: Path) -> None:
    block = tmp_path / "broken.txt"
    block.write_text("1 Angelic Edict\n0 Pacifism\n")
    result = _run(runner, str(block), "--to", "cod", "-o", str(tmp_path / "b.cod"))
    assert result.exit_code == 2  # bad input, as for unknown cards and in block check
    assert f"{block}:2:" in result.stderr
    assert not (tmp_path / "b.cod").exists()


def test_malformed_cod_input(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "broken.cod"
    deck.write_text(
        '<?xml version="1.0"?><cockatrice_deck><zone name="main"><card number="1" name="x"></zone>'
    )
    result = _run(runner, str(deck), "--to", "forge", "-o", str(tmp_path / "b.dck"))
    assert result.exit_code == 2
    assert "broken.cod" in result.stderr
    assert not (tmp_path / "b.dck").exists()


def test_unknown_block_name(runner: CliRunner) -> None:
    result = runner.invoke(main, ["export", "no-such-block", "--to", "cod"])
    assert result.exit_code == 2
    assert "no bundled block named 'no-such-block'" in result.output and "auction-sample" in result.output


def test_default_output_is_derived_from_the_block_name(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = _run(runner, "auction-sample", "--to", "forge")
    assert result.exit_code == 0, result.output
    assert Path("auction-sample.dck").is_file()
    result = _run(runner, "auction-sample", "--to", "forge-cube")
    assert Path("auction-sample-forge-cube/draft/Auction Magic sample block.draft").is_file()


def test_never_overwrites_its_input(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("mine.txt").write_text("1 Angelic Edict\n")
    assert default_output(Path("mine.txt"), "text") == Path("mine.text.txt")
    result = _run(runner, "mine.txt", "--to", "text")
    assert result.exit_code == 0, result.output
    assert Path("mine.txt").read_text() == "1 Angelic Edict\n"
    assert Path("mine.text.txt").read_text() == "// mine\n\n1 Angelic Edict\n"
    result = runner.invoke(main, ["export", "mine.txt", "--to", "text", "-o", "mine.txt"])
    assert result.exit_code == 2 and "refusing to overwrite" in result.output
    assert Path("mine.txt").read_text() == "1 Angelic Edict\n"


def test_no_printings_gives_a_strictly_schema_valid_cod(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "c.cod"
    result = _run(runner, "auction-custom", "--to", "cod", "-o", str(out), "--no-printings")
    assert result.exit_code == 0, result.output
    schema = load_schema("deck.xsd")
    assert schema.validate(parse_xml(out.read_bytes())), schema.error_log
    assert b"setShortName" not in out.read_bytes()
    result = runner.invoke(main, ["export", "auction-custom", "--to", "forge", "--no-printings"])
    assert result.exit_code == 2 and "--no-printings" in result.output


def test_export_path_stays_light(tmp_path: Path) -> None:
    """The cod export of a bundled block imports neither the network stack nor lxml."""
    out = str(tmp_path / "x.cod")
    heavy = ("requests", "lxml", "asyncio", "websockets", "google.protobuf")
    code = (
        "import sys\n"
        "from cockatrice_ext.cli import main\n"
        f"main(['export', 'auction-sample', '--to', 'cod', '-o', {out!r}], standalone_mode=False)\n"
        f"print(sorted(m for m in {heavy!r} if m in sys.modules))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "COCKATRICE_EXT_CARDS"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert result.stdout.strip().splitlines()[-1] == "[]"
    assert (tmp_path / "x.cod").is_file()


@pytest.mark.parametrize("fmt", ["forge", "mtgo", "arena", "text", "cod"])
def test_written_decks_convert_back_to_the_same_cod(runner: CliRunner, tmp_path: Path, fmt: str) -> None:
    """block -> FORMAT -> cod gives the library the block itself gives (every format is read back)."""
    direct = tmp_path / "direct.cod"
    assert _run(runner, "auction-sample", "--to", "cod", "-o", str(direct), "--no-printings").exit_code == 0
    middle = tmp_path / f"middle.{fmt}"
    assert _run(runner, "auction-sample", "--to", fmt, "-o", str(middle)).exit_code == 0
    again = tmp_path / "again.cod"
    result = _run(runner, str(middle), "--to", "cod", "-o", str(again), "--no-printings")
    assert result.exit_code == 0, result.output
    first, second = read_cod(direct.read_bytes()), read_cod(again.read_bytes())
    assert {e.name: e.count for e in second.sections["main"]} == {
        e.name: e.count for e in first.sections["main"]
    }


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.one_of(
        st.binary(max_size=300),
        st.lists(
            st.sampled_from(
                [
                    "1 Angelic Edict",
                    "2 Pacifism",
                    "Sideboard",
                    "[Removal]",
                    "# Name: x",
                    "SB: 1 Mind Rot",
                    "0 Pacifism",
                    "1 Nonexistent Card",
                    "<cockatrice_deck>",
                    "1 Fire//Ice (MH2) 290",
                    "",
                    "x4",
                ]
            ),
            max_size=8,
        ).map(lambda lines: "\n".join(lines).encode()),
    )
)
def test_any_input_gives_a_clean_exit_and_no_partial_output(
    runner: CliRunner, tmp_path: Path, data: bytes
) -> None:
    block = tmp_path / "fuzz.txt"
    block.write_bytes(data)
    out = tmp_path / "fuzz.cod"
    out.unlink(missing_ok=True)
    result = runner.invoke(main, ["export", str(block), "--to", "cod", "-o", str(out)])
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    if result.exit_code == 0:
        read_cod(out.read_bytes())
    else:
        assert not out.exists()
        said = [line for line in result.stderr.splitlines() if not line.startswith(("note: ", "warning: "))]
        assert said and said[0].startswith("error: "), result.stderr  # how the file was read may come first
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_forge_outputs_forge_can_load(tmp_path: Path) -> None:
    """A .dck is named after its file (Forge keys decks by Name=); a draft fits its cube or is refused;
    forge-custom scripts no real card."""
    runner = CliRunner()
    result = runner.invoke(
        main, ["export", "auction-sample", "--to", "forge", "-o", str(tmp_path / "My Deck.dck")]
    )
    assert result.exit_code == 0, result.output
    assert "\nName=My Deck\n" in (tmp_path / "My Deck.dck").read_text()

    result = runner.invoke(
        main, ["export", "auction-sample", "--to", "forge-cube", "-o", str(tmp_path / "cube")]
    )
    assert result.exit_code == 0, result.output
    (draft,) = (tmp_path / "cube" / "draft").iterdir()
    fields = dict(line.split(": ", 1) for line in draft.read_text().splitlines() if ": " in line)
    assert int(fields["NumPlayers"]) * int(fields["NumPacks"]) * int(fields["Booster"].split()[0]) <= 199

    out = tmp_path / "cube8"
    result = runner.invoke(
        main,
        [
            "export",
            "auction-sample",
            "--to",
            "forge-cube",
            "-o",
            str(out),
            "--players",
            "8",
            "--packs",
            "3",
            "--pack-size",
            "15",
        ],
    )
    assert result.exit_code == 2 and "needs 360 cards; the cube has 199" in result.output
    assert not out.exists()

    result = runner.invoke(
        main, ["export", "auction-sample", "--to", "forge-custom", "-o", str(tmp_path / "fc")]
    )
    assert result.exit_code == 0, result.output  # every card of the sample block is a real card:
    assert not (tmp_path / "fc").exists()  # no edition with an empty [cards], no folder to copy
    assert "Nothing for Forge's custom folder: Forge has every real card of the block" in result.output
    assert "copy" not in result.output


def test_nothing_dropped_on_re_export(tmp_path: Path) -> None:
    """Spoiler cards keep their pictures; a .cod keeps its tags, banner card and format."""
    import re

    from shared_paths import COCKATRICE_FILES

    spoiler = COCKATRICE_FILES / "spoiler-magic-spoiler.xml"
    if not spoiler.is_file():
        pytest.skip("../shared/cockatrice/spoiler-magic-spoiler.xml is absent")
    runner = CliRunner()
    out = tmp_path / "spoiler.xml"
    result = runner.invoke(main, ["export", str(spoiler), "--to", "cockatrice-xml", "-o", str(out)])
    assert result.exit_code == 0, result.output
    before = set(re.findall(r'picURL="([^"]+)"', spoiler.read_text()))
    after = set(re.findall(r'picURL="([^"]+)"', out.read_text().replace("&amp;", "&")))
    assert before and before == after

    cod = tmp_path / "tagged.cod"
    cod.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1"><deckname>Tagged</deckname>'
        "<format>commander</format><bannerCard>Duress</bannerCard><comments>c</comments>"
        "<tags><tag>auction</tag><tag>budget</tag></tags>"
        '<zone name="main"><card number="4" name="Duress"/></zone></cockatrice_deck>'
    )
    again = tmp_path / "again.cod"
    result = runner.invoke(main, ["export", str(cod), "--to", "cod", "-o", str(again)])
    assert result.exit_code == 0, result.output
    text = again.read_text()
    assert "<format>commander</format>" in text and "<bannerCard>Duress</bannerCard>" in text
    assert "<tag>auction</tag>" in text and "<tag>budget</tag>" in text


@pytest.mark.parametrize("block", sorted(bundled_blocks()))
def test_a_cod_we_wrote_reads_back_to_the_same_cod(runner: CliRunner, tmp_path: Path, block: str) -> None:
    """Every bundled block's .cod, exported again, is the same file: Magic-Token's same-named tokens told
    apart by trailing spaces (``Bird Token `` and ``Bird Token  ``) stay apart (they merged into one), and
    the tokens the tokens make (a dungeon's Goblin) are there from the first export."""
    first, second = tmp_path / "first.cod", tmp_path / "second.cod"
    assert _run(runner, block, "--to", "cod", "-o", str(first)).exit_code == 0
    result = _run(
        runner, str(first), "--to", "cod", "-o", str(second), "--name", read_cod(first.read_bytes()).name
    )
    assert result.exit_code == 0, result.output
    assert second.read_bytes() == first.read_bytes()


def test_a_token_variant_is_kept_or_said(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "tokens.cod"
    deck.write_text(
        '<cockatrice_deck version="1"><deckname>t</deckname><zone name="main">'
        '<card number="1" name="Goblin Instigator"/></zone><zone name="tokens">'
        '<card number="1" name="Goblin Token "/><card number="1" name="Treasure Token    "/>'
        "</zone></cockatrice_deck>"
    )
    result = _run(runner, str(deck), "--to", "cod", "-o", str(tmp_path / "out.cod"))
    assert result.exit_code == 0, result.output
    tokens = [e.name for e in read_cod((tmp_path / "out.cod").read_bytes()).sections["tokens"]]
    assert "Goblin Token " in tokens  # Magic-Token's variant, in the card data: kept exactly
    assert "token 'Treasure Token    ' is not in the card data; written as 'Treasure Token'" in result.output


def test_oversized_lists_and_counts_are_refused_with_a_reason(runner: CliRunner, tmp_path: Path) -> None:
    """10,000 lines of ``999 Lightning Bolt`` (a 162 MB Forge cube) and a 10-digit count (read as part of
    the name: "unknown card '2147483648 Lightning Bolt'") are refused with what is wrong; nothing written."""
    many = tmp_path / "many.txt"
    many.write_text("999 Lightning Bolt\n" * 10_000)
    out = tmp_path / "cube"
    result = runner.invoke(main, ["export", str(many), "--to", "forge-cube", "-o", str(out)])
    assert result.exit_code == 2 and "9,990,000 cards in all; a list holds at most 100,000" in result.output
    assert not out.exists()
    big = tmp_path / "big.txt"
    big.write_text("2147483648 Lightning Bolt\n")
    result = runner.invoke(main, ["export", str(big), "--to", "cod", "-o", str(tmp_path / "b.cod")])
    assert result.exit_code == 2 and "count 2147483648 is above 999" in result.output


def test_only_the_unknown_names_shown_get_suggestions() -> None:
    """Suggestions are looked for only for the 25 names the message lists (10,000 unknown names took half a
    minute to refuse)."""
    from cockatrice_ext.cards.errors import UnknownCardsError
    from cockatrice_ext.cards.model import CardDatabase
    from cockatrice_ext.cards.resolve import resolve_deck
    from cockatrice_ext.decks.blocklist import parse_block_list

    deck = parse_block_list("".join(f"1 Lightnin Bolt {n}\n" for n in range(40)))
    db = shipped_store().cards_for(["Lightning Bolt"])
    assert isinstance(db, CardDatabase)
    with pytest.raises(UnknownCardsError) as refused:
        resolve_deck(deck, db)
    unknown = refused.value.unknown
    assert len(unknown) == 40 and all(u.suggestions for u in unknown[:25])
    assert not any(u.suggestions for u in unknown[25:])


def test_the_default_card_file_is_never_the_custom_set_beside_the_list() -> None:
    """``myblock.xml`` beside ``myblock.txt`` is the designer's custom set, read with the list: the card file
    written by default takes another name, else the next export reads it back as the designer's set."""
    assert default_output(Path("myblock.txt"), "cockatrice-xml") == Path("myblock.cards.xml")
    card_file = default_output(Path("sets/auction-custom.xml"), "cockatrice-xml")
    assert card_file == Path("auction-custom.cards.xml")
    assert default_output(None, "cockatrice-xml", "Esika Brawl") == Path("Esika Brawl.cards.xml")
    assert default_output(Path("myblock.txt"), "cod") == Path("myblock.cod")


ALCHEMY = "2 A-Alrund, God of the Cosmos (KHM) A-40\n4 Opt\n"


def test_an_alchemy_card_in_an_mtgo_deck_is_named_with_the_card_it_rebalances(
    runner: CliRunner, tmp_path: Path
) -> None:
    """MTGO has no Alchemy card: the deck keeps what the list says (nothing dropped or swapped), and one
    warning names the card and the one it rebalances. It used to be written without a word."""
    block = tmp_path / "alch.txt"
    block.write_text(ALCHEMY, encoding="utf-8")
    result = _run(runner, str(block), "--to", "mtgo", "-o", "-")
    assert result.exit_code == 0, result.output
    assert 'Quantity="2" Sideboard="false" Name="A-Alrund, God of the Cosmos"' in result.stdout
    assert 'Quantity="4" Sideboard="false" Name="Opt"' in result.stdout
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        "warning: MTGO does not have A-Alrund, God of the Cosmos: an Alchemy card (rebalanced for MTG Arena"
        " only), written as the list names it, which MTGO will not load; for MTGO, list the card it"
        " rebalances, Alrund, God of the Cosmos"
    ]
    arena = _run(runner, str(block), "--to", "arena", "-o", "-")  # written, and Arena may no longer have it
    assert arena.exit_code == 0, arena.output
    assert "2 A-Alrund, God of the Cosmos (KHM) 40" in arena.stdout.splitlines()
    assert [line for line in arena.stderr.splitlines() if line.startswith("warning:")] == [
        "warning: A-Alrund, God of the Cosmos is an Alchemy card (rebalanced for MTG Arena), written as the"
        " list names it; Arena reverted its rebalanced cards to their originals in September 2026, so its"
        " import may not know it: if Arena refuses it, list the card it rebalances, Alrund, God of the Cosmos"
    ]
    paper = tmp_path / "paper.txt"
    paper.write_text("2 Alrund, God of the Cosmos\n", encoding="utf-8")
    assert "warning" not in _run(runner, str(paper), "--to", "mtgo", "-o", "-").stderr


def test_an_alchemy_card_pinned_without_its_a_keeps_its_printing(runner: CliRunner, tmp_path: Path) -> None:
    """``(KHM) 40`` for A-Alrund (numbered ``A-40``) used to get a generic "no printing" warning and the
    default printing; the pin is taken."""
    block = tmp_path / "arena.txt"
    block.write_text("Deck\n2 A-Alrund, God of the Cosmos (KHM) 40\n4 Opt (ELD) 59\n", encoding="utf-8")
    result = _run(runner, str(block), "--to", "arena", "-o", "-")
    assert result.exit_code == 0, result.output
    assert "2 A-Alrund, God of the Cosmos (KHM) 40" in result.stdout.splitlines()
    assert "no printing" not in result.stderr


@pytest.mark.parametrize(
    ("line", "written"),
    [
        ("1 A-Alrund, God of the Cosmos (KHM) A-40", "1 A-Alrund, God of the Cosmos (KHM) 40"),
        ("1 A-Cloister Gargoyle (AFR) A-7", "1 A-Cloister Gargoyle (AFR) 7"),
        ("1 Alrund, God of the Cosmos (KHM) 40", "1 Alrund, God of the Cosmos (KHM) 40"),
        ("1 Archive Trap (ZEN) 41", "1 Archive Trap (ZEN) 41"),
    ],
)
def test_an_alchemy_card_is_numbered_as_arena_numbers_it(
    runner: CliRunner, tmp_path: Path, line: str, written: str
) -> None:
    """Arena keeps a rebalanced card under its original's set and number (the ``A-`` is in its name only,
    as Arena's own export writes ``A-Demilich (AFR) 53``), and its import reads a number as letters and
    digits; the Arena writer wrote the card data's ``(KHM) A-40``. Other cards keep their numbers; the
    line reads back to the same printing."""
    block = tmp_path / "alchemy.txt"
    block.write_text(line + "\n", encoding="utf-8")
    result = _run(runner, str(block), "--to", "arena", "-o", "-")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["Deck", written]
    again = tmp_path / "again.txt"
    again.write_text(result.stdout, encoding="utf-8")
    cod = tmp_path / "again.cod"
    assert _run(runner, str(again), "--to", "cod", "-o", str(cod)).exit_code == 0
    first = tmp_path / "first.cod"
    assert _run(runner, str(block), "--to", "cod", "-o", str(first)).exit_code == 0
    assert read_cod(cod.read_bytes()).main == read_cod(first.read_bytes()).main


def test_a_number_the_named_set_lacks_keeps_the_set(runner: CliRunner, tmp_path: Path) -> None:
    """``Arcane Signet (C21) 236`` (234 in C21) used to fall back to another set's default printing."""
    block = tmp_path / "signet.txt"
    block.write_text("1 Arcane Signet (C21) 236\n", encoding="utf-8")
    out = tmp_path / "signet.cod"
    result = _run(runner, str(block), "--to", "cod", "-o", str(out))
    assert result.exit_code == 0, result.output
    rows = [(e.name, e.set_code, e.collector_number) for e in read_cod(out.read_bytes()).main]
    assert rows == [("Arcane Signet", "C21", "234")]
    assert (
        f"warning: {block}:1: 'Arcane Signet' has no printing (C21) 236: its number in C21 is 234, not 236;"
        " using (C21) 234"
    ) in result.stderr
