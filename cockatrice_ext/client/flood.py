"""Servatrice's anti-flood budgets, modelled on our side so the server never answers RespChatFlood.

Theory of operation
-------------------
Servatrice keeps, per connection, per-second buckets (one per ``clientkeepalive`` tick) of

* chat: messages and characters (UTF-8 bytes of ``message``) said through ``Command_RoomSay``,
  ``Command_GameSay`` and ``Command_Message``; one shared budget;
* game commands: every top-level command of a game-command container except the whitelist
  (DRAW_CARDS, UNDO_DRAW, CREATE_ARROW, DELETE_ARROW, SET_CARD_ATTR, INC_COUNTER, MULLIGAN, MOVE_CARD);
  a ``Command_Judge`` wrapper counts once; ``Command_GameSay`` counts here *and* in chat.

A bucket is summed over the last ``interval`` ticks. A command over the limit is refused with
RespChatFlood, and its cost is still counted; a game container is refused from that command on (the
server walks the container backwards), so a whole container must fit.

:class:`FloodGate` is a pure sliding-window accountant: the caller asks :meth:`FloodGate.delay` how long
to wait before a :class:`Cost` fits, then :meth:`FloodGate.record` s it when sent;
:meth:`FloodGate.delay_after` answers the same for a cost spent after another one spent now (nothing is
recorded). Times are plain floats from the caller's clock. Our window is the server's plus ``margin``
seconds, so latency jitter and tick alignment cannot make a burst we considered spread out look
concentrated to the server.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import deque

#: Game commands (protobuf message names) Servatrice does not count (server_protocolhandler.cpp).
WHITELISTED_GAME_COMMANDS: frozenset[str] = frozenset(
    {
        "Command_DrawCards",
        "Command_UndoDraw",
        "Command_CreateArrow",
        "Command_DeleteArrow",
        "Command_SetCardAttr",
        "Command_IncCounter",
        "Command_Mulligan",
        "Command_MoveCard",
    }
)

#: Commands that spend the shared chat budget.
CHAT_COMMANDS: frozenset[str] = frozenset({"Command_RoomSay", "Command_GameSay", "Command_Message"})

#: Servatrice's MAX_TEXT_LENGTH (string_limits.h): longer chat is truncated by the server.
MAX_TEXT_LENGTH = 4095


@dataclasses.dataclass(frozen=True)
class FloodLimits:
    """Per-connection budgets. Defaults are Servatrice's shipped values, taken conservatively.

    The code default for ``max_message_count_per_interval`` is 15 but ``servatrice.ini.example`` ships
    10; we assume 10. Set a limit to 0 to disable that budget (e.g. for a server configured without one).
    """

    chat_interval: float = 10.0
    chat_messages: int = 10
    chat_chars: int = 1000
    command_interval: float = 10.0
    game_commands: int = 20
    margin: float = 1.0
    """Extra seconds added to both windows (clock skew, latency, tick alignment)."""

    @classmethod
    def unlimited(cls) -> FloodLimits:
        """No pacing at all (only for servers known to have flood protection off)."""
        return cls(chat_messages=0, chat_chars=0, game_commands=0, margin=0.0)


@dataclasses.dataclass(frozen=True)
class Cost:
    """What one outgoing container spends."""

    game_commands: int = 0
    chat_messages: int = 0
    chat_chars: int = 0

    def __add__(self, other: Cost) -> Cost:
        return Cost(
            self.game_commands + other.game_commands,
            self.chat_messages + other.chat_messages,
            self.chat_chars + other.chat_chars,
        )

    @property
    def is_free(self) -> bool:
        return not (self.game_commands or self.chat_messages or self.chat_chars)


FREE = Cost()


def chat_cost(message: str) -> Cost:
    """Cost of one chat message (room say, game say payload or private message)."""
    return Cost(chat_messages=1, chat_chars=len(message.encode("utf-8")))


def game_command_cost(command_name: str, *, message: str | None = None) -> Cost:
    """Cost of one top-level game command, by protobuf message name (``Command_MoveCard``...).

    ``message`` is the text of a ``Command_GameSay``. A ``Command_Judge`` costs 1 whatever it wraps.
    """
    cost = FREE if command_name in WHITELISTED_GAME_COMMANDS else Cost(game_commands=1)
    if command_name == "Command_GameSay":
        cost = cost + chat_cost(message or "")
    return cost


class FloodError(ValueError):
    """A single container can never fit the budget (too many counted commands or too much text)."""


_EPSILON = 1e-6


class _Window:
    """Sliding sum over ``interval`` seconds."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.entries: deque[tuple[float, int]] = deque()
        self.total = 0

    def expire(self, now: float) -> None:
        while self.entries and self.entries[0][0] <= now - self.interval:
            _, amount = self.entries.popleft()
            self.total -= amount

    def add(self, now: float, amount: int) -> None:
        if amount:
            self.entries.append((now, amount))
            self.total += amount

    def between(self, start: float, end: float) -> int:
        """What was added after ``start`` and up to ``end``."""
        return sum(amount for stamp, amount in self.entries if start < stamp <= end)

    def delay(self, now: float, amount: int, limit: int, *, before: int = 0) -> float:
        """Seconds until ``amount`` more fits under ``limit`` (0 = now), after ``before`` more added now
        (as :meth:`add` would: it leaves the window last)."""
        if limit <= 0 or amount <= 0:
            return 0.0
        self.expire(now)
        excess = self.total + before + amount - limit
        if excess <= 0:
            return 0.0
        freed = 0
        entries = itertools.chain(self.entries, [(now, before)] if before else [])
        for stamp, entry_amount in entries:
            freed += entry_amount
            if freed >= excess:
                # A hair more than the exact expiry, so float rounding cannot leave it one ulp short.
                return max(0.0, stamp + self.interval - now) + _EPSILON
        return self.interval  # unreachable when amount <= limit


class FloodGate:
    """Sliding-window accountant for one connection's chat and game-command budgets."""

    def __init__(self, limits: FloodLimits | None = None) -> None:
        self.limits = limits or FloodLimits()
        self._chat_messages = _Window(self.limits.chat_interval + self.limits.margin)
        self._chat_chars = _Window(self.limits.chat_interval + self.limits.margin)
        self._commands = _Window(self.limits.command_interval + self.limits.margin)
        self._lowered_at = float("-inf")

    def check(self, cost: Cost) -> None:
        """Raise :class:`FloodError` if ``cost`` could never be sent, even with an empty window."""
        limits = self.limits
        if limits.game_commands > 0 and cost.game_commands > limits.game_commands:
            raise FloodError(
                f"{cost.game_commands} counted game commands in one container; the limit is "
                f"{limits.game_commands} per {limits.command_interval:g}s"
            )
        if limits.chat_messages > 0 and cost.chat_messages > limits.chat_messages:
            raise FloodError(
                f"{cost.chat_messages} chat messages in one container; limit {limits.chat_messages}"
            )
        if limits.chat_chars > 0 and cost.chat_chars > limits.chat_chars:
            raise FloodError(
                f"chat message of {cost.chat_chars} bytes exceeds the budget of {limits.chat_chars} "
                f"per {limits.chat_interval:g}s; split it"
            )

    def delay(self, cost: Cost, now: float) -> float:
        """Seconds to wait before ``cost`` can be spent without a flood (0.0 = send now)."""
        self.check(cost)
        limits = self.limits
        return max(
            self._commands.delay(now, cost.game_commands, limits.game_commands),
            self._chat_messages.delay(now, cost.chat_messages, limits.chat_messages),
            self._chat_chars.delay(now, cost.chat_chars, limits.chat_chars),
        )

    def delay_after(self, first: Cost, then: Cost, now: float) -> float:
        """Seconds to wait before ``then`` can be spent if ``first`` were spent now (0.0 = at once): the
        window modelled as :meth:`delay` and :meth:`record` do, ``first`` counted in every budget. A chat
        scheduler asks it whether a short message may go ahead of one waiting for the budget without
        delaying it (its delay after ``first`` no longer than its :meth:`delay`)."""
        self.check(first)
        self.check(then)
        limits = self.limits
        return max(
            self._commands.delay(now, then.game_commands, limits.game_commands, before=first.game_commands),
            self._chat_messages.delay(
                now, then.chat_messages, limits.chat_messages, before=first.chat_messages
            ),
            self._chat_chars.delay(now, then.chat_chars, limits.chat_chars, before=first.chat_chars),
        )

    def record(self, cost: Cost, now: float) -> None:
        """Account ``cost`` as sent at ``now``."""
        self._commands.add(now, cost.game_commands)
        self._chat_messages.add(now, cost.chat_messages)
        self._chat_chars.add(now, cost.chat_chars)

    def refused(self, cost: Cost, now: float, *, sent_at: float | None = None) -> FloodLimits:
        """The server refused ``cost`` as flood although this gate let it through: the server's limits
        are stricter than ours (an administrator may lower them; ``--relaxed-flood`` may be wrong). Lower
        each budget ``cost`` spends to three quarters (a budget we had off takes the shipped value); a
        refused game command that is not chat (so the game-command budget refused it) lowers that budget
        to one less than what this gate let through in the server's interval up to it (``sent_at``) when
        that is lower (the server refuses only over its limit: a server at 4 commands is paced at 4 from
        its first refusal, not at 15, then 11, ...). Never below what ``cost`` itself needs. Count each
        lowered budget's window as full from ``now``: the server counted the refused command too, so only
        a whole interval of quiet empties its window. That matters beyond the refused command: while its
        count is over the limit, Servatrice refuses every game command, the ones it does not count (card
        moves, notes) too. Returns the new limits. A refusal of a command sent before the last lowering
        changes nothing: commands already on their way when the first refusal came are refused with it,
        and counting each of them would slow us down far below the server's budget."""
        if sent_at is not None and sent_at < self._lowered_at:
            return self.limits
        self._lowered_at = now
        limits, shipped = self.limits, FloodLimits()
        sent = now if sent_at is None else sent_at

        def lowered(budget: str) -> int:
            current, needed = getattr(limits, budget), getattr(cost, budget)
            if current <= 0:
                return max(needed, 1, getattr(shipped, budget))
            over = current
            if budget == "game_commands" and not cost.chat_messages:  # chat refused may be either budget's
                let_through = self._commands.between(sent - limits.command_interval, sent)
                if let_through > needed:  # the refused one is in it
                    over = let_through - 1
            return max(needed, 1, min(current * 3 // 4, over))

        spent = ["chat_messages", "chat_chars"] if cost.chat_messages or cost.chat_chars else []
        spent += ["game_commands"] if cost.game_commands else []
        changes = {budget: lowered(budget) for budget in spent}
        margin = max(limits.margin, shipped.margin)  # an unlimited gate had none
        self.limits = dataclasses.replace(limits, margin=margin, **changes)
        self._chat_messages.interval = self._chat_chars.interval = limits.chat_interval + margin
        self._commands.interval = limits.command_interval + margin
        if "chat_messages" in changes:
            self._chat_messages.add(now, self.limits.chat_messages)
            self._chat_chars.add(now, self.limits.chat_chars)
        if "game_commands" in changes:
            self._commands.add(now, self.limits.game_commands)
        return self.limits

    def usage(self, now: float) -> Cost:
        """What the current windows hold (for logging and tests)."""
        for window in (self._commands, self._chat_messages, self._chat_chars):
            window.expire(now)
        return Cost(self._commands.total, self._chat_messages.total, self._chat_chars.total)


def split_chat(text: str, limit: int) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` UTF-8 bytes, preferring to break at spaces."""
    if limit <= 0:
        raise ValueError("limit must be positive")
    pieces: list[str] = []
    rest = text
    while len(rest.encode("utf-8")) > limit:
        # Largest prefix within the byte limit.
        cut = 0
        size = 0
        for index, char in enumerate(rest):
            size += len(char.encode("utf-8"))
            if size > limit:
                break
            cut = index + 1
        cut = max(cut, 1)
        space = rest.rfind(" ", 0, cut)
        if space > 0:
            cut = space
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest or not pieces:
        pieces.append(rest)
    return pieces
