"""One fair chat budget per connection: every room, game and private conversation shares it.

Theory of operation
-------------------
Servatrice counts ``Command_RoomSay``, ``Command_GameSay`` and ``Command_Message`` against one
per-connection budget (about ten messages and 1,000 characters per ten seconds, shipped defaults).
A bot that sends lines in arrival order lets one busy game or one spamming player delay everybody
else's answers by tens of seconds. :class:`ChatScheduler` fixes that:

* each **destination** (a room, a game, a user) has its own queue of lines;
* when the budget allows one more message, the waiting destination served **least recently** gets
  it, and all the lines it has waiting leave together as one message, separated by ``" | "``;
* a message is handed to the client only when the client's flood gate says it fits *now*, so chat
  never sits in the client's command queue in front of free game commands (card moves, counters,
  annotations: the channels that carry most of what players see).

So a spammer's twenty refusals become one or two messages in their own game, and another user's
room ``!help`` takes the very next message the budget allows.

A private message to a user who is offline (the server answers ``RespNameNotFound``) is kept, the
latest :data:`HELD_MESSAGES` per user, and sent when the bot sees the user again (:meth:`user_back`):
a league's new game number or pairing is not lost because a player's client was reconnecting. Whoever
owns the scheduler hears of every change (``on_held``), so the bot keeps them in its journal across its own
restarts (in a fleet, for the process that takes over) and gives them back with :meth:`keep`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from cockatrice_ext.client.errors import ChatFlood, NameNotFound
from cockatrice_ext.client.flood import chat_cost, game_command_cost

LOGGER = logging.getLogger(__name__)

Destination = tuple[str, Any]
"""``("room", room_id)``, ``("game", game_id)`` or ``("user", user_name)``."""

SEPARATOR = " | "
MAX_MESSAGE = 300
"""A merged message stays short: the character budget is shared by every conversation."""

Sender = Callable[[Destination, str], Awaitable[None]]

Line = str | Callable[[], str]
"""A line to say, or how to render it when it leaves: an answer such as ``!state`` that waits for the budget
is rendered as it is sent, so it never contradicts what happened meanwhile (a lot's note, a later bid)."""

Held = list[tuple[str, bool]]
"""Messages kept for an offline user: (message, raw), oldest first."""

FLOOD_RETRIES = 3
"""How often a message refused by the server as flood is sent again before it is dropped."""

HELD_MESSAGES = 5
"""Private messages kept for a user who is offline (the latest), sent when they are back."""

HELD_USERS = 500
"""Offline users whose messages are kept at once (the longest-quiet ones are forgotten first)."""

AWAY_PREFIX = "While you were away: "

STARVED_AFTER = 3.0
"""Seconds a line may wait for the budget before the operator is told how to add budget."""


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ChatScheduler:
    """Queues lines per destination and sends them fairly under one connection's chat budget.

    ``send`` delivers one message to a destination; ``delay`` answers how many seconds until that
    message to that destination fits the budget (0 = now). Both come from the client in production and are
    plain callables so the scheduler can be tested without a server.
    """

    def __init__(
        self,
        send: Sender,
        delay: Callable[[Destination, str], float],
        *,
        max_message: int = MAX_MESSAGE,
        user_limit: int = 1000,
        on_held: Callable[[str, Held], None] | None = None,
    ) -> None:
        self._send = send
        self._on_held = on_held
        """Told a user's kept messages whenever they change (an empty list: none kept any more)."""
        self._delay = delay
        self.max_message = max_message
        self.user_limit = user_limit
        self._queues: dict[Destination, deque[tuple[Line, bool]]] = {}  # (line or its renderer, raw)
        self._served: dict[Destination, int] = {}  # destination -> serial of its last message
        self._wakeup = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self._warned_at = float("-inf")
        self._refusals: dict[tuple[Destination, str], int] = {}
        self._held: dict[str, deque[tuple[str, bool]]] = {}  # offline user -> (message, raw), oldest first
        self._sending: Destination | None = None
        self._back_while_sending = False
        self.sent_messages = 0
        self.given_back: dict[str, float] = {}
        """When each user last got back what was kept for them (``time.monotonic``): they read what they
        missed, so a referee need not say it again (:meth:`got_back_lately`)."""

    def limit_for(self, destination: Destination) -> int:
        """Private messages may be longer (a pool list); room and game lines stay short."""
        return self.user_limit if destination[0] == "user" else self.max_message

    def say(self, destination: Destination, text: Line, *, raw: bool = False) -> None:
        """Queue one line for ``destination`` (never blocks; empty lines are dropped).

        A ``raw`` text (a deck list to paste) keeps its line breaks and is sent as a message of its own,
        never merged with other lines; it is cut at the destination's limit like any line. A callable is
        rendered when its message is put together, right before it is sent.
        """
        line: Line = text if callable(text) else self._fit(destination, text, raw)
        if not line:
            return
        if destination[0] == "user" and destination[1] in self._held:
            # known to be offline: kept for their return, no round trip
            self._hold(destination[1], self._rendered(destination, line, raw), raw)
            return
        self._queues.setdefault(destination, deque()).append((line, raw))
        self._wake()

    def _fit(self, destination: Destination, text: str, raw: bool) -> str:
        limit = self.limit_for(destination)
        return text.strip()[:limit] if raw else _clip(text, limit)

    def _rendered(self, destination: Destination, line: Line, raw: bool) -> str:
        """The text of a queued line now (a callable is rendered; one that fails says nothing)."""
        if not callable(line):
            return line
        try:
            return self._fit(destination, line(), raw)
        except Exception:  # a renderer of a game that is gone: the others go on
            LOGGER.exception("a line for %s could not be rendered", destination)
            return ""

    def _wake(self) -> None:
        """Lines are waiting: the sending task runs (started if it is not)."""
        self._idle.clear()
        self._wakeup.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def pending(self, destination: Destination | None = None) -> int:
        """Lines waiting (for one destination, or in all)."""
        if destination is not None:
            return len(self._queues.get(destination, ()))
        return sum(len(q) for q in self._queues.values())

    def queued(self, destination: Destination, text: str) -> bool:
        """Whether a line saying ``text`` (it or more: a pack listing with how to pick after it) still waits,
        not sent yet, for ``destination``: an answer already on its way need not spend the budget again."""
        line = self._fit(destination, text, False)
        return any(
            isinstance(queued, str) and queued.startswith(line)
            for queued, _ in self._queues.get(destination, ())
        )

    def waiting(self) -> tuple[int, int]:
        """Messages and characters still to send (a destination's waiting lines merge into one message)."""
        queues = [(d, queue) for d, queue in self._queues.items() if queue]
        size = sum(
            len(self._rendered(d, line, raw)) + len(SEPARATOR) for d, queue in queues for line, raw in queue
        )
        return len(queues), size

    def held(self, user: str) -> list[str]:
        """The messages kept for ``user`` while they are offline (oldest first)."""
        return [message for message, _ in self._held.get(user, ())]

    def keep(self, user: str, messages: Held) -> None:
        """Messages kept for ``user`` by an earlier run of the bot (from its journal), sent when they are
        back; anything kept since comes after them."""
        if not messages:
            return
        held: deque[tuple[str, bool]] = deque(
            ((str(m), bool(raw)) for m, raw in messages), maxlen=HELD_MESSAGES
        )
        held.extend(self._held.pop(user, ()))
        self._held[user] = held
        self._tell_held(user, list(held))

    def forget_held(self) -> None:
        """Forget every kept message without telling the owner: its journal still has them, for whichever
        process sends them now (a fleet member that lost the sending account's lease)."""
        self._held.clear()

    def user_back(self, user: str) -> None:
        """``user`` is online again (logged in, joined a room, wrote): what was kept for them goes first in
        their conversation, the first message marked as sent while they were away."""
        if self._sending == ("user", user):
            self._back_while_sending = True  # a refusal of what is on its way now is not theirs to keep
        held = self._held.pop(user, None)
        if not held:
            return
        self._tell_held(user, [])
        messages = [message for message, _ in held]
        first, first_raw = held[0]
        if first_raw or len(AWAY_PREFIX) + len(first) > self.limit_for(("user", user)):
            messages.insert(0, AWAY_PREFIX.strip())  # a deck list stays as it is, to paste
        else:
            messages[0] = AWAY_PREFIX + first
        queue = self._queues.setdefault(("user", user), deque())
        queue.extendleft((message, True) for message in reversed(messages))  # each whole, as kept
        LOGGER.info("%s is back: %d kept message(s) go out", user, len(messages))
        self.given_back[user] = time.monotonic()
        self._wake()

    def got_back_lately(self, user: str, within: float = 60.0) -> bool:
        """Whether ``user`` got their kept messages back in the last ``within`` seconds."""
        return time.monotonic() - self.given_back.get(user, float("-inf")) < within

    def drop(self, destination: Destination) -> None:
        """Forget what is queued for a destination that is gone (a closed game, a user who left)."""
        self._queues.pop(destination, None)
        self._served.pop(destination, None)
        if not self._queues:
            self._idle.set()

    async def flush(self, destination: Destination | None = None, *, timeout: float = 60.0) -> None:
        """Wait until everything (or everything for ``destination``) was sent."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.pending(destination) if destination is not None else not self._idle.is_set():
            if loop.time() > deadline:
                return
            await asyncio.sleep(0.02)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _next_destination(self) -> Destination:
        """The waiting destination served least recently (never served comes first, then arrival)."""
        return min(self._queues, key=lambda d: self._served.get(d, -1))

    def _next_message(self) -> tuple[Destination, str] | None:
        """The next destination's waiting lines merged into one message."""
        while self._queues:
            destination = self._next_destination()
            queue = self._queues[destination]
            if not queue:
                del self._queues[destination]
                continue
            self.sent_messages += 1
            self._served[destination] = self.sent_messages
            limit = self.limit_for(destination)
            line, raw = queue.popleft()
            message = self._rendered(destination, line, raw)
            while not raw and queue and not queue[0][1]:
                following = self._rendered(destination, queue[0][0], False)
                queue[0] = (following, False)  # rendered once, whether it joins this message or the next
                if message and following and len(message) + len(SEPARATOR) + len(following) > limit:
                    break
                queue.popleft()
                message = SEPARATOR.join(part for part in (message, following) if part)
            if not queue:
                del self._queues[destination]
            if not message:  # only renderers that said nothing: the budget is kept for the next one
                self.sent_messages -= 1
                continue
            return destination, message
        return None

    async def _run(self) -> None:
        while True:
            if not self._queues:
                self._idle.set()
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            # Wait for the budget *before* choosing: lines that arrive meanwhile join their message.
            head = self._next_destination()
            wait = self._delay(head, "x" * min(self.max_message, 100))
            if wait > 0:
                self._warn_if_starved(wait)
                await asyncio.sleep(wait)
                continue
            chosen = self._next_message()
            if chosen is None:
                continue
            destination, message = chosen
            wait = self._delay(destination, message)
            if wait > 0:  # a long merged message needs more of the character budget
                await asyncio.sleep(wait)
            self._sending, self._back_while_sending = destination, False
            try:
                await self._send(destination, message)
            except asyncio.CancelledError:
                raise
            except ChatFlood:  # the server's budget is smaller than we knew: the client paces slower now
                self._send_again(destination, message)
            except NameNotFound as exc:
                if destination[0] != "user":
                    LOGGER.info("chat to %s failed: %s", destination, exc)
                elif self._back_while_sending:  # they logged in while it was on its way: try again
                    self._queues.setdefault(destination, deque()).appendleft((message, True))
                else:
                    self._hold(destination[1], message)
            except Exception as exc:  # a game that closed, a user who ignores us: the others go on
                LOGGER.info("chat to %s failed: %s", destination, exc)
            else:
                self._refusals.pop((destination, message), None)
            finally:
                self._sending = None

    def _send_again(self, destination: Destination, message: str) -> None:
        """A message the server refused as flood goes first in its conversation again (alone, as sent),
        up to :data:`FLOOD_RETRIES` times: what the budget refused is delayed, not lost."""
        key = (destination, message)
        refused = self._refusals[key] = self._refusals.get(key, 0) + 1
        if refused > FLOOD_RETRIES:
            del self._refusals[key]
            LOGGER.warning("chat to %s refused as flood %d times, dropped: %r", destination, refused, message)
            return
        self._queues.setdefault(destination, deque()).appendleft((message, True))
        self._idle.clear()

    def _hold(self, user: str, message: str, raw: bool | None = None) -> None:
        """Keep a message for an offline user until :meth:`user_back`: lines merge as they would have been
        sent, the latest :data:`HELD_MESSAGES` are kept, for at most :data:`HELD_USERS` users. Lines still
        queued for the user are kept with it (they could not be delivered either)."""
        raw = "\n" in message if raw is None else raw  # a text sent whole (a deck list) stays whole
        held = self._held.pop(user, None)
        if held is None:
            held = deque(maxlen=HELD_MESSAGES)
            LOGGER.info("%s is offline: private messages are kept until they are back", user)
        limit = self.limit_for(("user", user))
        if held and not raw and not held[-1][1] and len(held[-1][0]) + len(SEPARATOR) + len(message) <= limit:
            held[-1] = (held[-1][0] + SEPARATOR + message, False)
        else:
            held.append((message, raw))
        self._held[user] = held  # the most recently held last
        queued = self._queues.pop(("user", user), None) or ()
        for line, line_raw in queued:
            if text := self._rendered(("user", user), line, line_raw):
                self._hold(user, text, line_raw)
        if not queued:
            self._tell_held(user, list(held))
        while len(self._held) > HELD_USERS:
            forgotten = next(iter(self._held))
            del self._held[forgotten]
            self._tell_held(forgotten, [])
        if not any(self._queues.values()):
            self._idle.set()

    def _tell_held(self, user: str, messages: Held) -> None:
        if self._on_held is not None:
            try:
                self._on_held(user, messages)
            except Exception:  # keeping them elsewhere failed: they are still kept here
                LOGGER.exception("messages kept for %s not recorded", user)

    def _warn_if_starved(self, wait: float) -> None:
        """Tell the operator (at most once a minute) when the budget holds lines back for long."""
        now = asyncio.get_running_loop().time()
        if wait >= STARVED_AFTER and now - self._warned_at >= 60.0:
            self._warned_at = now
            LOGGER.warning(
                "chat budget spent: %d message(s) wait %.0f s; each helper session (--extra-user) adds"
                " its own budget",
                self.waiting()[0],
                wait,
            )


def client_scheduler(client: Any, **options: Any) -> ChatScheduler:
    """A scheduler sending through ``client`` (``room_say``, ``game_say``, ``send_message``)."""

    async def send(destination: Destination, message: str) -> None:
        kind, target = destination
        if kind == "room":
            await client.room_say(target, message)
        elif kind == "game":
            await client.game_say(target, message)
        else:
            await client.send_message(target, message)

    def delay(destination: Destination, message: str) -> float:
        # A game line also counts as a game command: both budgets must allow it.
        cost = game_command_cost("Command_GameSay", message=message) if destination[0] == "game" else None
        loop = asyncio.get_running_loop()
        return float(client.flood.delay(cost or chat_cost(message), loop.time()))

    return ChatScheduler(send, delay, **options)
