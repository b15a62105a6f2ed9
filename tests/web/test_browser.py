"""The web view in a real browser: headless Chromium (Debian's packages, driven by Selenium through the
system chromedriver) on the pages of ``cockatrice-ext bot run --web``, a real process refereeing real
Servatrice games with scripted players.

* Auction: the public board shows the lot, each bid, gold, the block size and the history as the game
  goes, and never a card still hidden in the block.
* Vortex: each player's private link (sent by private message) shows exactly their pack; a token does
  not open another game's page nor act for another player; a pick clicked on the page is the chat
  command (journaled, announced in game chat, the card in the player's hand); the link expires when the
  game ends.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from servatrice import ServatriceServer, free_port

pytestmark = pytest.mark.servatrice

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent / "bot"))
from bot_players import Player, wait_until  # noqa: E402

BLOCK = """\
# Six different cards: a card still in the block is one the board must never name.
1 Serra Angel
1 Grizzly Bears
1 Chimney Imp
1 Augury Owl
1 Pacifism
1 Shock
"""
WAIT = 15.0
"""Generous upper bound for anything the page should show (the test asserts that it shows, not when)."""
LINK = re.compile(r"https?://\S+/game/(\d+)/private/([A-Za-z0-9_-]+)")


class LoopThread:
    """An asyncio loop in a thread, for the scripted players while Selenium blocks the test's thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Any, timeout: float = 60.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium from the OS packages (skips, saying why, when they are not installed)."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (test extras)")
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if chromium is None or chromedriver is None:
        pytest.skip("browser tests need Debian's chromium and chromium-driver (apt-get install them)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,900"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def referee(
    servatrice: ServatriceServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """``cockatrice-ext bot run ... --web 127.0.0.1:PORT`` as an operator runs it."""
    folder = tmp_path_factory.mktemp("web_bot")
    block = folder / "block.txt"
    block.write_text(BLOCK)
    journal = folder / "journal.sqlite3"
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable, "-m", "cockatrice_ext", "bot", "run", servatrice.ws_url,
            "--user", "web_referee", "--room", "Bot room", "--journal", str(journal), "--relaxed-flood",
            "--format", "auction", "--format", "vortex", "--auction-block", str(block), "--auction-seed", "7",
            "--web", f"127.0.0.1:{port}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert process.stdout is not None
    lines = [process.stdout.readline().decode() for _ in range(2)]
    assert f"web view: http://127.0.0.1:{port}/" in lines[0], lines
    assert "referee web_referee is in 1 room(s)" in lines[1], lines
    loop = LoopThread()
    yield {"base": f"http://127.0.0.1:{port}", "journal": journal, "loop": loop, "url": servatrice.ws_url}
    loop.close()
    process.send_signal(signal.SIGINT)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()


def journal_actions(journal: Path, game_id: int) -> list[str]:
    """The journaled actions of one game (JSON text), read as another process would."""
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT action FROM actions WHERE table_key LIKE ? ORDER BY seq", (f"%:game:{game_id}",)
        ).fetchall()
    return [row[0] for row in rows]


def page_shows(browser: Any, element_id: str, check: Callable[[str], bool], what: str) -> str:
    """Wait until the element's text passes ``check``; its text."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    def text_ok(driver: Any) -> str | bool:
        try:
            text = str(driver.find_element("id", element_id).text)
        except (NoSuchElementException, StaleElementReferenceException):
            return False
        return text if check(text) else False

    try:
        return str(WebDriverWait(browser, WAIT, poll_frequency=0.05).until(text_ok))
    except Exception:
        body = browser.find_element("tag name", "body").text
        raise AssertionError(f"the page never showed {what}; page: {body!r}") from None


def hand_names(player: Player, game_id: int, seat: int) -> list[str]:
    """The cards in a player's hand as their own client sees them."""
    return [card.name for card in player.client.games[game_id].players[seat].zone("hand").cards]


async def seat_players(env: dict[str, Any], names: tuple[str, str], command: str, pattern: str) -> Any:
    alice = await Player.connect(env["url"], names[0])
    bob = await Player.connect(env["url"], names[1])
    room_id = await alice.client.room_id_by_name("Bot room")
    for player in (alice, bob):
        await player.client.join_room(room_id)
    await alice.client.room_say(room_id, command)
    line = await alice.wait_line(lambda t: re.search(pattern, t) is not None)
    game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
    seats = {alice.name: await alice.sit(room_id, game_id), bob.name: await bob.sit(room_id, game_id)}
    return alice, bob, room_id, game_id, seats


def test_auction_board_follows_the_bids_live(browser: Any, referee: dict[str, Any]) -> None:
    loop: LoopThread = referee["loop"]
    alice, bob, _, game_id, _ = loop.run(
        seat_players(referee, ("alice_w", "bob_w"), "!auction new 2", r"Auction Magic game #\d+")
    )
    players = {alice.name: alice, bob.name: bob}
    try:
        browser.get(referee["base"] + "/")
        page_shows(browser, "games", lambda t: f"#{game_id} Auction Magic" in t, "the game in the list")
        browser.find_element("link text", f"#{game_id} Auction Magic").click()
        page_shows(browser, "summary", lambda t: "alice_w, bob_w" in t, "the seated players")
        page_shows(browser, "gold", lambda t: "alice_w 10" in t and "bob_w 10" in t, "everyone's gold")
        page_shows(browser, "block-left", lambda t: t == "6", "the block size")

        opened = loop.run(alice.wait_line(lambda t: "Turn order" in t))
        first = players[re.search(r"Turn order (\w+),", opened).group(1)]  # type: ignore[union-attr]
        second = bob if first is alice else alice
        mark = first.mark()
        loop.run(first.phase(game_id, 2))  # the draw step: the auction step begins
        lot_line = loop.run(first.wait_line(lambda t: "Auction 1:" in t, since=mark))
        page_shows(browser, "lot", lambda t: "Auction 1:" in t and "No bid yet" in t, "the open lot")
        page_shows(browser, "block-left", lambda t: t == "5", "one card fewer in the block")

        loop.run(first.say(game_id, "!bid 2"))  # the board shows the bid (nothing is said in chat)
        page_shows(browser, "lot", lambda t: f"High bid: 2 by {first.name}" in t, "the bid")
        page_shows(browser, "lot", lambda t: f"To bid: {second.name}" in t, "who bids next")
        loop.run(second.say(game_id, "!bid 3"))
        page_shows(browser, "lot", lambda t: f"High bid: 3 by {second.name}" in t, "the higher bid")
        loop.run(first.say(game_id, "!pass"))
        page_shows(browser, "history", lambda t: f"{second.name} 3" in t, "the sale in the history")
        page_shows(browser, "gold", lambda t: f"{second.name} 7" in t, "the buyer's gold")

        # Nothing hidden: only cards announced in game chat may appear on the board.
        announced = " ".join(text for _, text in first.heard)
        shown = browser.find_element("tag name", "body").text
        hidden = [name for name in re.findall(r"^1 (.+)$", BLOCK, re.M) if name not in announced]
        assert hidden and not [name for name in hidden if name in shown], (hidden, shown)
        assert "Auction 1:" in lot_line
    finally:
        for player in players.values():
            loop.run(player.close())


def test_vortex_private_page_shows_the_pack_and_a_click_is_a_pick(
    browser: Any, referee: dict[str, Any]
) -> None:
    loop: LoopThread = referee["loop"]
    alice, bob, _, game_id, seats = loop.run(
        seat_players(referee, ("alice_x", "bob_x"), "!vortex new 2", r"Vortex game #\d+")
    )
    players = {alice.name: alice, bob.name: bob}
    try:
        drafting = loop.run(alice.wait_line(lambda t: "Opening turn 1:" in t))
        picker = players[drafting.split("Opening turn 1: ")[1].split(" drafts")[0]]
        other = bob if picker is alice else alice
        links = {}
        for player in (picker, other):
            message = loop.run(player.wait_private(lambda t: LINK.search(t) is not None))
            links[player.name] = LINK.search(message).group(0)  # type: ignore[union-attr]
        listing = loop.run(picker.wait_private(lambda t: t.startswith("Your pack:")))
        pack = re.findall(r"\d+\. ([^;]+?)(?=;|\. In game chat)", listing)

        # The picker's page shows exactly the pack the bot listed to them, and that they must pick.
        browser.get(links[picker.name])
        page_shows(browser, "pack", lambda t: len(t.splitlines()) == len(pack), "the pack")
        cards = browser.find_elements("css selector", "#pack li")
        assert [c.get_attribute("data-name") for c in cards] == pack
        page_shows(browser, "to-pick", lambda t: t == "You must pick now.", "the pick prompt")
        assert LINK.search(links[picker.name]).group(2) not in browser.page_source  # type: ignore[union-attr]

        # A token opens its own game only; a page acts only for its own player.
        token = LINK.search(links[picker.name]).group(2)  # type: ignore[union-attr]
        for address in (f"/game/{game_id + 1}/private/{token}", f"/game/{game_id}/private/{token[:-2]}"):
            browser.get(referee["base"] + address)
            body = browser.find_element("tag name", "body").text
            assert body.startswith("error: no such page") and token[:16] not in body
        browser.get(links[other.name])
        page_shows(browser, "to-pick", lambda t: t == "Nothing to pick right now.", "no pick for the other")
        other_pack = [c.get_attribute("data-name") for c in browser.find_elements("css selector", "#pack li")]
        assert len(other_pack) == len(pack)
        browser.execute_script("document.querySelector('#pack button').disabled = false")
        browser.find_element("css selector", "#pack button").click()  # forced: the server still refuses
        refusal = f"{other.name}: you have no pick to make now"
        page_shows(browser, "messages", lambda t: t == refusal, "the engine's refusal")
        before = journal_actions(referee["journal"], game_id)

        # The click: the chat command !pick 2 from that player, in the game, the journal and their hand.
        browser.get(links[picker.name])
        page_shows(browser, "to-pick", lambda t: t == "You must pick now.", "the pick prompt")
        mark = other.mark()
        browser.find_element("css selector", "#pack li:nth-child(2) button").click()
        loop.run(other.wait_line(lambda t: f"{picker.name} picks a card" in t, since=mark))
        after = journal_actions(referee["journal"], game_id)
        assert after[: len(before)] == before
        assert f'"choice": 1, "player": {seats[picker.name]}, "type": "Pick"' in after[len(before)]
        page_shows(browser, "to-pick", lambda t: t == "Nothing to pick right now.", "the pick taken")
        seat = seats[picker.name]
        loop.run(wait_until(lambda: pack[1] in hand_names(picker, game_id, seat), what="the pick in hand"))

        # The public board counts the packs (it never lists them) and names whose turn it is.
        browser.get(f"{referee['base']}/game/{game_id}")
        page_shows(browser, "packs", lambda t: picker.name in t and other.name in t, "every pack's size")
        page_shows(browser, "shoe", lambda t: t.isdigit(), "the shoe's size")
        page_shows(browser, "active", lambda t: t == other.name, "the next drafter")
        assert not [name for name in pack if name in browser.find_element("tag name", "body").text]

        # The game ends (everyone leaves): the link expires on the open page.
        browser.get(links[picker.name])
        page_shows(browser, "pack", lambda t: bool(t), "the pack again")
        for player in (picker, other):
            loop.run(player.client.leave_game(game_id))
        page_shows(browser, "ended", lambda t: "expired" in t, "the expired link")
        browser.get(links[picker.name])
        assert browser.find_element("tag name", "body").text.startswith("error: no such page")
    finally:
        for player in players.values():
            loop.run(player.close())
