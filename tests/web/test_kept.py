"""The web view's notes in the journal: grants by their token's digest, league page numbers by key."""

from __future__ import annotations

import hashlib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from cockatrice_ext.journal import Journal
from cockatrice_ext.web.kept import KeptPages
from cockatrice_ext.web.tokens import Grant, TokenBook

SERVER = "tcp://example:4747"
ADDRESS = "https://referee.example.org"


def test_issued_grants_are_kept_by_digest_and_revoked_ones_dropped(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    kept = KeptPages(journal, SERVER)
    kept.load(ADDRESS)  # as the web view does before it gives a link
    book = TokenBook(kept.grant_changed)
    ann = book.issue(("league", 3), "ann", "ann")
    ben = book.issue(("game", 12), 2, "ben")
    again = KeptPages(journal, SERVER)
    again.load(ADDRESS)
    assert again.grants == {
        hashlib.sha256(ann.encode()).digest(): Grant(("league", 3), "ann", "ann"),
        hashlib.sha256(ben.encode()).digest(): Grant(("game", 12), 2, "ben"),
    }
    book.revoke(("game", 12))
    renewed = book.issue(("league", 3), "ann", "ann")  # a new link for ann replaces her old one
    later = KeptPages(journal, SERVER)
    later.load(ADDRESS)
    assert later.grants == {hashlib.sha256(renewed.encode()).digest(): Grant(("league", 3), "ann", "ann")}
    restored = TokenBook()
    for digest, grant in later.grants.items():
        restored.load(digest, grant)
    assert restored.find(renewed, ("league", 3)) == Grant(("league", 3), "ann", "ann")
    assert restored.find(ann, ("league", 3)) is None
    journal.close()
    data = b"".join(path.read_bytes() for path in tmp_path.iterdir())
    assert not any(token.encode() in data for token in (ann, ben, renewed))  # no link in the journal


def test_page_numbers_are_kept_and_never_given_twice(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    kept = KeptPages(journal, SERVER)
    kept.number_given("lobby-a", 1)
    kept.number_given("lobby-b", 2)
    kept.number_dropped("lobby-b")  # emptied: its number is not kept, and not given again either
    again = KeptPages(journal, SERVER)
    again.load(ADDRESS)
    assert again.numbers == {"lobby-a": 1} and again.next_number == 3
    assert KeptPages(journal, "tcp://another:4747").numbers == {}
    journal.close()


def test_notes_that_do_not_read_as_ours_are_dropped(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    prefix = f"{SERVER}:web:"
    good = {"kind": "league", "number": 1, "player": "ann", "name": "ann"}
    bad = {
        "token:zz": good,  # not hex
        f"token:{'ab' * 32}": {**good, "kind": "room"},
        f"token:{'cd' * 32}": {**good, "number": "1"},
        f"token:{'ef' * 32}": {**good, "player": ["ann"]},
        f"token:{'01' * 32}": {**good, "name": ""},
        "page:": {"number": 1},
        "page:lobby": {"number": True},
        "next": {"number": -4},
        "something": {},
    }
    for key, value in bad.items():
        journal.put_note(prefix + key, value)
    journal.put_note(f"{prefix}token:{'02' * 32}", good)
    journal.put_note(f"{prefix}address", {"url": ADDRESS})
    kept = KeptPages(journal, SERVER)
    kept.load(ADDRESS)
    assert list(kept.grants) == [bytes.fromhex("02" * 32)]
    assert list(journal.notes(prefix)) == [f"{prefix}address", f"{prefix}token:{'02' * 32}"]
    journal.close()


VALUES = st.none() | st.booleans() | st.integers() | st.text(max_size=6)
NOTES = st.dictionaries(
    st.text(max_size=8), st.dictionaries(st.text(max_size=6), VALUES, max_size=5), max_size=6
)


@given(NOTES)
def test_any_notes_load_without_error(notes: dict[str, dict[str, object]]) -> None:
    class Notes:
        def __init__(self) -> None:
            self.kept = {f"{SERVER}:web:{key}": value for key, value in notes.items()}

        def notes(self, prefix: str) -> dict[str, dict[str, object]]:
            return {k: v for k, v in self.kept.items() if k.startswith(prefix)}

        def drop_note(self, key: str) -> None:
            del self.kept[key]

        def put_note(self, key: str, value: dict[str, object]) -> None:
            self.kept[key] = value

    store = Notes()
    kept = KeptPages(store, SERVER)
    kept.load(ADDRESS)
    ours = sum(key.endswith((":web:next", ":web:address")) for key in store.kept)
    assert len(kept.grants) + len(kept.numbers) + ours == len(store.kept)  # what is left reads as ours


def test_links_given_at_another_address_are_forgotten(tmp_path: Path) -> None:
    """Served elsewhere now (another ``--web`` port or ``--web-url``), or on a port of the moment: the old
    links lead nowhere, so their grants are dropped and their players get new links."""
    journal = Journal(tmp_path / "journal.sqlite3")
    kept = KeptPages(journal, SERVER)
    kept.load(ADDRESS)
    TokenBook(kept.grant_changed).issue(("league", 1), "ann", "ann")
    again = KeptPages(journal, SERVER)
    again.load(ADDRESS)
    assert len(again.grants) == 1
    elsewhere = KeptPages(journal, SERVER)
    elsewhere.load("http://127.0.0.1:8081")
    assert elsewhere.grants == {} and journal.notes(f"{SERVER}:web:token:") == {}
    TokenBook(elsewhere.grant_changed).issue(("league", 1), "ann", "ann")
    fleeting = KeptPages(journal, SERVER)
    fleeting.load(None)
    assert fleeting.grants == {} and journal.notes(f"{SERVER}:web:token:") == {}
    journal.close()
