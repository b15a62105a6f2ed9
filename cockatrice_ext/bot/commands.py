"""The one chat-command grammar every referee uses.

Theory of operation
-------------------
A command is a chat line starting with ``!``: ``!bid 4``, ``!pick "Fire // Ice"``,
``!buy Serra Angel with Bear, Elf``. :func:`parse_invocation` splits it into a lower-cased
name and the raw argument text; :class:`CommandSet` owns the commands of one referee
(declared with :func:`command` on methods) and converts the arguments to the handler's
annotated parameter types:

* ``int`` - one whole-number token; ``Range(lo, hi)`` in ``Annotated`` bounds it,
* ``str`` - one token (quotes group words),
* :data:`Rest` - the rest of the line, verbatim (card names with spaces and commas),
* ``Literal["new", "rules"]`` - one of these words, in any case (given to the handler in lower case); as
  the first parameter it is a *sub-command*, and another word is refused as an unknown command is, with
  the closest sub-command suggested (:func:`unknown_command_reason`, :func:`closest`),
* ``X | None`` - optional, may be omitted at the end.

Conversion failures raise :class:`BadArgument` with a one-line reason including the usage,
which the bot sends back to the player. The scope decides how strict one grammar is: in a **public** scope
(room chat, :data:`PUBLIC_SCOPES`, where people talk to each other and ``!lfg`` or ``!roll 1d20`` is meant
for someone else) words after a command that takes none are ignored (``!games please``), and an unknown
``!word`` is answered only when it is a close typo of a command (:func:`unknown_reply`). The one suggestion
rule (:func:`closest`) reads a word players use for a command (``!fold``, ``!raise``: :data:`SYNONYMS`) before
spelling, and a known command with a number glued to it (``!bid3``) is that command with the number
(:meth:`CommandSet.resolve`, where the command takes arguments). A line may name
the bot it is for (``RefereeBot: !games``, ``@RefereeBot !help``, ``!games @RefereeBot``:
:func:`split_address`); the address only selects who answers, never who asked. Handlers raise
:class:`CommandError` subclasses for any other refusal; the engines' ``RulesError`` is translated by each
referee.

This module has no I/O: handlers are ``async`` only so referees can await the client.
"""

from __future__ import annotations

import difflib
import inspect
import re
import shlex
import types
import typing
import unicodedata
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NewType

PREFIX = "!"
MAX_COMMAND_LENGTH = 400
"""Longer chat lines are refused before any parsing (untrusted input)."""

Rest = NewType("Rest", str)
"""Annotation: the rest of the line, verbatim (may contain spaces, commas, quotes)."""


@dataclass(frozen=True)
class Range:
    """``Annotated[int, Range(1, 999)]``: an inclusive bound checked during conversion."""

    low: int
    high: int


class CommandError(Exception):
    """A command was refused; ``reason`` is one short line meant for the player.

    ``render``, when given, words the refusal again as its answer leaves the chat queue (a refusal that
    describes the server, such as which games hold the slots, waits for the chat budget like any answer and
    must be true when read); ``reason`` is the wording at the time of the refusal. A renderer never raises.
    """

    def __init__(self, reason: str, *, render: Callable[[], str] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.render = render


class UnknownCommand(CommandError):
    """No such command in this context."""


class BadArgument(CommandError):
    """The arguments do not fit the command's parameters."""


class NotAllowed(CommandError):
    """The sender may not use this command (spectator, not seated, not a member...)."""


@dataclass(frozen=True)
class Invocation:
    name: str
    args: str


PUBLIC_SCOPES = frozenset({"room"})
"""Scopes where people talk to each other, not only to the bot: unknown words are not answered there unless
they misspell a command (:func:`unknown_reply`), and a command that takes no arguments ignores the words after
it (:meth:`CommandSpec.convert`). In game chat and private messages players talk to the bot: everything is
answered."""


_SPACE = re.compile(r"\s")
_HEAD = re.compile(r"(\S+)\s*(.*)", re.DOTALL)


def _visible(text: str) -> str:
    """``text`` without invisible format characters (any ``Cf`` character), every kind of white space (a
    non-breaking space, a tab) made a plain space."""
    if not text.isascii():
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return _SPACE.sub(" ", text)


def parse_invocation(text: str, *, prefix: str = PREFIX) -> Invocation | None:
    """Return the command in a chat line, or ``None`` if the line is not a command.

    Forgiving as players type: invisible characters are dropped, a full-width ``！`` is ``!``, any white
    space separates the name (``!pick``, a tab or a non-breaking space, ``1``) and a space may follow the
    ``!`` (``! pick 1``).

    Raises:
        BadArgument: the line is a command but longer than :data:`MAX_COMMAND_LENGTH`.
    """
    stripped = _visible(text).strip()
    if stripped[:1] and unicodedata.normalize("NFKC", stripped[0]) == prefix and stripped[0] != prefix:
        stripped = prefix + stripped[1:]
    if not stripped.startswith(prefix) or len(stripped) <= len(prefix):
        return None
    if len(stripped) > MAX_COMMAND_LENGTH:
        raise BadArgument(f"command too long (max {MAX_COMMAND_LENGTH} characters)")
    head = _HEAD.fullmatch(stripped[len(prefix) :].lstrip())
    if head is None:
        return None
    name = unicodedata.normalize("NFKC", head.group(1)).lower()
    if not name or not all(c.isalnum() or c in "-_" for c in name):
        return None
    return Invocation(name=name, args=head.group(2).strip())


def looks_like_command(text: str) -> bool:
    """Whether ``text`` is said as a command, well formed or not (never raises)."""
    try:
        return parse_invocation(text) is not None
    except CommandError:
        return True


def invocation_or_none(text: str) -> Invocation | None:
    """``text``'s command when it is a well-formed one, else None (never raises)."""
    try:
        return parse_invocation(text)
    except CommandError:
        return None


_QUOTING = re.compile(r"[\"'\\]")
"""Characters the shell-like lexer treats specially (quotes and the escape)."""
_WORD = re.compile(r"[^ \t\r\n]+")
"""A word as the lexer splits them (its white space is exactly these four characters)."""


def split_args(text: str) -> list[str]:
    """Split on white space, with double or single quotes grouping words.

    Unbalanced quotes are treated as literal characters rather than an error, because
    card names contain apostrophes ("Gorgon's Head").
    """
    if not _QUOTING.search(text):  # the common case (``!bid 12``): the same words, without the lexer
        return _WORD.findall(text)
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:
        return text.split()


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "int" | "str" | "rest" | "choice"
    optional: bool
    bounds: Range | None = None
    choices: tuple[str, ...] = ()
    """The words a ``Literal`` parameter takes (kind ``choice``)."""

    @property
    def usage(self) -> str:
        if self.kind == "choice":
            label = "|".join(self.choices)
        else:
            label = self.name.upper() + ("..." if self.kind == "rest" else "")
        return f"[{label}]" if self.optional else label


Handler = Callable[..., Awaitable[None]]


@dataclass
class CommandSpec:
    """One declared command: its names, parameters, help and handler."""

    name: str
    handler: Handler
    params: tuple[Param, ...]
    aliases: tuple[str, ...] = ()
    help: str = ""
    scopes: frozenset[str] = frozenset({"game"})
    final: bool = False
    """It cannot be undone (``!concede``): never offered as the correction of a typo (:func:`closest`)."""

    @property
    def described(self) -> str:
        """What ``!help NAME`` answers, in every scope: the usage and the one-line description (a docstring
        that starts with its own usage is both)."""
        return self.help if self.own_usage else f"{self.usage}: {self.help}"

    @property
    def subcommands(self) -> tuple[str, ...]:
        """The words the first argument must be (``new``, ``commander``, ``rules``), or () for any."""
        return self.params[0].choices if self.params else ()

    @property
    def usage(self) -> str:
        """``!bid AMOUNT``; a docstring that starts with its own usage (``!auction new [PLAYERS]: ...``)
        gives that instead, for commands whose first argument is a sub-command or whose words the players
        know by other names (``!place N SLOT``)."""
        if self.own_usage:
            return self.help.split(": ", 1)[0]
        return " ".join([PREFIX + self.name, *(p.usage for p in self.params)])

    @property
    def own_usage(self) -> bool:
        return self.help.startswith(PREFIX + self.name) and ": " in self.help

    @property
    def full_usage(self) -> str:
        """The usage, then the sub-commands it does not show: ``!auction new|commander [OPTS] | rules``."""
        shown = self.usage.split(" ")[1].split("|") if " " in self.usage else []
        others = [word for word in self.subcommands if word not in shown]
        return " | ".join([self.usage, *others])

    def _check_subcommand(self, token: str) -> None:
        """Refuse a first word that is none of the sub-commands, suggesting the closest.

        Raises:
            BadArgument: as an unknown command is answered, with this command's usage.
        """
        if not self.subcommands or token.lower() in self.subcommands:
            return
        said = " ".join(token.split())[:40]
        raise BadArgument(
            unknown_command_reason(said, list(self.subcommands), command=self.name, usage=self.full_usage)
        )

    def _missing(self, param: Param) -> BadArgument:
        """What a missing argument is called: the usage alone when the docstring gives it (a parameter's
        own name, ``CARD_SLOT``, means nothing to a player)."""
        if self.own_usage:
            return BadArgument(f"usage: {self.usage}")
        return BadArgument(f"missing {param.name.upper()}; usage: {self.usage}")

    def convert(self, args: str, scope: str = "game") -> list[Any]:
        """Turn the argument text into handler arguments; in a public ``scope`` (:data:`PUBLIC_SCOPES`) a
        command that takes no arguments ignores the words after it (``!games please``).

        Raises:
            BadArgument: missing, extra or malformed arguments.
        """
        values: list[Any] = []
        rest = args
        for index, param in enumerate(self.params):
            if param.kind == "rest":
                if not rest.strip() and not param.optional:
                    raise self._missing(param)
                values.append(rest.strip() or None)
                rest = ""
                break
            tokens = split_args(rest)
            if not tokens:
                if param.optional:
                    values.extend(None for _ in self.params[index:])
                    return values
                raise self._missing(param)
            token = tokens[0]
            if index == 0:
                self._check_subcommand(token)
            rest = _after_first_token(rest)
            values.append(self._convert_token(param, token))
        if rest.strip() and not (scope in PUBLIC_SCOPES and not self.params):
            raise BadArgument(f"too many arguments; usage: {self.usage}")
        return values

    def _convert_token(self, param: Param, token: str) -> Any:
        if param.kind == "str":
            return token
        if param.kind == "choice":  # a sub-command (the first parameter) was checked already
            if token.lower() in param.choices:
                return token.lower()
            raise BadArgument(f"{param.name.replace('_', ' ')} must be one of {', '.join(param.choices)}")
        # A command with its own usage names the argument in words ("spell slot", not SPELL_SLOT).
        label = param.name.replace("_", " ") if self.own_usage else param.name.upper()
        try:
            number = int(token)
        except ValueError:
            raise BadArgument(f"{label} must be a whole number, not {token[:20]!r}") from None
        if param.bounds and not param.bounds.low <= number <= param.bounds.high:
            raise BadArgument(f"{label} must be between {param.bounds.low} and {param.bounds.high}")
        return number


def _after_first_token(text: str) -> str:
    """The text after the first (possibly quoted) token."""
    stripped = text.lstrip()
    if stripped[:1] in ("'", '"'):
        closing = stripped.find(stripped[0], 1)
        if closing != -1:
            return stripped[closing + 1 :]
    _, _, remainder = stripped.partition(" ")
    return remainder


def command(
    name: str | None = None,
    *,
    aliases: tuple[str, ...] = (),
    scopes: tuple[str, ...] = ("game",),
    final: bool = False,
) -> Callable[[Handler], Handler]:
    """Declare a method ``async def handler(self, ctx, ...)`` as a chat command.

    ``scopes`` says where it may be used: ``"game"`` (game chat), ``"room"`` (room chat),
    ``"private"`` (private messages). The first line of the docstring is its help text. ``final``: it cannot
    be undone (``!concede``), so no typo is ever answered with it (:meth:`CommandSet.suggestable`).
    Aliases are never suggested either: they are listed in no help.
    """

    def decorate(func: Handler) -> Handler:
        func.__command__ = {  # type: ignore[attr-defined]
            "name": (name or func.__name__).lower(),
            "aliases": tuple(a.lower() for a in aliases),
            "scopes": frozenset(scopes),
            "final": final,
        }
        return func

    return decorate


def _params_of(func: Handler) -> tuple[Param, ...]:
    hints = typing.get_type_hints(func, include_extras=True)
    params: list[Param] = []
    signature = inspect.signature(func)
    for pname in list(signature.parameters)[2:]:  # skip self, ctx
        hint = hints.get(pname, str)
        optional = False
        origin = typing.get_origin(hint)
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(hint) if a is not type(None)]
            optional = len(args) < len(typing.get_args(hint))
            hint = args[0]
        bounds = None
        if typing.get_origin(hint) is Annotated:
            base, *extras = typing.get_args(hint)
            bounds = next((e for e in extras if isinstance(e, Range)), None)
            hint = base
        choices: tuple[str, ...] = ()
        if hint is Rest:
            kind = "rest"
        elif hint is int:
            kind = "int"
        elif typing.get_origin(hint) is Literal:
            kind, choices = "choice", tuple(str(word).lower() for word in typing.get_args(hint))
        else:
            kind = "str"
        params.append(Param(pname, kind, optional, bounds, choices))
    return tuple(params)


@dataclass
class CommandSet:
    """The commands declared on one object (a referee), looked up by name or alias."""

    owner: object
    specs: dict[str, CommandSpec] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for attr in dir(type(self.owner)):
            func = getattr(type(self.owner), attr, None)
            meta = getattr(func, "__command__", None)
            if meta is None or func is None:
                continue
            bound = getattr(self.owner, attr)
            doc = inspect.getdoc(func) or ""
            spec = CommandSpec(
                name=meta["name"],
                handler=bound,
                params=_params_of(func),
                aliases=meta["aliases"],
                help=" ".join(doc.split("\n\n", 1)[0].split()),  # the first paragraph, however wrapped
                scopes=meta["scopes"],
                final=meta.get("final", False),
            )
            for key in (spec.name, *spec.aliases):
                self.specs[key] = spec

    def _in_scope(self, name: str, scope: str) -> CommandSpec | None:
        spec = self.specs.get(name)
        if spec is None or scope not in spec.scopes:
            return None
        return spec

    def resolve(self, invocation: Invocation, scope: str) -> tuple[CommandSpec, Invocation] | None:
        """The command ``invocation`` names in ``scope`` and the invocation as it runs, or None: the one
        reading of a command's name. A known name with digits glued to it (``!bid3``, ``!b3``: a missed space)
        is that command with the number as its first argument (``!bid 3``), when the command takes
        arguments other than a sub-command; a name of its own always wins."""
        spec = self._in_scope(invocation.name, scope)
        if spec is not None:
            return spec, invocation
        glued = _GLUED_NUMBER.fullmatch(invocation.name)
        if glued is None:
            return None
        name, number = glued.groups()
        spec = self._in_scope(name, scope)
        if spec is None or not spec.params or spec.subcommands:
            return None
        return spec, Invocation(name=name, args=f"{number} {invocation.args}".rstrip())

    def find(self, name: str, scope: str) -> CommandSpec | None:
        """The command ``name`` (an alias, or a command with a number glued to it: :meth:`resolve`) in
        ``scope``, or None."""
        found = self.resolve(Invocation(name=name, args=""), scope)
        return found[0] if found is not None else None

    def listing(self, scope: str) -> list[CommandSpec]:
        """Distinct commands usable in ``scope``, sorted by name (for ``!help``)."""
        seen: dict[str, CommandSpec] = {}
        for spec in self.specs.values():
            if scope in spec.scopes:
                seen[spec.name] = spec
        return [seen[k] for k in sorted(seen)]

    def names(self, scope: str) -> list[str]:
        """Every name and alias usable in ``scope``."""
        return sorted(name for name, spec in self.specs.items() if scope in spec.scopes)

    def suggestable(self, scope: str) -> list[str]:
        """The names a typo in ``scope`` may be answered with: the commands' own names (an alias is listed in
        no help), except those that cannot be undone (``final``: a ``!cancel`` answered with ``!concede``
        would lose a game)."""
        return [spec.name for spec in self.listing(scope) if not spec.final]

    def described(self, name: str, scope: str) -> str | None:
        """``!help NAME``'s answer for the command ``name`` (or an alias) of ``scope``, or None."""
        spec = self.find(name, scope)
        return spec.described if spec is not None else None

    async def invoke(self, ctx: Any, invocation: Invocation, scope: str) -> bool:
        """Run the command if this set has it for ``scope``; return whether it did.

        Raises:
            CommandError: the handler or the argument conversion refused it.
        """
        found = self.resolve(invocation, scope)
        if found is None:
            return False
        spec, invocation = found
        values = spec.convert(invocation.args, scope)
        await spec.handler(ctx, *values)
        return True


_GLUED_NUMBER = re.compile(r"(.*[^0-9])([0-9]+)")
"""A command's name with a number glued to it (``bid3``): the name, the number."""

SYNONYMS: dict[str, tuple[str, ...]] = {
    "fold": ("pass",),
    "decline": ("pass",),
    "skip": ("pass",),
    "no": ("pass",),
    "raise": ("bid",),
    "bet": ("bid",),
    "take": ("keep", "pick"),
    "choose": ("pick",),
    "select": ("pick",),
    "draft": ("pick",),
    "play": ("summon", "cast"),
    "attack": ("fight",),
    "purchase": ("buy",),
    "reroll": ("roll",),
    "finish": ("done",),
    "info": ("state", "score", "status"),
    "money": ("gold", "treasures"),
    "options": ("rules",),
    "settings": ("rules",),
    "commands": ("help",),
    "create": ("new",),
    "start": ("new",),
}
"""Words players say for a command, as other games and tables name it (``!fold`` for ``!pass``), each with
the commands it may mean, the likeliest first; :func:`closest` suggests the first one the scope has (a command
that cannot be undone is never among them: :meth:`CommandSet.suggestable`), else none. Only ever a
suggestion: nothing is run on a synonym's word."""


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known word ``word`` most likely means, or None: the one suggestion rule of the grammar (commands
    and sub-commands alike). A word players use for a command (:data:`SYNONYMS`, a number glued to it or not:
    ``!raise5``) is answered with the first of its commands that is ``known``, or with nothing: it is a word
    said on purpose, and its spelling's neighbours mislead (``!fold`` is no ``!gold``, ``!draft`` no
    ``!draw``). Any other word gets the closest spelling."""
    known = list(known)
    word = word.lower()
    if word in known:
        return word
    meant = SYNONYMS.get(word) or SYNONYMS.get(word.rstrip("0123456789"))
    if meant is not None:
        return next((target for target in meant if target in known), None)
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return close[0] if close else None


def unknown_command_reason(name: str, known: list[str], *, command: str = "", usage: str = "") -> str:
    """The one line every scope answers an unknown ``!name`` with (a close match is suggested).

    A sub-command (``!auction nwe``) is answered alike: ``command`` is its command (``auction``), ``known``
    the sub-commands, and ``usage`` the command's usage, which takes the place of the pointer to ``!help``.
    """
    said = f"{PREFIX}{command} " if command else PREFIX
    close = closest(name, known)
    hint = f"did you mean {said}{close}? " if close else ""
    tail = f"usage: {usage}" if usage else f"{PREFIX}help lists the commands"
    return f"unknown command {said}{name}; {hint}{tail}"


def help_topic(args: str) -> str:
    """The command ``!help ARGS`` asks about, lower-cased without its ``!`` (``!help !Bid`` -> ``bid``), or ""
    for a bare ``!help``. The one reading of a help topic in every scope."""
    words = args.split()
    return words[0].removeprefix(PREFIX).lower() if words else ""


def elsewhere_reason(name: str, where: str) -> str:
    """The answer to a command said in the wrong place: ``!cancel is a room command: say it in the room``."""
    return f"{PREFIX}{name} is a {where} command: say it in the {where}"


def unknown_reply(name: str, known: list[str], scope: str) -> str | None:
    """The answer to an unknown ``!name`` in ``scope`` (:func:`unknown_command_reason`), or None when the
    scope stays silent: in a public scope (:data:`PUBLIC_SCOPES`) only a close typo or a synonym of one of its
    commands (:func:`closest`) is answered; ``!lfg``, ``!roll 1d20`` or ``!GG`` there are meant for other
    people."""
    if scope in PUBLIC_SCOPES and closest(name, known) is None:
        return None
    return unknown_command_reason(name, known)


_LEADING_ADDRESS = re.compile(r"@?([^\s:,@!]+)\s*[:,]\s*(\S.*)|@([^\s:,@!]+)\s+(\S.*)", re.DOTALL)
"""``NAME: !cmd``, ``NAME, !cmd``, ``@NAME: !cmd``, ``@NAME !cmd`` (the command checked by the caller)."""
_TRAILING_ADDRESS = re.compile(r"(.*\S)\s+@([^\s:,@!]+)[\s.!?]*", re.DOTALL)
"""``!cmd ARGS @NAME``."""


def split_address(text: str) -> tuple[str | None, str]:
    """The name a command line is addressed to and the command without it, or ``(None, text)``: ``NAME:
    !games``, ``NAME, !games``, ``@NAME !help``, ``!games @NAME`` (read through invisible characters and
    any spacing, as :func:`parse_invocation` reads). A line that is no command once the address is taken off
    (``ok, thanks``) is returned as it is. The name is as typed: compare it folded (the bot's
    ``players_named``). Only for scopes where no command takes a user's name as its last word (the room)."""
    visible = _visible(text).strip()
    for pattern, groups in ((_LEADING_ADDRESS, ((1, 2), (3, 4))), (_TRAILING_ADDRESS, ((2, 1),))):
        match = pattern.fullmatch(visible)
        if match is None:
            continue
        for name_group, rest_group in groups:
            name, rest = match.group(name_group), match.group(rest_group)
            name = name.rstrip(".?") if name else name  # "!games @RefereeBot." ends a sentence
            if not name or rest is None:
                continue
            try:
                if parse_invocation(rest) is not None:
                    return name, rest
            except BadArgument:
                return name, rest
    return None, text
