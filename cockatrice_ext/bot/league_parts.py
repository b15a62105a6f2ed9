"""What each part of the league referee may use of the others (:class:`LeagueParts`).

:class:`~cockatrice_ext.bot.league_referee.LeagueReferee` is one object put together from mixins, one per set
of rules (its lines in chat, recaps, away members, leaving, the pairings' games, a restart, the private
commands), so that each can be read in a module of its own; they call each other through ``self``. At run
time :class:`LeagueParts` is plain ``object`` and adds nothing. For a type checker and a reader it is the
referee class the mixins are mixed into and the state and methods they share, each defined once elsewhere:
the state by ``LeagueReferee.__init__``, the methods in the module named beside them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncio
    from collections import Counter
    from collections.abc import Sequence

    from cockatrice_ext.bot.blocks import LoadedBlock
    from cockatrice_ext.bot.league_away import Decision
    from cockatrice_ext.bot.league_games import LeagueGame
    from cockatrice_ext.bot.league_options import LeagueOptions
    from cockatrice_ext.bot.league_pairings import WaitingGame
    from cockatrice_ext.bot.league_views import Line
    from cockatrice_ext.bot.referee import Context, Referee
    from cockatrice_ext.formats import league as core
    from cockatrice_ext.formats import market as mk
    from cockatrice_ext.formats.base import Action, Effect
    from cockatrice_ext.journal import Table

    class LeagueParts(Referee):
        """The shared state and the methods one part of the league referee calls on another."""

        page_key: str
        room_id: int
        options: LeagueOptions
        format_name: str
        block: LoadedBlock
        table: Table
        games: dict[int, LeagueGame]
        over: bool
        overpay_warned: dict[str, mk.Buy]
        page_players: set[str]
        chat_players: set[str]
        seen: dict[str, float]
        decisions: dict[str, Decision]
        out_of_room: set[str]
        standing_in: set[str]
        cut: dict[int, tuple[int, tuple[str, ...], str, bool]]
        waiting: dict[tuple[int, tuple[str, ...]], WaitingGame]
        room_told_waiting: bool
        _watcher: asyncio.Task[None] | None
        listed_pools: dict[str, list[int]]
        setup_notes: dict[tuple[int, frozenset[str]], str]
        missed: dict[str, list[str]]
        missed_moves: dict[str, Counter[str]]
        packs_listed: dict[str, tuple[int, ...]]
        heard_while_out: set[str]
        answered: dict[tuple[str, str], float]
        left: set[str]

        # league_referee.py: the core
        @property
        def engine(self) -> Any: ...
        @property
        def key(self) -> str: ...
        def is_member(self, name: str) -> bool: ...
        def room_title(self) -> str: ...
        async def room_say(self, line: str) -> None: ...
        def is_out(self, member: str) -> bool: ...
        def final_line(self) -> str: ...
        def card_name(self, index: int) -> str: ...
        def game_name(self, index: int) -> str: ...
        def status_line(self) -> str: ...
        def stage(self) -> str: ...
        async def act(self, ctx: Context, action: Action) -> None: ...
        async def perform(self, effects: list[Effect], answer: Context | None = None) -> None: ...

        # league_chat.py
        @property
        def pages(self) -> Any: ...
        def link_line(self, player: str) -> str | None: ...
        async def tell(self, player: str, line: Line, *, raw: bool = False, bulk: bool = False) -> None: ...
        async def tell_lines(self, player: str, lines: Sequence[Line]) -> None: ...
        async def send_pool(self, player: str) -> None: ...
        async def tell_raw(self, player: str, text: str) -> None: ...

        # league_recap.py
        def kept_for(self, member: str) -> bool: ...
        async def welcome_back(self, member: str) -> None: ...
        def pack_listed(self, player: str, pack: tuple[int, ...]) -> None: ...
        def waited_line(self, member: str) -> str: ...
        def waiting_line(self, member: str) -> str: ...
        def recap(self, member: str) -> str | None: ...

        # league_away.py
        def watch(self) -> None: ...
        async def stand_in_due(self, now: float | None = None) -> None: ...
        def forfeit_certain(self, pair: Sequence[str], now: float | None = None) -> bool: ...

        # league_leaving.py
        async def tell_engine_left(self, member: str) -> list[Effect]: ...
        async def left_forfeit(self, match: core.Match, loser: str, winner: str) -> None: ...
        async def both_left(self, match: core.Match) -> None: ...

        # league_pairings.py
        async def open_game(
            self,
            round_no: int,
            players: tuple[str, ...],
            *,
            instead_of: int | None = None,
            why: str = ...,
            whys: dict[str, str] | None = None,
        ) -> None: ...
        async def reopen_cut_games(self) -> None: ...
        async def open_waiting_games(self, now: float) -> None: ...
        def waiting_for_slot(self, player: str) -> tuple[int, tuple[str, ...]] | None: ...

else:
    LeagueParts = object
