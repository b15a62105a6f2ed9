"""The one interface every format engine implements.

Theory of operation
-------------------
A format engine is a pure, deterministic state machine: *actions in, effects out*.

* An :class:`Action` is something a player (or the referee, ``player=None``) asks for:
  ``Bid(player=3, amount=4)``. Actions come from untrusted chat, so :meth:`Engine.apply`
  always re-checks them and raises :class:`RulesError` without changing anything when they
  are not allowed.
* An :class:`Effect` is something that happened: ``LotSold(...)``, ``GoldChanged(...)``.
  Engines never build chat text and never do I/O; the bot renders effects into chat lines
  and Cockatrice commands.
* All randomness comes from ``self.rng``, seeded at construction. Replaying the same
  actions on a fresh engine with the same config and seed gives the same state, which is
  how :mod:`cockatrice_ext.journal` restores a game after a restart.

Player identities are opaque hashable values chosen by the adapter: the server's player id
(``int``) inside one game, the server's user name (``str``) in a league spanning games.
Engines never derive identity from chat text.
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

PlayerId = int | str


@dataclasses.dataclass(frozen=True)
class Action:
    """A request to change an engine's state. ``player`` is ``None`` for referee actions."""

    player: PlayerId | None


@dataclasses.dataclass(frozen=True)
class Effect:
    """Something that happened as the result of an accepted action."""


@dataclasses.dataclass(frozen=True)
class CardRef:
    """A physical card as effects name it: its index in the engine's ``config.cards`` and its name."""

    index: int
    name: str


class RulesError(ValueError):
    """An action is not allowed. Nothing was changed.

    ``code`` is a stable machine-readable reason (``"not_your_turn"``, ``"bid_too_high"``);
    ``details`` carries the structured values the bot needs to explain it to a player.
    """

    def __init__(self, code: str, **details: Any) -> None:
        self.code = code
        self.details = details
        super().__init__(f"{code}: {details!r}" if details else code)


class CheckpointRandom(random.Random):
    """The engines' generator, able to take back the draws of a refused action.

    :meth:`checkpoint` before an action, then :meth:`rollback` if it was refused or :meth:`release` if it
    was not. The generator's state (625 words) is copied only when a draw actually follows a checkpoint:
    most actions (a bid, a pass) draw nothing, and copying the state for each of them was a measurable
    part of a bid's acknowledgement. Draws are the standard generator's own, so a seed gives exactly the
    sequence :class:`random.Random` gives (old journals replay unchanged). Checkpoints nest.
    """

    def __init__(self, seed: Any = None) -> None:
        self._before: list[Any] = []  # per open checkpoint: the state before its first draw, or None
        super().__init__(seed)

    def checkpoint(self) -> None:
        self._before.append(None)

    def release(self) -> None:
        self._before.pop()

    def rollback(self) -> None:
        state = self._before.pop()
        if state is not None:
            super().setstate(state)

    def _first_draw(self) -> None:
        state = super().getstate()
        before = self._before
        for depth in range(len(before) - 1, -1, -1):  # the open checkpoints without a draw yet
            if before[depth] is not None:
                break
            before[depth] = state

    def random(self) -> float:
        if self._before and self._before[-1] is None:
            self._first_draw()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        if self._before and self._before[-1] is None:
            self._first_draw()
        return super().getrandbits(k)


ConfigT = TypeVar("ConfigT")


class Engine(ABC, Generic[ConfigT]):
    """Base class of every format engine.

    Subclasses set ``name`` (registry key), ``config_type`` (a frozen dataclass of options,
    JSON-serialisable through :func:`to_jsonable`) and ``action_types`` (every action class
    the engine accepts, so the journal can decode them).
    """

    name: ClassVar[str]
    config_type: ClassVar[type[Any]]
    action_types: ClassVar[tuple[type[Action], ...]]

    def __init__(self, config: ConfigT, *, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.rng = CheckpointRandom(seed)

    @abstractmethod
    def apply(self, action: Action) -> list[Effect]:
        """Check ``action`` and, if allowed, change the state; return what happened.

        Raises:
            RulesError: the action is not allowed now; the state is unchanged.
        """

    def check(self, action: Action) -> None:
        """Raise :class:`RulesError` if ``action`` would be refused, without changing anything.

        The default applies the action to a deep copy; engines may override with a cheaper check.
        """
        import copy

        copy.deepcopy(self).apply(action)

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """A JSON-serialisable view of the whole state, for ``!state``, tests and debugging."""

    def is_over(self) -> bool:
        """True once the game (or league) has ended."""
        return False

    def players_in(self) -> tuple[Any, ...] | None:
        """The players the rules still count in the game, in seat order (one who conceded, left, was dropped
        or lost is out: a game continued elsewhere, ``!resume``, seats only these); None where the format
        has no such notion (a league: its members come and go by its own rules)."""
        return None


ENGINES: dict[str, type[Engine[Any]]] = {}


def register(cls: type[Engine[Any]]) -> type[Engine[Any]]:
    """Class decorator: make an engine findable by :func:`find_engine`."""
    ENGINES[cls.name] = cls
    return cls


def find_engine(name: str) -> type[Engine[Any]]:
    """Return the engine class registered under ``name``, importing its format's module if it is one of
    the formats (:data:`~cockatrice_ext.formats.FORMAT_TITLES`): a name read from a file never imports
    anything else.

    Raises:
        KeyError: no such engine.
    """
    import importlib

    from cockatrice_ext.formats import FORMAT_TITLES

    if name not in ENGINES and name in FORMAT_TITLES:
        importlib.import_module(f"cockatrice_ext.formats.{name}")
    return ENGINES[name]


# ---------------------------------------------------------------------------
# JSON codec for actions, effects and configs (dataclasses of JSON-able fields)
# ---------------------------------------------------------------------------


_PLAIN = frozenset({int, str, float, bool, type(None)})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def to_jsonable(value: Any) -> Any:
    """Turn dataclasses, tuples, enums and dicts into plain JSON values.

    Dataclass instances become dicts with a ``"type"`` key naming their class. (Every journaled action
    goes through here: plain values return first, and each class's field names are looked up once.)
    """
    kind = type(value)
    if kind in _PLAIN:
        return value
    names = _FIELD_NAMES.get(kind)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELD_NAMES[kind] = tuple(field.name for field in dataclasses.fields(value))
    if names is not None:
        out: dict[str, Any] = {"type": kind.__name__}
        for name in names:
            out[name] = to_jsonable(getattr(value, name))
        return out
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if hasattr(value, "value") and hasattr(type(value), "__members__"):  # Enum
        return value.value
    return value


def from_jsonable(cls: type[Any], data: Any) -> Any:
    """Rebuild an instance of dataclass ``cls`` (or a plain type) from :func:`to_jsonable` output."""
    return _convert(cls, data)


def _convert(tp: Any, data: Any) -> Any:
    if data is None:
        return None
    origin = typing.get_origin(tp)
    if tp is Any:
        return data
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = typing.get_type_hints(tp)
        kwargs = {
            f.name: _convert(hints[f.name], data[f.name])
            for f in dataclasses.fields(tp)
            if f.init and f.name in data
        }
        return tp(**kwargs)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        for arg in args:
            if isinstance(arg, type) and not dataclasses.is_dataclass(arg) and isinstance(data, arg):
                return data
        for arg in args:
            try:
                return _convert(arg, data)
            except (TypeError, ValueError, KeyError):
                continue
        return data
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v) for v in data)
        return tuple(_convert(a, v) for a, v in zip(args, data, strict=False))
    if origin is list:
        (arg,) = typing.get_args(tp)
        return [_convert(arg, v) for v in data]
    if origin is dict:
        kt, vt = typing.get_args(tp)
        return {_convert(kt, k): _convert(vt, v) for k, v in data.items()}
    if isinstance(tp, type) and hasattr(tp, "__members__"):  # Enum
        return tp(data)
    if tp is int and isinstance(data, str) and data.lstrip("-").isdigit():
        return int(data)
    return data


def encode_action(action: Action) -> dict[str, Any]:
    """Serialise an action for the journal."""
    result: dict[str, Any] = to_jsonable(action)
    return result


def decode_action(engine_cls: type[Engine[Any]], data: dict[str, Any]) -> Action:
    """Rebuild an action journaled by :func:`encode_action`.

    Raises:
        KeyError: the engine has no action of that type.
    """
    by_name = {cls.__name__: cls for cls in engine_cls.action_types}
    action: Action = from_jsonable(by_name[data["type"]], data)
    return action
