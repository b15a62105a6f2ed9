"""What a league member who was away hears (:class:`LeagueRecap`, a part of
:class:`~cockatrice_ext.bot.league_referee.LeagueReferee`).

The rules:

* back from offline, the league's lines kept for them give way to one recap (:meth:`LeagueRecap.recap`):
  what the referee decided for them meanwhile (its moves counted, a forfeit), told once, and what is true
  now: the league's stage, what it waits for from them, their game, their pool
  (:meth:`LeagueRecap.now_parts`);
* back in the room while online, they hear what the league waits for from them
  (:meth:`LeagueRecap.welcome_back`), unless a recap has just said it, worded as it leaves: not the pack
  their chat has listed since they came back (:meth:`LeagueRecap.pack_listed`);
* what the league waits for from a member is one line with its command (:meth:`LeagueRecap.waiting_line`);
  a member it does not wait for hears what they last did and whom it waits for
  (:meth:`LeagueRecap.waited_line`).

Why: a member coming back needs where they stand now, not the lines that went out while they were away
(stale by then, and each one costing the chat budget).
"""

from __future__ import annotations

from collections import Counter

from cockatrice_ext.bot import league_away  # its graces read where they are set (tests patch them)
from cockatrice_ext.bot.league_chat import PRIVATE_LIMIT
from cockatrice_ext.bot.league_parts import LeagueParts
from cockatrice_ext.bot.league_views import (
    STAND_IN_WORDS,
    Live,
    carousel_prompt,
    counted,
    departure,
    led,
    market_prompt,
    numbered,
)
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import market as mk


class LeagueRecap(LeagueParts):
    """What a member back from away or offline is told (a part of ``LeagueReferee``: see the module)."""

    def recap(self, member: str) -> str | None:
        """What a member back from offline is told instead of this league's lines kept for them: what the
        referee decided for them meanwhile (told once), and what is true now (None: not a member)."""
        if not self.is_member(member):
            return None
        decided = []
        for move, count in sorted(self.missed_moves.pop(member, Counter()).items()):
            if move == "pick":
                decided.append(f"the referee picked {counted(count, 'card')} at random for you")
            else:
                times = "" if count == 1 else f" ({count} times)"
                decided.append(f"the referee {STAND_IN_WORDS.get(move, 'moved for you')}{times}")
        decided += self.missed.pop(member, [])
        now = self.now_parts(member)
        title = self.room_title()
        lead = f"{title}, while you were away: {'; '.join(decided)}. Now: " if decided else f"{title} now: "
        return shorten(lead + "; ".join(now) + ".", PRIVATE_LIMIT)

    def now_parts(self, member: str) -> list[str]:
        """What is true now for ``member``: the league's stage or result, what it waits for from them, their
        game, their pool."""
        engine = self.engine
        if self.over:
            return [f"the league is over: {self.final_line()}"]
        parts = [self.stage()]
        if self.is_out(member):
            return [*parts, "you are out of the league (eliminated); you may watch its games"]
        if line := self.waiting_line(member) or self.waited_line(member):
            parts.append(line[:1].lower() + line[1:].rstrip("."))
        match = engine.league.match_of(member)
        if match is not None and len(match.players) == 2 and not match.decided:
            opponent = match.opponent(member)
            game = next(
                (g for g in self.games.values() if member in g.players and g.round_no == match.round), None
            )
            cut = next(((n, c) for n, c in self.cut.items() if c[0] == match.round and member in c[1]), None)
            if cut is not None and cut[1][2] == member:
                parts.append(
                    f"your round {match.round} game vs {opponent} (#{cut[0]}) was cut short when"
                    f" {departure(member, cut[1][3], to_them=True)}: back in the room, you get a new game"
                    f" (gone {league_away.FORFEIT_GRACE / 60:g} minutes, {opponent} wins by forfeit)"
                )
            elif game is not None:
                parts.append(
                    f"your round {match.round} game vs {opponent} is #{game.game_id} in this room: join it,"
                    " load your deck from !pool and press ready"
                )
            else:
                parts.append(f"your round {match.round} game vs {opponent} opens soon")
        if isinstance(engine, ab.AutoBattlerEngine):
            parts.append(
                f"you have {engine.poison[member]} poison, {counted(engine.treasures[member], 'treasure')}"
            )
        parts.append(f"your pool: {len(engine.pool(member))} cards (!pool lists it)")
        return parts

    def waiting_line(self, member: str) -> str:
        """What the league waits for from ``member`` now, as one line with its command ("" for nothing)."""
        engine = self.engine
        kind = (engine.waiting_for().get(member) or ("",))[0]
        if kind == "pick":
            pack = engine.pack(member)
            return f"Your pack ({len(pack)}): {numbered([self.card_name(c) for c in pack])}. !pick N."
        if kind == "buy":
            return market_prompt(engine)
        if kind == "done":
            return "Your shop is open: !shop lists it; !swap SHOP POOL, !roll, !done."
        if kind == "carousel":
            return carousel_prompt(engine)
        return ""

    def waited_line(self, member: str) -> str:
        """What ``member``, whose move the league does not wait for, last did and whom the league waits for
        now (a restart lost the lines that said so: a pick recorded just before it was told to nobody), as one
        line ("" when there is nothing to tell: no draft, market or carousel under way, or they left)."""
        engine = self.engine
        if self.over or member in self.left or self.is_out(member):
            return ""
        others = [p for p in engine.waiting_for() if p != member]
        if not others:
            return ""
        names = " and ".join(others) if len(others) <= 2 else ", ".join(others[:-1]) + f" and {others[-1]}"
        if isinstance(engine, ab.AutoBattlerEngine):
            if engine.phase == "carousel":
                return f"Waiting for {names}'s carousel pick."
            done = "You are done drafting this phase; w" if member in engine.done else "W"
            return f"{done}aiting for {names} to finish drafting."
        if engine.phase == "market":
            return f"Waiting for {names} to buy (or pass)."
        pool = engine.pool(member)
        picked = f"You picked {self.card_name(pool[-1])}; w" if engine.phase == "draft" and pool else "W"
        if picked != "W":
            return f"{picked[:-3]}; your next pack is not here yet (waiting for {names} to pick)."
        return f"Waiting for {names} to pick."

    async def welcome_back(self, member: str) -> None:
        """Tell a member back in the room what the league waits for from them (their pack again...), unless
        they have just been given what was kept for them while they were offline (it said so already).
        Worded as it leaves, and nothing when it would only list again the pack their chat has listed
        since they came back (field: a ``!pick`` typed on the way back was answered "You picked ... |
        Your pack (10): ...", then "Welcome back: your pack (10): ..." spent 300 characters again)."""
        if self.bot.conversation_with(member).chat.got_back_lately(member):
            return  # their recap said what was decided for them and what is true now
        self.missed.pop(member, None)  # told as it happened: they were online
        self.missed_moves.pop(member, None)
        if self.waiting_line(member):
            await self.tell(member, Live(lambda: self.welcome_back_line(member)))

    def welcome_back_line(self, member: str) -> str | None:
        """The welcome-back as it leaves: what the league waits for from ``member`` then (None: nothing, or
        only the pack listed to them already)."""
        pack = tuple(self.engine.pack(member)) if isinstance(self.engine, mk.MarketDraftEngine) else ()
        if pack and self.packs_listed.get(member) == pack:
            return None
        line = self.waiting_line(member)
        if not line:
            return None
        if pack and line.startswith("Your pack ("):
            self.pack_listed(member, pack)
        return shorten(led("Welcome back", line), PRIVATE_LIMIT)

    def pack_listed(self, player: str, pack: tuple[int, ...]) -> None:
        """A listing of ``pack`` left for ``player`` (a pack in front of them, ``!pack``, a welcome-back):
        remembered unless they are out of the room and silent since (a listing made while they were away,
        the referee picking for them, is what the welcome-back is for)."""
        if player in self.out_of_room and player not in self.heard_while_out:
            return
        self.packs_listed[player] = pack

    def kept_for(self, member: str) -> bool:
        """Whether the chat keeps lines for ``member`` (offline): their recap tells what was missed."""
        holds = getattr(self.bot.conversation_with(member).chat, "holds", None)
        return bool(holds(member)) if callable(holds) else False
