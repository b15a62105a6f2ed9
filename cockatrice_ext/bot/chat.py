"""One fair chat budget per connection: every room, game and private conversation shares it.

Theory of operation
-------------------
Servatrice counts ``Command_RoomSay``, ``Command_GameSay`` and ``Command_Message`` against one
per-connection budget (about ten messages and 1,000 characters per ten seconds, shipped defaults).
A bot that sends lines in arrival order lets one busy game or one spamming player delay everybody
else's answers by tens of seconds. :class:`ChatScheduler` fixes that:

* each **destination** (a room, a game, a user) has its own queue of lines;
* the waiting destination that used the **least of the budget lately** goes next: its use is the larger
  of its shares of the characters and of the messages (so a player whose answers are long pays for their
  length), each message weighing less by a factor e every window; among equals (nothing weighed: no
  limits known), one not served in the last window first, in the order they began to wait, then the one
  served least recently. All the lines it has waiting leave together as one message, separated by
  ``" | "``;
* **public lines first, within a third**: a room's or a game's line reaches everybody there and is often
  what they all wait for (a league's start, its pairings), so rooms and games go before private
  conversations while what they used lately, together, is below :data:`PUBLIC_SHARE` of the budget;
  beyond it they take their fair turn with the others. So a busy room takes about a third of the budget
  from private answers by its precedence, never all of it (field: a league's start line waited 206 s
  behind fifteen players' 800-character first views);
* that choice is made again whenever a line is said: a destination waiting for the budget has not taken
  it yet, so a newcomer that used less goes first; and nobody passes the chosen one while it waits for
  the budget (a public line said meanwhile neither: its precedence counts when the next one is chosen),
  except a listing that has aged (below), and a **short message that fits now and leaves the chosen one
  fitting no later** (the flood gate's ``delay_after``: a 75-byte ``!state`` answer that fitted at once
  waited 16 s in the field behind a 413-byte hand list held for the budget): the first such in the order,
  within its share, never a listing, and only when the chosen one stays first (a public line passing a
  public one keeps public lines within their third). Use falls alike for everyone, so the first stays
  first until it is served: **a destination that used less of the budget lately than every other one
  waiting (a quiet conversation next to busy ones) waits at most one window once public lines have had
  their third** (10 s plus the gate's 1 s margin under the shipped limits), plus the round trip of a message
  already on its way and one window for each aged listing message that goes before it. This holds for
  the one that used the least, not for every one waiting: fifteen conversations each waiting for an
  800-character first view go one per window (the character budget), the last some fifteen windows
  later;
* one **private conversation takes at most** :data:`SHARE` **of each budget** per window (900
  characters and 9 messages under the shipped limits); a longer text goes in pieces, each as large as
  its share has room for (at least a quarter of it), cut at a line break, a ``" | "``, a sentence's end
  or a space. So a player spamming long answers (``!help``, rules) waits for their own budget, and
  next to one of them another's short answer (up to a tenth of the budget) goes at once;
* a message is handed to the client only when the client's flood gate says it fits *now*, so chat
  never sits in the client's command queue in front of free game commands (card moves, counters,
  annotations: the channels that carry most of what players see).

A **bulk** line (a listing: a pool to paste; :class:`Tagged`) goes after its destination's other lines, and
while it is young only when no destination has a short line waiting (nor one waiting for its own share):
an answer said after a listing goes before it. A listing that has waited :data:`LISTING_AGE` windows (22 s
under the shipped limits) goes before every short line, the oldest first, one message at a time, each
holding the next such message back for :data:`LISTING_LANE` windows times its part of the budget (1.8
windows for a 900-character piece): listings going before answers take at most about half the budget.
So **a listing alone among any number of busy conversations arrives within three windows per message**:
its first message within three windows of being said, each next one within three windows of the one
before (plus round trips; a 60-card pool, a header and three pieces, within twelve windows: 132 s under
the shipped limits, where the field saw 715 s); listings waiting before it add their messages. And an
answer waits for listings only once they have waited two windows themselves, at most one window for the
budget each listing message that goes before it spends.

So a spammer's twenty refusals become one or two messages in their own game, and another user's
room ``!help`` takes the very next message the budget allows. Without the connection's limits
(``limits``: a demo, a test whose ``delay`` is always 0) nothing is weighed or capped: the destination
served least recently goes first (public lines take no precedence; an aged listing still goes before short
lines, unpaced).

A private message to a user who is offline (the server answers ``RespNameNotFound``, or the bot hears
them log off: :meth:`user_left`) is kept, with everything else waiting for them, at once: none of it is
tried again. The latest :data:`HELD_MESSAGES` per user are kept and sent when the bot sees the user again
(:meth:`user_back`): a league's new game number or pairing is not lost because a player's client was
reconnecting. Whoever owns the scheduler hears of every change (``on_held``), so the bot keeps them in its
journal across its own restarts (in a fleet, for the process that takes over) and gives them back with
:meth:`keep`. Lines of a **topic** (a league's, :class:`Tagged`) are not kept one by one: the topic is, and
when the user is back its recap says what was decided for them and what is true then, instead of a pack
already picked from or a game already lost by forfeit.

A user who has the bot on their **ignore list** (the server answers ``RespInIgnoreList``) is treated like
one who is offline: what waits for them is kept the same way and tried again when they are seen again, one
try each time (a user who still ignores the bot costs one refused message per sighting, never a loop). The
first refusal of an episode (until a message reaches them again) is logged as a warning and told to the
owner once (``on_ignored``), so the bot can tell the player, where they can read it, how to see their
messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
import re
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from cockatrice_ext.client.errors import ChatFlood, ConnectionLost, InIgnoreList, NameNotFound
from cockatrice_ext.client.flood import Cost, FloodLimits, chat_cost, game_command_cost

LOGGER = logging.getLogger(__name__)

Destination = tuple[str, Any]
"""``("room", room_id)``, ``("game", game_id)`` or ``("user", user_name)``."""

SEPARATOR = " | "
MAX_MESSAGE = 300
"""A merged message stays short: the character budget is shared by every conversation."""

Sender = Callable[[Destination, str], Awaitable[None]]

Line = str | Callable[[], str | None]
"""A line to say, or how to render it when it leaves: an answer such as ``!state`` that waits for the budget
is rendered as it is sent, so it never contradicts what happened meanwhile (a lot's note, a later bid). A
renderer that returns None (or "") says nothing: the line is no longer true, and is dropped."""

Recap = Callable[[str], str | None]
"""What a topic's owner tells a user who is back instead of its lines held while they were away."""

TOPIC_MARK = "\x1ftopic:"
"""How a topic held for an offline user is kept among their messages (so the journal keeps it too)."""


@dataclass(frozen=True)
class Tagged:
    """A line with how it is queued, said through any ``tell`` that hands it to :meth:`ChatScheduler.say`.

    ``bulk``: a long listing (a pool to paste): it goes after every other line waiting for its destination,
    and a destination with only bulk waiting goes after every one with a short line waiting until the
    listing has waited :data:`LISTING_AGE` windows (then before them, paced: see the module's docstring),
    so an answer waits for a listing only when the listing has waited long. ``topic`` (with ``recap``):
    whose line it is (a league's key); held for an offline user, such lines are not kept one by one: when
    the user is back, the topic's ``recap`` tells them what is true then, instead of lines that may have
    gone stale meanwhile.
    """

    text: str | Callable[[], str | None]
    bulk: bool = False
    topic: str = ""
    recap: Recap | None = None

    def __call__(self) -> str | None:
        return self.text() if callable(self.text) else self.text

    def __str__(self) -> str:
        return self() or ""


class _Entry(NamedTuple):
    """One queued line: its text or renderer, whether it is raw or bulk, and its topic ("" for none)."""

    line: Line
    raw: bool
    bulk: bool = False
    topic: str = ""
    kept_raw: bool | None = None
    """For a line given back to a user who is back (:meth:`ChatScheduler.user_back`): whether it was kept
    raw; kept again (the user still away, or still ignoring us), it is kept as it was, without its mark.
    None for every other line."""
    at: float = 0.0
    """When it was said (loop time): the operator hears how long the oldest waiting line waits."""
    on_sent: tuple[Callable[[float], None], ...] = ()
    """Told the loop time when the line left (or was given up): a game's announcement starts its clock."""


Held = list[tuple[str, bool]]
"""Messages kept for an offline user: (message, raw), oldest first."""

FLOOD_RETRIES = 3
"""How often a message refused by the server as flood is sent again before it is dropped."""

HELD_MESSAGES = 5
"""Private messages kept for a user who is offline (the latest), sent when they are back."""

HELD_USERS = 500
"""Offline users whose messages are kept at once (the longest-quiet ones are forgotten first)."""

AWAY_PREFIX = "While you were away: "


def _unmarked(text: str) -> str:
    """A given-back message as it was kept (without :data:`AWAY_PREFIX`; the mark alone is nothing)."""
    if text == AWAY_PREFIX.strip():
        return ""
    return text[len(AWAY_PREFIX) :] if text.startswith(AWAY_PREFIX) else text


STARVED_AFTER = 3.0
"""Seconds a line may wait for the budget before the operator is told how to add budget."""

SHARE = 0.9
"""The most of each chat budget (characters and messages per window) one private conversation takes: the
rest is always there for everybody else's short answers. Not half: a pack listing with the pick before it
(600-900 characters) must arrive whole in one message, not cut in two a window apart (the chat-only Market
Draft field test read half a pack)."""

FORGET_AFTER = 20
"""Windows after which what a destination sent no longer weighs in who goes first (e^-20 of it is left)."""

LISTING_AGE = 2.0
"""Windows a listing (a bulk line) waits behind short lines at most: then it goes before them (see
:data:`LISTING_LANE`). The field: a pool asked for during a market night waited 715 s behind answers."""

LISTING_LANE = 2.0
"""A listing message that goes before waiting short lines holds the next such message back for this many
windows times its part of the budget (a 900-character piece: 1.8 windows), so listings going before short
lines take at most about half of the budget."""

PUBLIC_SHARE = 1 / 3
"""The part of the budget public lines (rooms, games) use lately below which they go before private
conversations: a room's line reaches everybody there, often what they all wait for, but a busy room never
takes more than about this much from private answers by its precedence (beyond it, it takes its fair turn)."""

_BREAKS = (("\n", 0), (SEPARATOR, 0), (". ", 1), ("; ", 1), (", ", 1), (" ", 0))
"""Where a text too long for one message is cut, strongest first: (the break, how much of it the first
piece keeps)."""

_EPSILON = 1e-6


FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"

_RIGHT_TO_LEFT = frozenset(("R", "AL"))
_RTL_RUN = re.compile(r"\S+(?: \S+)*")
_ISOLATED = re.compile("(\u2068[^\u2068\u2069]*\u2069)")
_OUTSIDE = "\"'`([{<@#.,;:!?)]}>…|"
"""Punctuation at a run's ends that belongs to the sentence around it, not to the name or words inside."""


def _has_rtl(word: str) -> bool:
    if word.isascii():  # most lines: no letter to look up (a bid's note is built on every bid)
        return False
    return any(unicodedata.bidirectional(char) in _RIGHT_TO_LEFT for char in word)


def bidi_isolated(text: str) -> str:
    """``text`` with each run of right-to-left words (an Arabic or Hebrew user name, a card name typed in
    one) set apart by Unicode's first-strong and pop isolates, so that a client laying the line out left to
    right keeps the words around them in order: without them ``high bid 3 by <A>; <B> to bid`` shows the
    two names swapped (the bidi algorithm joins them into one right-to-left run). Text without right-to-left
    letters is returned unchanged."""
    if not _has_rtl(text):
        return text

    def isolate(run: str) -> str:
        out: list[str] = []
        group: list[str] = []  # right-to-left words with only spaces between them: one isolate

        def close() -> None:
            if group:
                joined = " ".join(group)
                core = joined.strip(_OUTSIDE)
                head, _, rest = joined.partition(core)
                out.append(f"{head}{FIRST_STRONG_ISOLATE}{core}{POP_DIRECTIONAL_ISOLATE}{rest}")
                group.clear()

        for word in run.split(" "):
            core = word.strip(_OUTSIDE)
            if not (core and _has_rtl(core)):
                close()
                out.append(word)
                continue
            if group and (word[0] in _OUTSIDE or group[-1][-1] in _OUTSIDE):
                close()
            group.append(word)
        close()
        return " ".join(out)

    parts = _ISOLATED.split(text)  # odd parts are isolated already (a line rendered twice): kept as they are
    return "".join(
        part if n % 2 else _RTL_RUN.sub(lambda match: isolate(match.group(0)), part)
        for n, part in enumerate(parts)
    )


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _size(text: str) -> int:
    """What a message spends of the character budget (Servatrice counts UTF-8 bytes)."""
    return len(text.encode("utf-8"))


def _first_piece(text: str, size: int) -> tuple[str, str]:
    """``text``'s first piece of at most ``size`` bytes and the rest (``(text, "")`` when it fits): cut at
    the strongest break in the piece's second half (a line break, a ``" | "``, a sentence's or a clause's
    end), else at the last space, else where the bytes run out."""
    if size <= 0 or _size(text) <= size:
        return text, ""
    end, used = 0, 0
    for char in text:
        used += _size(char)
        if used > size:
            break
        end += 1
    end = max(end, 1)
    for brk, kept in _BREAKS:
        cut = text.rfind(brk, 0, end - kept + len(brk))
        if cut + kept >= (1 if brk == " " else end // 2) and cut > 0:
            return text[: cut + kept], text[cut + len(brk) :]
    return text[:end], text[end:]


class ChatScheduler:
    """Queues lines per destination and sends them fairly under one connection's chat budget.

    ``send`` delivers one message to a destination; ``delay`` answers how many seconds until that
    message to that destination fits the budget (0 = now); ``delay_after`` (optional) how many until a
    second one fits if a first one were sent now, so a short message may go while another waits for the
    budget without delaying it. They come from the client in production and are plain callables so the
    scheduler can be tested without a server. ``limits`` gives the connection's budget as it is now (the
    client's flood gate's: a refusal lowers it): each destination's use of it is weighed, and a private
    conversation takes at most ``share`` of it; without it nothing is weighed.
    ``on_held`` hears what is kept for a user who is away; ``on_ignored`` (also an attribute) hears, once
    per episode, of a user whose ignore list refused a private message.
    """

    def __init__(
        self,
        send: Sender,
        delay: Callable[[Destination, str], float],
        *,
        delay_after: Callable[[tuple[Destination, str], tuple[Destination, str]], float] | None = None,
        max_message: int = MAX_MESSAGE,
        user_limit: int = 1000,
        on_held: Callable[[str, Held], None] | None = None,
        limits: Callable[[], FloodLimits] | None = None,
        share: float = SHARE,
        on_ignored: Callable[[str], None] | None = None,
        reconnected: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._send = send
        self._reconnected = reconnected
        """Waits until the connection is back (the client's ``wait_connected``): a line that could not leave
        because the connection dropped goes first in its conversation again then, instead of being lost
        (the bids it answers were journaled; the players must hear of them). None: such a line is dropped."""
        self._on_held = on_held
        """Told a user's kept messages whenever they change (an empty list: none kept any more)."""
        self.on_ignored: Callable[[str], None] = on_ignored or (lambda _user: None)
        """Called with a user's name when the server refuses a private message to them because they ignore
        us (``RespInIgnoreList``): once per episode, after the refused message was kept (:meth:`holds`; or
        queued again, when they were seen while it was on its way). An episode ends when a private message
        reaches them again. What it says to them must not go to them privately (it would be kept too)."""
        self._ignoring: dict[str, None] = {}  # users whose ignore-list episode is on, the latest last
        self._delay = delay
        self._delay_after = delay_after
        """How many seconds until the second (destination, message) fits the budget if the first were sent
        now (the client's ``FloodGate.delay_after``): a short message goes while another waits for the
        budget when it leaves that one fitting no later. None: nothing passes the one waiting."""
        self._limits: Callable[[], FloodLimits] = limits or FloodLimits.unlimited
        self.share = share
        self.max_message = max_message
        self.user_limit = user_limit
        self._queues: dict[Destination, deque[_Entry]] = {}  # short lines first, then bulk ones
        self._since: dict[Destination, int] = {}  # destination -> serial of when it began to wait
        self._spent: dict[Destination, deque[tuple[float, int, int]]] = {}  # (loop time, bytes, serial)
        self._used: dict[Destination, tuple[float, float, float]] = {}  # (bytes, messages, at): see _use
        self._serial = 0
        self._wakeup = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self._warned_at = float("-inf")
        self._lane_free_at = float("-inf")  # when a listing may go before short lines again
        self._held_back: Destination | None = None  # the one chosen last that waits for the budget
        self._round_trip = 0.0  # how long the last message sent took to be answered (loop seconds)
        self._refusals: dict[tuple[Destination, str], int] = {}
        self._held: dict[str, deque[tuple[str, bool]]] = {}  # offline user -> (message, raw), oldest first
        self._held_topics: dict[str, list[str]] = {}  # offline user -> topics whose lines were held
        self.recaps: dict[str, Recap] = {}
        """Each topic's recap (:class:`Tagged`): registered by a tagged line, or by its owner at start."""
        self._parts: list[tuple[str, str]] = []  # the composed message's lines: (text, topic)
        self._parts_kept_raw: bool | None = None  # the composed message's first line's kept_raw
        self._sending: Destination | None = None
        self._sending_parts: list[tuple[str, str]] = []  # the lines of the message on its way: (text, topic)
        self._sending_kept_raw: bool | None = None
        self._parts_sent: list[Callable[[float], None]] = []  # the composed message's lines' on_sent
        self._sending_sent: list[Callable[[float], None]] = []
        self._sending_at = 0.0  # when the oldest line of the message on its way was said
        self._back_while_sending = False
        self.sent_messages = 0
        self.given_back: dict[str, float] = {}
        """When each user last got back what was kept for them (``time.monotonic``): they read what they
        missed, so a referee need not say it again (:meth:`got_back_lately`)."""

    def limit_for(self, destination: Destination) -> int:
        """Private messages may be longer (a pool list); room and game lines stay short."""
        return self.user_limit if destination[0] == "user" else self.max_message

    def say(
        self,
        destination: Destination,
        text: Line,
        *,
        raw: bool = False,
        bulk: bool = False,
        on_sent: Callable[[float], None] | None = None,
    ) -> None:
        """Queue one line for ``destination`` (never blocks; empty lines are dropped).

        A ``raw`` text (a deck list to paste) keeps its line breaks and is sent as a message of its own,
        never merged with other lines; it is cut at the destination's limit like any line. A callable is
        rendered when its message is put together, right before it is sent. A ``bulk`` line (a long
        listing; or a :class:`Tagged` one) goes after the destination's other lines, and after every
        destination's short lines until it has aged (see :class:`Tagged`). ``on_sent`` is told the loop
        time when the line leaves (handed to the client; or given up: refused, dropped, kept for a user who
        is away).
        """
        topic = ""
        if isinstance(text, Tagged):
            bulk, topic = bulk or text.bulk, text.topic
            if topic and text.recap is not None:
                self.recaps[topic] = text.recap
            text = text.text
        line: Line = text if callable(text) else self._fit(destination, text, raw)
        now = _loop_now()
        if not line:
            _tell_sent((on_sent,) if on_sent else (), now)
            return
        if destination[0] == "user" and destination[1] in self._held:
            _tell_sent((on_sent,) if on_sent else (), now)
            # known to be offline: kept for their return, no round trip
            if topic:
                self._hold(destination[1], topics=[topic])
            else:
                self._hold(destination[1], self._rendered(destination, line, raw), raw)
            return
        queue = self._queue(destination)
        entry = _Entry(line, raw, bulk, topic, at=now, on_sent=(on_sent,) if on_sent else ())
        if bulk:
            queue.append(entry)
        else:  # before the first bulk line: an answer never waits behind a listing
            queue.insert(next((n for n, e in enumerate(queue) if e.bulk), len(queue)), entry)
        self._wake()

    def _queue(self, destination: Destination) -> deque[_Entry]:
        """The destination's queue (a new one waits behind those already waiting)."""
        queue = self._queues.get(destination)
        if queue is None:
            queue = self._queues[destination] = deque()
            self._serial += 1
            self._since[destination] = self._serial
        return queue

    def _fit(self, destination: Destination, text: str, raw: bool) -> str:
        limit = self.limit_for(destination)
        text = bidi_isolated(text)
        return text.strip()[:limit] if raw else _clip(text, limit)

    def _rendered(self, destination: Destination, line: Line, raw: bool) -> str:
        """The text of a queued line now (a callable is rendered; one that fails says nothing)."""
        return self._render(destination, line, raw) or ""

    def _render(self, destination: Destination, line: Line, raw: bool) -> str | None:
        """Like :meth:`_rendered`, but None when the renderer failed (it is logged)."""
        if not callable(line):
            return line
        try:
            text = line()
            return "" if text is None else self._fit(destination, text, raw)
        except Exception:  # a renderer of a game that is gone: the others go on
            LOGGER.exception("a line for %s could not be rendered", destination)
            return None

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
            isinstance(entry.line, str) and entry.line.startswith(line)
            for entry in self._queues.get(destination, ())
        )

    def waiting(self) -> tuple[int, int]:
        """Messages and characters still to send (a destination's waiting lines merge into one message)."""
        queues = [(d, queue) for d, queue in self._queues.items() if queue]
        size = sum(
            len(self._rendered(d, e.line, e.raw)) + len(SEPARATOR) for d, queue in queues for e in queue
        )
        return len(queues), size

    def holds(self, user: str) -> bool:
        """Whether anything is kept for ``user`` (messages, or a topic's lines their recap speaks for)."""
        return bool(self._held.get(user)) or bool(self._held_topics.get(user))

    def held(self, user: str) -> list[str]:
        """The messages kept for ``user`` while they are offline (oldest first)."""
        return [message for message, _ in self._held.get(user, ())]

    def keep(self, user: str, messages: Held) -> None:
        """Messages kept for ``user`` by an earlier run of the bot (from its journal), sent when they are
        back; anything kept since comes after them."""
        if not messages:
            return
        topics = [str(m)[len(TOPIC_MARK) :] for m, _ in messages if str(m).startswith(TOPIC_MARK)]
        held: deque[tuple[str, bool]] = deque(
            ((str(m), bool(raw)) for m, raw in messages if not str(m).startswith(TOPIC_MARK)),
            maxlen=HELD_MESSAGES,
        )
        held.extend(self._held.pop(user, ()))
        self._held[user] = held
        kept = self._held_topics.setdefault(user, [])
        kept.extend(topic for topic in topics if topic not in kept)
        self._tell_held(user, list(held))

    def forget_held(self) -> None:
        """Forget every kept message without telling the owner: its journal still has them, for whichever
        process sends them now (a fleet member that lost the sending account's lease)."""
        self._held.clear()
        self._held_topics.clear()

    def user_back(self, user: str) -> None:
        """``user`` is online again (logged in, joined a room, wrote): what was kept for them goes first in
        their conversation, the first message marked as sent while they were away."""
        if self._sending == ("user", user):
            self._back_while_sending = True  # a refusal of what is on its way now is not theirs to keep
        held = self._held.pop(user, None)
        topics = self._held_topics.pop(user, [])
        if not held and not topics:
            return
        self._tell_held(user, [])
        # Each goes whole, as kept; kept again (still away, still ignoring us) it is kept as it was: a
        # message without its mark, a recap as its topic.
        entries = [_Entry(message, True, kept_raw=raw) for message, raw in held or ()]
        if held:
            first, first_raw = held[0]
            if first_raw or len(AWAY_PREFIX) + len(first) > self.limit_for(("user", user)):
                entries.insert(0, _Entry(AWAY_PREFIX.strip(), True, kept_raw=False))  # a deck list pastes
            else:
                entries[0] = entries[0]._replace(line=AWAY_PREFIX + first)
        for topic in topics:  # what is true now, instead of the topic's lines held meanwhile
            recap = self.recaps.get(topic)
            try:
                told = recap(user) if recap is not None else None
            except Exception:  # its owner is gone or broken: the other messages go on
                LOGGER.exception("the recap of %s for %s failed", topic, user)
                told = None
            if told:
                entries.append(_Entry(self._fit(("user", user), told, False), True, topic=topic))
        if not entries:
            return
        queue = self._queue(("user", user))
        queue.extendleft(reversed(entries))
        LOGGER.info("%s is back: %d kept message(s) go out", user, len(entries))
        self.given_back[user] = time.monotonic()
        self._wake()

    def user_left(self, user: str) -> None:
        """The server says ``user`` logged off: everything waiting for them is kept at once, none of it
        tried, and so is what is said to them until they are back (:meth:`user_back`)."""
        self._hold(user)

    def got_back_lately(self, user: str, within: float = 60.0) -> bool:
        """Whether ``user`` got their kept messages back in the last ``within`` seconds."""
        return time.monotonic() - self.given_back.get(user, float("-inf")) < within

    def drop(self, destination: Destination) -> None:
        """Forget what is queued for a destination that is gone (a closed game, a user who left)."""
        dropped = self._queues.pop(destination, None) or ()
        _tell_sent([told for entry in dropped for told in entry.on_sent], _loop_now())
        self._since.pop(destination, None)
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

    # -- the budget each destination used -----------------------------------------------------------

    def _window(self) -> float:
        limits = self._limits()
        return limits.chat_interval + limits.margin

    def _spent_now(self, destination: Destination, now: float) -> deque[tuple[float, int, int]]:
        """What ``destination`` sent in the last window: (loop time, bytes, serial), oldest first."""
        spent = self._spent.get(destination)
        if spent is None:
            return deque()
        cutoff = now - self._window()
        while spent and spent[0][0] <= cutoff:
            spent.popleft()
        if not spent:
            del self._spent[destination]
        return spent

    def _order(self, destination: Destination, now: float) -> tuple[float, int, int]:
        """Who goes first: the least use of the budget lately (:meth:`_use`), then one not served in the
        last window (in the order they began to wait), then the one served least recently."""
        spent = self._spent_now(destination, now)
        return self._use(destination, now), spent[-1][2] if spent else -1, self._since.get(destination, 0)

    def _use(self, destination: Destination, now: float) -> float:
        """How much of the budget ``destination`` used lately: the larger of its shares of the characters
        and of the messages, each message's weight falling by e every window. Falling alike for everyone,
        the order of two destinations does not change while neither sends: one that is first stays first
        until it is served."""
        used = self._used.get(destination)
        limits = self._limits()
        if used is None:
            return 0.0
        size, messages, at = used
        weight = math.exp(-(now - at) / self._window())
        use = size * weight / limits.chat_chars if limits.chat_chars > 0 else 0.0
        return max(use, messages * weight / limits.chat_messages) if limits.chat_messages > 0 else use

    def _charge(self, destination: Destination, size: int, now: float) -> None:
        """Count a message of ``size`` bytes sent to ``destination`` now (what weighs nothing any more is
        forgotten)."""
        window = self._window()
        for other, (_, _, at) in list(self._used.items()):
            if now - at > FORGET_AFTER * window:
                del self._used[other]
        old_size, old_messages, at = self._used.get(destination, (0.0, 0.0, now))
        weight = math.exp(-(now - at) / window)
        self._used[destination] = (size + old_size * weight, 1 + old_messages * weight, now)
        self.sent_messages += 1
        self._spent.setdefault(destination, deque()).append((now, size, self.sent_messages))
        for other in list(self._spent):
            self._spent_now(other, now)  # forget what left the window

    def _share(self, destination: Destination) -> tuple[int, int]:
        """The bytes and messages ``destination`` may send per window (0: no bound of its own): a private
        conversation's share of the budget, the whole budget for a room or a game."""
        limits = self._limits()
        if destination[0] != "user" or self.share >= 1:
            return 0, 0
        return (
            max(1, int(limits.chat_chars * self.share)) if limits.chat_chars > 0 else 0,
            max(1, int(limits.chat_messages * self.share)) if limits.chat_messages > 0 else 0,
        )

    def _piece_size(self, destination: Destination) -> int:
        """The most bytes one message to ``destination`` carries (0: no bound): its share, so a long text
        goes in pieces rather than hold the whole budget."""
        return self._share(destination)[0] or max(0, self._limits().chat_chars)

    def _message_size(self, destination: Destination, now: float) -> int:
        """The most bytes the next message to ``destination`` carries (0: no bound): what its share has left
        in the window, so a long text's next piece takes that now, but at least a quarter of the share
        (else it waits for that much, rather than go in crumbs)."""
        piece = self._piece_size(destination)
        most_bytes = self._share(destination)[0]
        if not most_bytes:
            return piece
        left = most_bytes - sum(size for _, size, _ in self._spent_now(destination, now))
        return min(piece, max(left, piece // 4, 1))

    def _share_wait(self, destination: Destination, size: int, now: float) -> float:
        """Seconds until ``destination``'s own share has room for one more message of ``size`` bytes (0 =
        now); a message larger than the share (one character too big for it) goes alone in its window."""
        most_bytes, most_messages = self._share(destination)
        if not (most_bytes or most_messages):
            return 0.0
        spent = self._spent_now(destination, now)
        used = sum(entry_size for _, entry_size, _ in spent)
        excess_bytes = (used if size > most_bytes else used + size - most_bytes) if most_bytes else 0
        excess_messages = len(spent) + 1 - most_messages if most_messages else 0
        if excess_bytes <= 0 and excess_messages <= 0:
            return 0.0
        freed_bytes = 0
        for freed_messages, (stamp, entry_size, _) in enumerate(spent, 1):
            freed_bytes += entry_size
            if freed_bytes >= excess_bytes and freed_messages >= excess_messages:
                return max(0.0, stamp + self._window() - now) + _EPSILON
        return self._window()  # unreachable: everything spent expires within a window

    # -- choosing and sending -----------------------------------------------------------------------

    def _compose(self, destination: Destination, size: int) -> tuple[str, int, tuple[str, bool] | None]:
        """The next message for ``destination``, at most ``size`` bytes (0: no bound), without taking it
        from the queue: its first line (only its first piece if it is longer) and the plain lines after it
        that fit, callables rendered now. Returns the text ("": the lines it takes say nothing), how many
        queued lines it takes, and the rest of a first line that was cut."""
        queue = self._queues[destination]
        limit = self.limit_for(destination)
        text, raw, taken = "", False, 0
        while not text and taken < len(queue):
            text, raw = self._render_queued(destination, taken), queue[taken].raw
            taken += 1
        self._parts_sent = [told for entry in itertools.islice(queue, taken) for told in entry.on_sent]
        if not text:
            self._parts, self._parts_kept_raw = [], None
            return "", taken, None
        head = queue[taken - 1]
        text, rest = _first_piece(text, size)
        self._parts, self._parts_kept_raw = [(text, head.topic)], head.kept_raw
        if rest:
            return text, taken, (rest, raw)
        while not raw and taken < len(queue) and not queue[taken].raw and head.bulk >= queue[taken].bulk:
            following = self._render_queued(destination, taken)
            if following:
                merged = text + SEPARATOR + following
                if len(merged) > limit or (size and _size(merged) > size):
                    break
                text = merged
                self._parts.append((following, queue[taken].topic))
            self._parts_sent.extend(queue[taken].on_sent)
            taken += 1
        return text, taken, None

    def _render_queued(self, destination: Destination, index: int) -> str:
        """The text of the destination's ``index``-th queued line now; a renderer that fails is replaced by
        nothing (logged once, however often its message is put together while it waits)."""
        queue = self._queues[destination]
        entry = queue[index]
        text = self._render(destination, entry.line, entry.raw)
        if text is None:
            queue[index] = entry._replace(line="")
        return text or ""

    def _take(self, destination: Destination, taken: int, rest: tuple[str, bool] | None) -> None:
        """Take a composed message's lines from the queue (a cut line's rest stays first)."""
        queue = self._queues[destination]
        first = queue[0] if queue else None
        for _ in range(taken):
            queue.popleft()
        if rest is not None and first is not None:
            queue.appendleft(first._replace(line=rest[0], raw=rest[1], on_sent=()))  # a listing's rest: bulk
        if not queue:
            del self._queues[destination]
            self._since.pop(destination, None)

    def _public_first(self, now: float) -> bool:
        """Whether public lines (rooms, games) go before private conversations now: while what they used
        lately together is below :data:`PUBLIC_SHARE` of the budget (limits known; without them nothing is
        weighed and nobody goes first)."""
        limits = self._limits()
        if limits.chat_chars <= 0 and limits.chat_messages <= 0:
            return False
        return sum(self._use(d, now) for d in list(self._used) if d[0] != "user") < PUBLIC_SHARE

    def _aged_at(self, entry: _Entry) -> float:
        """When a listing line said at ``entry.at`` has waited :data:`LISTING_AGE` windows."""
        return entry.at + LISTING_AGE * self._window()

    def _lane_hold(self, size: int) -> float:
        """Seconds a listing message of ``size`` bytes that went before short lines holds the next one back:
        :data:`LISTING_LANE` windows times its part of the budget (the larger of characters and messages)."""
        limits = self._limits()
        part = max(
            size / limits.chat_chars if limits.chat_chars > 0 else 0.0,
            1 / limits.chat_messages if limits.chat_messages > 0 else 0.0,
        )
        return LISTING_LANE * self._window() * part

    def _rank(
        self, destination: Destination, now: float, public_first: bool, lane_free: bool
    ) -> tuple[int, float, float, int, int]:
        """Where ``destination`` stands in the order: a listing that waited :data:`LISTING_AGE` windows
        while short lines wait and the listings' lane is free (the oldest first); then public destinations
        while their use lately is below :data:`PUBLIC_SHARE`; then the rest with short lines waiting; then
        listings. Within each, :meth:`_order`."""
        head = self._queues[destination][0]
        if head.bulk:
            tier, at = (0, head.at) if lane_free and self._aged_at(head) <= now else (3, 0.0)
        else:
            tier, at = (1 if public_first and destination[0] != "user" else 2), 0.0
        return (tier, at, *self._order(destination, now))

    def _choose(self, now: float) -> tuple[tuple[Destination, str] | None, float, bool]:
        """The message to send now, else how long to wait (and whether for the connection's budget rather
        than a destination's own share). The first in :meth:`_rank` whose share has room is chosen; if
        the budget has no room for its message, it is held back, and only a short message that fits now
        and leaves it fitting no later passes it (:meth:`_fill_in`)."""
        wait = math.inf
        waiting = [d for d, queue in self._queues.items() if queue]
        shorts = any(not self._queues[d][0].bulk for d in waiting)
        lane_free = shorts and self._lane_free_at <= now  # no listing went before short lines lately
        held_back = self._held_back if self._held_back in waiting else None
        # A public line goes first when it is chosen, but never passes a private one waiting for the budget.
        public_first = (held_back is None or held_back[0] != "user") and self._public_first(now)
        ranks = {d: self._rank(d, now, public_first, lane_free) for d in waiting}
        # The order also changes without a line said: when a listing ages, or the listings' lane frees.
        listings = [self._aged_at(self._queues[d][0]) for d in waiting if shorts and self._queues[d][0].bulk]
        turns = [max(at, self._lane_free_at) for at in listings]
        next_turn = min((at - now for at in turns if at > now), default=math.inf)
        # Short lines first: a destination with only bulk waiting (listings) goes when no short line waits,
        # or when its listing has aged.
        order = sorted(waiting, key=ranks.__getitem__)
        for index, destination in enumerate(order):
            tier = ranks[destination][0]
            if tier == 3 and not math.isinf(wait):
                break  # a short line waits for its own share: no listing takes the budget it will need
            composed = self._within_share(destination, now)
            if composed is None:  # only renderers that said nothing: no budget spent, look again
                return None, 0.0, False
            if isinstance(composed, float):
                wait = min(wait, composed)
                continue
            text, taken, rest = composed
            budget_wait = self._delay(destination, text)
            if budget_wait > 0:
                self._held_back = destination
                held = (destination, text, budget_wait)
                filled, fill_wait, again = self._fill_in(held, order[index + 1 :], ranks, now)
                if filled is not None or again:
                    return filled, 0.0, False
                return None, min(wait, fill_wait, budget_wait, next_turn), True
            self._held_back = None
            return self._taking(destination, text, taken, rest, tier, now), 0.0, False
        return None, min(wait, next_turn), False

    def _within_share(
        self, destination: Destination, now: float
    ) -> tuple[str, int, tuple[str, bool] | None] | float | None:
        """``destination``'s next message as :meth:`_compose` puts it together, within its share: its text,
        the lines it takes and a cut line's rest; else the seconds until its share has room for it; None
        when its first lines said nothing (renderers: they are taken, nothing is spent, look again)."""
        if (share_wait := self._share_wait(destination, 1, now)) > 0:
            return float(share_wait)
        text, taken, rest = self._compose(destination, self._message_size(destination, now))
        if not text:
            self._take(destination, taken, rest)
            _tell_sent(self._parts_sent, now)
            return None
        if (share_wait := self._share_wait(destination, _size(text), now)) > 0:
            return float(share_wait)
        return text, taken, rest

    def _taking(
        self,
        destination: Destination,
        text: str,
        taken: int,
        rest: tuple[str, bool] | None,
        tier: int,
        now: float,
    ) -> tuple[Destination, str]:
        """Take the composed message (``text``, its ``taken`` lines) from the queue to send it now."""
        queue = self._queues[destination]
        self._sending_at = min((entry.at for entry in itertools.islice(queue, taken)), default=now)
        self._take(destination, taken, rest)
        self._sending_parts, self._sending_kept_raw = list(self._parts), self._parts_kept_raw
        self._sending_sent = list(self._parts_sent)
        if tier == 0:  # it went before short lines: the next listing to do so waits
            self._lane_free_at = now + self._lane_hold(_size(text))
        return destination, text

    def _fill_in(
        self,
        held: tuple[Destination, str, float],
        later: list[Destination],
        ranks: dict[Destination, tuple[int, float, float, int, int]],
        now: float,
    ) -> tuple[tuple[Destination, str] | None, float, bool]:
        """A message that goes while the first in the order waits for the budget (``held``: its destination,
        message and wait), so the budget it leaves unused meanwhile is not lost (field: a 75-byte ``!state``
        that fitted at once waited 16 s behind a 413-byte hand list held for the budget): the first of
        ``later`` (the rest of the order) whose short lines' message fits its share and the budget now, and
        whose sending leaves the held message fitting no later (``delay_after``) and first in the order.
        Listings never go so. Returns it (else None), how long until one of them may fit, and whether to
        look again at once (renderers that said nothing were taken). Without ``delay_after`` none goes, nor
        when the held one fits within the last message's round trip (it would wait for this one's answer)."""
        held_destination, held_text, held_wait = held
        if self._delay_after is None or held_wait <= self._round_trip:
            return None, math.inf, False
        held_tier = ranks[held_destination][0]
        wait = math.inf
        for destination in later:
            tier = ranks[destination][0]
            if tier == 3:
                break  # listings and every one after them: they wait for short lines anyway
            if tier == 0:
                continue  # an aged listing would take the listings' lane from the one held
            composed = self._within_share(destination, now)
            if composed is None:
                return None, 0.0, True
            if isinstance(composed, float):
                wait = min(wait, composed)
                continue
            text, taken, rest = composed
            if (budget_wait := self._delay(destination, text)) > 0:
                wait = min(wait, budget_wait)  # it may fit before the held one goes
                continue
            after = self._delay_after((destination, text), (held_destination, held_text))
            if after > held_wait + _EPSILON / 1000:
                continue
            if not self._keeps_first(held_destination, held_tier, destination, text, taken, rest, now):
                continue
            return self._taking(destination, text, taken, rest, tier, now), 0.0, False
        return None, wait, False

    def _keeps_first(
        self,
        held: Destination,
        held_tier: int,
        destination: Destination,
        text: str,
        taken: int,
        rest: tuple[str, bool] | None,
        now: float,
    ) -> bool:
        """Whether ``held`` stays first in the order once ``destination``'s message ``text`` (its ``taken``
        lines) went before it. Its own use and that of everyone else are unchanged, so only its tier can
        move: a public line first while public lines used less than :data:`PUBLIC_SHARE` (the message
        passing it must not make them use more), an aged listing while a short line waits (one must be
        left)."""
        if held_tier == 1 and destination[0] != "user":
            use = sum(self._use(d, now) for d in list(self._used) if d[0] != "user" and d != destination)
            return use + self._use_after(destination, _size(text), now) < PUBLIC_SHARE
        if held_tier == 0:
            queue = self._queues[destination]
            if rest is not None or (taken < len(queue) and not queue[taken].bulk):
                return True  # a short line of its own is left
            return any(q and not q[0].bulk for d, q in self._queues.items() if d != destination)
        return True

    def _use_after(self, destination: Destination, size: int, now: float) -> float:
        """:meth:`_use` of ``destination`` right after a message of ``size`` bytes to it (as :meth:`_charge`
        would count it)."""
        limits = self._limits()
        old_size, old_messages, at = self._used.get(destination, (0.0, 0.0, now))
        weight = math.exp(-(now - at) / self._window())
        size_now, messages_now = size + old_size * weight, 1 + old_messages * weight
        use = size_now / limits.chat_chars if limits.chat_chars > 0 else 0.0
        return max(use, messages_now / limits.chat_messages) if limits.chat_messages > 0 else use

    async def _pause(self, seconds: float) -> None:
        """Wait ``seconds`` or until a line is said (it may go before the one waiting)."""
        self._wakeup.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(None if math.isinf(seconds) else seconds):
                await self._wakeup.wait()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            for destination in [d for d, queue in self._queues.items() if not queue]:
                self.drop(destination)
            if not self._queues:
                self._idle.set()
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            now = loop.time()
            chosen, wait, for_budget = self._choose(now)
            if chosen is None:
                if wait > 0:
                    if for_budget:
                        self._warn_if_starved(wait)
                    await self._pause(wait)
                continue
            await self._deliver(*chosen, now)

    async def _deliver(self, destination: Destination, message: str, now: float) -> None:
        """Send one message, charged to its destination; a refusal as flood sends it again, one to a user
        who is offline or ignores us keeps it (and everything waiting for them)."""
        self._charge(destination, _size(message), now)
        if destination in self._since:
            self._serial += 1
            self._since[destination] = self._serial
        self._sending, self._back_while_sending = destination, False
        try:
            await self._send(destination, message)
            self._round_trip = asyncio.get_running_loop().time() - now
        except asyncio.CancelledError:
            raise
        except ChatFlood:  # the server's budget is smaller than we knew: the client paces slower now
            if self._send_again(destination, message):
                return  # its lines have not left yet
        except ConnectionLost as exc:
            if self._reconnected is not None:
                # A message that had left (exc.sent) may have been said: it goes again all the same. A line
                # said twice reads as a repeat; one never said is news a player does not get.
                LOGGER.info("chat to %s waits for the connection: %s", destination, exc)
                self._put_back(destination, message)
                await self._reconnected()  # nothing else can leave meanwhile
                return  # its lines have not left yet
            LOGGER.info("chat to %s failed: %s", destination, exc)
        except (NameNotFound, InIgnoreList) as exc:
            if destination[0] != "user":
                LOGGER.info("chat to %s failed: %s", destination, exc)
            else:
                self._refused(str(destination[1]), message, ignored=isinstance(exc, InIgnoreList))
        except Exception as exc:  # a game that closed: the others go on
            LOGGER.info("chat to %s failed: %s", destination, exc)
        else:
            self._refusals.pop((destination, message), None)
            if destination[0] == "user" and str(destination[1]) in self._ignoring:
                del self._ignoring[str(destination[1])]  # the episode is over
                LOGGER.info("%s reads the referee's private messages again", destination[1])
        finally:
            self._sending = None
        _tell_sent(self._sending_sent, asyncio.get_running_loop().time())

    def _refused(self, user: str, message: str, *, ignored: bool) -> None:
        """A private message ``user`` did not get: they are offline, or (``ignored``) have us on their
        ignore list. It is kept with everything waiting for them until they are seen again, unless they
        were seen while it was on its way (then it goes again, their one try for being seen)."""
        self.given_back.pop(user, None)  # whatever was given back did not reach them
        kept_raw = self._sending_kept_raw
        if self._back_while_sending:  # seen while the server was answering: the refusal may be stale
            parts = self._sending_parts
            topic = parts[0][1] if len(parts) == 1 else ""
            self._queue(("user", user)).appendleft(_Entry(message, True, topic=topic, kept_raw=kept_raw))
        else:
            parts = self._sending_parts
            parts = parts if parts and message.startswith(parts[0][0]) else []
            topics = [topic for _, topic in parts if topic]
            if topics:  # a topic's lines are told by its recap; the others are kept as they were
                message = SEPARATOR.join(text for text, topic in parts if not topic)
            if kept_raw is not None:  # given back and refused again: kept as it was kept before
                message = _unmarked(message)
            self._hold(user, message, kept_raw, topics=topics, quiet=ignored)
        if ignored:
            self._ignored(user)

    def _ignored(self, user: str) -> None:
        """``user`` refused a private message (ignore list): the operator and the owner hear of it once per
        episode, which a delivery to them ends."""
        if user in self._ignoring:
            LOGGER.debug("%s still ignores the referee: %d message(s) kept", user, len(self.held(user)))
            return
        self._ignoring[user] = None
        while len(self._ignoring) > HELD_USERS:
            del self._ignoring[next(iter(self._ignoring))]
        LOGGER.warning(
            "%s has the referee on their ignore list: private messages to them are kept and tried again"
            " each time they are seen",
            user,
        )
        try:
            self.on_ignored(user)
        except Exception:  # telling them failed: what waits for them is still kept
            LOGGER.exception("telling %s that they ignore the referee failed", user)

    def ignores(self, user: str) -> bool:
        """Whether ``user``'s last refusal of a private message was their ignore list (no message has
        reached them since)."""
        return user in self._ignoring

    def _send_again(self, destination: Destination, message: str) -> bool:
        """A message the server refused as flood goes first in its conversation again (alone, as sent),
        up to :data:`FLOOD_RETRIES` times: what the budget refused is delayed, not lost. Whether it waits
        again (False: dropped)."""
        key = (destination, message)
        refused = self._refusals[key] = self._refusals.get(key, 0) + 1
        if refused > FLOOD_RETRIES:
            del self._refusals[key]
            LOGGER.warning("chat to %s refused as flood %d times, dropped: %r", destination, refused, message)
            return False
        self._put_back(destination, message)
        return True

    def _put_back(self, destination: Destination, message: str) -> None:
        """The message being sent goes first in its conversation again, alone, as it was sent."""
        entry = _Entry(message, True, at=self._sending_at, on_sent=tuple(self._sending_sent))
        self._queue(destination).appendleft(entry)
        self._idle.clear()

    def _hold(
        self,
        user: str,
        message: str = "",
        raw: bool | None = None,
        *,
        topics: list[str] | None = None,
        quiet: bool = False,
    ) -> None:
        """Keep ``message`` for an offline user until :meth:`user_back`, and every line still queued for
        them (none of them could be delivered either), at once; the user counts as offline from now on, so
        what is said to them next is kept without a try. Lines merge as they would have been sent; the
        latest :data:`HELD_MESSAGES` are kept, for at most :data:`HELD_USERS` users. A line of a topic
        (:class:`Tagged`) is not kept: its topic is, and its recap speaks for it when the user is back. A
        line given back and kept again is kept as it was (``_Entry.kept_raw``). ``quiet``: the caller logs
        why (no "is offline" line)."""
        held = self._held.pop(user, None) or deque(maxlen=HELD_MESSAGES)
        self._held[user] = held  # the most recently held last
        before = list(held)
        kept_topics = self._held_topics.setdefault(user, [])
        topics_before = list(kept_topics)
        lines = [(message, "\n" in message if raw is None else raw)] if message else []  # a text sent
        queued = self._queues.pop(("user", user), None) or ()  # whole (a deck list) stays whole
        self._since.pop(("user", user), None)
        told = [listener for entry in queued for listener in entry.on_sent]
        if told:  # what waited for them is given up here: its listeners hear so
            _tell_sent(told, _loop_now())
        for topic in [*(topics or ()), *(entry.topic for entry in queued if entry.topic)]:
            if topic not in kept_topics:
                kept_topics.append(topic)
        for entry in queued:
            if entry.topic:
                continue
            text = self._rendered(("user", user), entry.line, entry.raw)
            if entry.kept_raw is not None:
                text = _unmarked(text)
            if text:
                lines.append((text, entry.raw if entry.kept_raw is None else entry.kept_raw))
        limit = self.limit_for(("user", user))
        for text, text_raw in lines:
            last = held[-1] if held else None
            if last and not text_raw and not last[1] and len(last[0]) + len(SEPARATOR) + len(text) <= limit:
                held[-1] = (last[0] + SEPARATOR + text, False)
            else:
                held.append((text, text_raw))
        if list(held) != before or kept_topics != topics_before:
            if not before and not topics_before and not quiet:
                LOGGER.info("%s is offline: private messages are kept until they are back", user)
            self._tell_held(user, list(held))
        if not kept_topics:
            del self._held_topics[user]
        while len(self._held) > HELD_USERS:
            forgotten = next(iter(self._held))
            topics_gone = self._held_topics.pop(forgotten, None)
            if self._held.pop(forgotten) or topics_gone:
                self._tell_held(forgotten, [])
        if not any(self._queues.values()):
            self._idle.set()

    def _tell_held(self, user: str, messages: Held) -> None:
        """Tell the owner what is kept for ``user`` (their held topics as marked messages after the rest)."""
        messages = [*messages, *self._topic_marks(user)]
        if self._on_held is not None:
            try:
                self._on_held(user, messages)
            except Exception:  # keeping them elsewhere failed: they are still kept here
                LOGGER.exception("messages kept for %s not recorded", user)

    def _topic_marks(self, user: str) -> Held:
        return [(TOPIC_MARK + topic, False) for topic in self._held_topics.get(user, ())]

    def oldest_wait(self, now: float) -> float:
        """Seconds the oldest line still queued has waited (0: none waits)."""
        said = [entry.at for queue in self._queues.values() for entry in queue if entry.at]
        return max(0.0, now - min(said)) if said else 0.0

    def _warn_if_starved(self, wait: float) -> None:
        """Tell the operator (at most once a minute) when the budget holds lines back for long: how many
        messages wait and how long the oldest line has waited (what players feel), not only the next slot."""
        now = asyncio.get_running_loop().time()
        oldest = self.oldest_wait(now)
        if max(wait, oldest) >= STARVED_AFTER and now - self._warned_at >= 60.0:
            self._warned_at = now
            LOGGER.warning(
                "chat budget spent: %d message(s) waiting, the oldest line for %.0f s (the next goes in %.0f"
                " s); each helper session (--extra-user) adds its own budget",
                self.waiting()[0],
                oldest,
                wait,
            )


def _loop_now() -> float:
    """The running loop's time (the monotonic clock, which it reads, outside a loop)."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


def _tell_sent(listeners: Any, at: float) -> None:
    """Tell each ``on_sent`` listener that its line left at loop time ``at`` (a failing one is logged)."""
    for listener in listeners:
        try:
            listener(at)
        except Exception:
            LOGGER.exception("a sent line's listener failed")


def client_scheduler(client: Any, **options: Any) -> ChatScheduler:
    """A scheduler sending through ``client`` (``room_say``, ``game_say``, ``send_message``), weighing what
    each destination spends against the client's flood gate's limits, and asking the gate whether a short
    message may go while another waits for the budget (``FloodGate.delay_after``)."""

    async def send(destination: Destination, message: str) -> None:
        kind, target = destination
        if kind == "room":
            await client.room_say(target, message)
        elif kind == "game":
            await client.game_say(target, message)
        else:
            await client.send_message(target, message)

    def cost(destination: Destination, message: str) -> Cost:
        # A game line also counts as a game command: both budgets must allow it.
        if destination[0] == "game":
            return game_command_cost("Command_GameSay", message=message)
        return chat_cost(message)

    def delay(destination: Destination, message: str) -> float:
        return float(client.flood.delay(cost(destination, message), asyncio.get_running_loop().time()))

    def delay_after(first: tuple[Destination, str], then: tuple[Destination, str]) -> float:
        now = asyncio.get_running_loop().time()
        return float(client.flood.delay_after(cost(*first), cost(*then), now))

    if callable(getattr(client.flood, "delay_after", None)):  # a stand-in gate without it: nothing passes
        options.setdefault("delay_after", delay_after)
    options.setdefault("limits", lambda: client.flood.limits)
    options.setdefault("reconnected", lambda: client.wait_connected())  # looked up when a line meets a drop
    return ChatScheduler(send, delay, **options)
