"""What a player missed of a game's chat while their client was away, told to them when they are back.

Servatrice keeps a registered player's seat when their connection drops (their ping reads -1) and seats
them again when they log back in, but it does not repeat the game's chat: a prompt to them ("keep or
cast?", "your pick") said meanwhile is lost. :class:`MissedLines` keeps the referee's game lines for each
player who is away, from a little before the server noticed (a connection that dies silently is noticed
only after the server's inactivity timeout; the seconds without data from that player, their last ping,
say how long they may have heard nothing), and renders them for one private message on their return.

Pure and clock-free: the caller passes the time. Only the referee's own lines are kept (what players say to
each other is theirs), and only lines the game's chat showed to every participant, so telling them to the
player who was away shows nothing they could not have seen.
"""

from __future__ import annotations

from collections import deque

KEPT_LINES = 12
"""Lines kept per away player (the latest): a recap, not a transcript."""

RECENT_SECONDS = 30.0
"""How far back the lines said before a drop are remembered (longer than Servatrice's default 15 s)."""

RECAP_CHARACTERS = 400
"""A recap's length: it shares the connection's 1,000 characters per 10 s with every conversation."""

SEPARATOR = " | "


class MissedLines:
    """The game lines each away player has not seen, by the server's player id."""

    def __init__(self) -> None:
        self._recent: deque[tuple[float, str]] = deque(maxlen=KEPT_LINES)
        self._missed: dict[int, deque[str]] = {}

    def said(self, line: str, now: float, away: set[int]) -> None:
        """The referee said ``line`` in the game's chat while the players ``away`` had no connection."""
        self._recent.append((now, line))
        while self._recent and self._recent[0][0] < now - RECENT_SECONDS:
            self._recent.popleft()
        for player_id in away:
            self._missed.setdefault(player_id, deque(maxlen=KEPT_LINES)).append(line)

    def dropped(self, player_id: int, silent_seconds: int, now: float) -> None:
        """The server says ``player_id`` lost their connection after ``silent_seconds`` without data from
        them: the lines said since then may not have reached them either."""
        # The game's clock counts whole seconds and reports once a second: the silence may be 2 s longer.
        since = now - max(0, silent_seconds) - 2.0
        self._missed[player_id] = deque((line for at, line in self._recent if at >= since), maxlen=KEPT_LINES)

    def back(self, player_id: int) -> list[str]:
        """``player_id`` is connected again: the lines they missed, oldest first (and forgotten here)."""
        return list(self._missed.pop(player_id, ()))

    def forget(self, player_id: int) -> None:
        """``player_id`` left the game for good: nothing to tell them."""
        self._missed.pop(player_id, None)


def recap(game_id: int, lines: list[str], limit: int = RECAP_CHARACTERS) -> str:
    """One private message of the latest ``lines`` that fit ``limit`` characters, saying how many earlier
    ones are left out; "" when there are none."""
    if not lines:
        return ""
    head = f"Game #{game_id} while you were away: "
    kept: list[str] = []
    size = len(head)
    for line in reversed(lines):
        extra = len(line) + (len(SEPARATOR) if kept else 0)
        if kept and size + extra > limit - 24:  # room for the "(N earlier lines) " note
            break
        kept.append(line)
        size += extra
    left_out = len(lines) - len(kept)
    note = f"({left_out} earlier line{'s' if left_out != 1 else ''} not repeated) " if left_out else ""
    text = head + note + SEPARATOR.join(reversed(kept))
    return text if len(text) <= limit else text[: limit - 1] + "…"
