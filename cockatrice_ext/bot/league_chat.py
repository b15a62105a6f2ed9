"""How a league's lines reach its members and its room within the chat budget (:class:`LeagueChat`, a part of
:class:`~cockatrice_ext.bot.league_referee.LeagueReferee`).

The rules:

* a private line is tagged as the league's (:meth:`LeagueChat.tell`): held while its member is offline, the
  league's lines then give way to one recap (:mod:`~cockatrice_ext.bot.league_recap`); a pool listing is
  ``bulk``, queued behind the member's short lines;
* lines are joined into as few messages as fit (:data:`PRIVATE_LIMIT` privately, 280 characters in the room;
  a longer line is cut at "; ": :func:`_pack_lines`); a line rendered as it leaves makes its message one too;
* a chat player's pool is listed whole once, then as what changed (:meth:`LeagueChat.share_pool`); a listing
  renders the pool as it leaves, its heading and its pieces from one rendering (:class:`PoolListing`);
* with a web view, a member's first private message carries the link to their page
  (:meth:`LeagueChat.link_line`).

Why: every room, game and private message shares the bot's one chat budget (about 1,000 characters per
10 s): eight players' views listed whole would reach the last one tens of seconds late, and a listing that
waited for the budget must still be true when it is read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cockatrice_ext.bot.chat import Tagged
from cockatrice_ext.bot.league_cards import pool_list
from cockatrice_ext.bot.league_parts import LeagueParts
from cockatrice_ext.bot.league_views import Line, Live
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.words import shorten

if TYPE_CHECKING:
    from cockatrice_ext.bot.league_referee import LeagueReferee


PRIVATE_LIMIT = 900
"""Private messages are cut into pieces of at most this many characters (the server's chat budget)."""
PAGE_CONTENTS = {"market": "pack, market and pool", "autobattler": "shop and pool"}
"""What a league player's private web page shows, as its link's message says it."""


def league_pages(bot: Bot) -> Any:
    """The web view's league pages (``link``, ``changed``, ``revoke``, ``number``), or None when the bot
    serves none."""
    return (bot.main or bot).league_pages


class LeagueChat(LeagueParts):
    """How the league's lines reach chat (a part of ``LeagueReferee``: see the module)."""

    async def tell(self, player: str, line: Line, *, raw: bool = False, bulk: bool = False) -> None:
        """A private line to a member, tagged as this league's (:class:`Tagged`): held while they are
        offline, the league's lines give way to one recap of what is true when they are back
        (:meth:`recap`); a ``bulk`` line (a pool listing) waits behind their short lines."""
        await self.bot.tell(player, Tagged(line, bulk=bulk, topic=self.key, recap=self.recap), raw=raw)

    async def tell_lines(self, player: str, lines: Sequence[Line]) -> None:
        """Private lines to ``player``, joined into as few messages as the budget allows."""
        for chunk in _pack_lines(list(lines), limit=PRIVATE_LIMIT, separator=" | "):
            await self.tell(player, chunk)

    @property
    def pages(self) -> Any:
        """The web view's league pages (``link``, ``changed``), or None when the bot serves no web view."""
        return league_pages(self.bot)

    def link_line(self, player: str) -> str | None:
        """A new link to ``player``'s private page, as its message says it; None without a web view or when
        they have a link that works."""
        pages = self.pages
        link = pages.link(self, player) if pages is not None else None
        if link is None:
            return None
        command = "!shop" if self.format_name == "autobattler" else "!pack"
        return f"Your {PAGE_CONTENTS[self.format_name]}: {link} or {command}"

    async def share_pool(self, player: str) -> None:
        """A chat player's pool when they build a deck: whole (to paste) the first time, afterwards what
        changed since chat last listed it (``!pool`` lists it whole again)."""
        pool = list(self.engine.pool(player))
        before = self.listed_pools.get(player)
        if before is None:
            await self.send_pool(player)
            return
        self.listed_pools[player] = pool
        new, gone = Counter(pool) - Counter(before), Counter(before) - Counter(pool)
        if not new and not gone:
            return
        counts = ", ".join(f"{sum(c.values())} {w}" for w, c in (("new", new), ("gone", gone)) if c)
        names = "; ".join(
            f"{what}: {', '.join(self.card_name(c) for c in cards.elements())}"
            for what, cards in (("new", new), ("gone", gone))
            if cards
        )
        names = names[:1].upper() + names[1:]
        await self.tell(
            player,
            shorten(
                f"Your pool: {len(pool)} cards now ({counts}); !pool lists them all. {names}.",
                PRIVATE_LIMIT,
            ),
        )

    async def send_pool(self, player: str) -> None:
        """The player's pool as a deck list to paste into Cockatrice's deck editor (a listing: the player's
        short answers go before it). Rendered when it leaves, not when it is queued: a listing the chat
        budget holds back would otherwise miss what the pool got meanwhile (a booster, a buy); its heading
        and its pieces come from one rendering (:class:`PoolListing`)."""
        pool = list(self.engine.pool(player))
        if not pool:
            return
        self.listed_pools[player] = pool  # a second share_pool meanwhile: no second whole listing
        listing = PoolListing(self, player)
        await self.tell(player, listing.heading, bulk=True)
        for n in range(listing.slots):
            await self.tell(player, listing.piece(n), raw=True, bulk=True)

    def pool_heading(self, player: str) -> tuple[str, list[str]] | None:
        """The pool listing's heading and its pieces (deck-list lines, each piece within the private limit)
        as the pool is now; remembered as what chat last listed (:meth:`share_pool`). None: the pool is
        empty."""
        pool = list(self.engine.pool(player))
        names = [self.game_name(c) for c in pool]
        if not names:
            return None
        self.listed_pools[player] = pool
        return f"Your pool ({len(names)} cards), to paste into the deck editor:", raw_pieces(pool_list(names))

    async def tell_raw(self, player: str, text: str) -> None:
        """A multi-line private text (deck lists keep their line breaks), in pieces under the budget,
        queued as a listing (after the player's short lines)."""
        for piece in raw_pieces(text):
            await self.tell(player, piece, raw=True, bulk=True)


def _split_long(line: str, limit: int) -> list[str]:
    """Cut a line longer than ``limit`` at "; " boundaries (a long listing becomes several messages)."""
    if len(line) <= limit:
        return [line]
    pieces: list[str] = []
    current = ""
    for part in line.split("; "):
        candidate = f"{current}; {part}" if current else part
        if current and len(candidate) + 1 > limit:  # room for the ";" that ends a piece
            pieces.append(current + ";")
            current = part
        else:
            current = candidate
    if current:
        pieces.append(current)
    return [p if len(p) <= limit else p[: limit - 1] + "…" for p in pieces]


def _pack_lines(lines: Sequence[Line], limit: int = 280, separator: str = " ") -> list[Line]:
    """Join lines into as few messages as fit ``limit`` characters each (long lines are cut up). A line
    rendered when it leaves (a callable: measured as it reads now) makes its message one too, which drops
    what is no longer true."""
    out: list[Line] = []
    current: list[Line] = []
    size = 0
    for line in (piece for raw in lines for piece in _pieces(raw, limit)):
        length = len(_now(line))
        if current and size + len(separator) + length > limit:
            out.append(_joined(current, separator))
            current, size = [], 0
        size += (len(separator) if current else 0) + length
        current.append(line)
    if current:
        out.append(_joined(current, separator))
    return out


def raw_pieces(text: str, limit: int = PRIVATE_LIMIT) -> list[str]:
    """A multi-line text in pieces of whole lines within ``limit`` characters (a longer line is cut)."""
    pieces: list[str] = []
    piece = ""
    for line in text.splitlines():
        if piece and len(piece) + 1 + len(line) > limit:
            pieces.append(piece)
            piece = ""
        piece = f"{piece}\n{line}" if piece else line[:limit]
    if piece:
        pieces.append(piece)
    return pieces


class PoolListing:
    """One pool listing on its way: the heading renders the pool as it is when it leaves (and keeps that
    rendering), the raw pieces queued after it come from that same rendering. Pieces are queued for the
    pool as it was plus :data:`SPARE_PIECES` (a pool grows while a listing waits: a booster, buys); a piece
    the rendering does not need says nothing, and a rendering that needs more than were queued ends its last
    piece with where the rest is."""

    SPARE_PIECES = 1

    def __init__(self, league: LeagueReferee, player: str) -> None:
        self.league, self.player = league, player
        self.pieces: list[str] | None = None
        self.slots = len(raw_pieces(pool_list([league.game_name(c) for c in league.engine.pool(player)])))
        self.slots += self.SPARE_PIECES

    def heading(self) -> str | None:
        """The heading, rendering the pool now (a listing rendered again, a message sent again, renders it
        afresh: the pieces follow their heading)."""
        rendered = self.league.pool_heading(self.player)
        if rendered is None:
            self.pieces = []
            return None
        heading, self.pieces = rendered
        return heading

    def piece(self, n: int) -> Callable[[], str | None]:
        """The ``n``-th piece of the heading's rendering (None: not needed, or no heading rendered)."""

        def render() -> str | None:
            pieces = self.pieces
            if pieces is None:  # measured before its heading rendered (never in queue order)
                return None
            if n == self.slots - 1 and len(pieces) > self.slots:
                tail = "(and {} more lines: !pool lists them)"
                kept = raw_pieces(pieces[n], PRIVATE_LIMIT - len(tail) - 8)[0]
                more = sum(len(p.splitlines()) for p in pieces[n:]) - len(kept.splitlines())
                return f"{kept}\n{tail.format(more)}"
            return pieces[n] if n < len(pieces) else None

        return render


def _now(line: Line) -> str:
    return (line() if callable(line) else line) or ""


def _pieces(line: Line, limit: int) -> list[Line]:
    """A plain line cut up by :func:`_split_long`; a rendered one as it is (cut when it leaves)."""
    return [line] if callable(line) else list(_split_long(line, limit))


def _joined(lines: list[Line], separator: str) -> Line:
    """One message of ``lines``: plain text, or a renderer when one of them is rendered as it leaves."""
    if all(isinstance(line, str) for line in lines):
        return separator.join(lines)  # type: ignore[arg-type]
    if len(lines) == 1:
        return lines[0]

    def render() -> str | None:
        return separator.join(text for line in lines if (text := _now(line))) or None

    return Live(render)


def _prefixed(prefix: str, line: Line) -> Line:
    """``line`` led by ``prefix`` (a renderer's text when it leaves; nothing when it says nothing)."""
    if not callable(line):
        return prefix + line
    return Live(lambda: (prefix + text) if (text := line()) else None)
