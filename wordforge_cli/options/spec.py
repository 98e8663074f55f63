"""One declaration per option: the command line, ``--config`` and pack sections read it alike.

Each engine declares its options once, as :class:`Field` objects collected in a :class:`Spec`
(``crossword/config.py``, ``kanji/config.py``, ``words.py``). From that one
declaration come

(a) the Click options of the command (:meth:`Spec.options`),
(b) the ``--config`` reader (:func:`read_options`, read by :func:`config_callback`): values
    are parsed with the field's own Click type and put into ``ctx.default_map`` (black's
    pattern), and every key is checked against the spec's keys first (pip-tools' pattern,
    ``config.check_mapping``): an unknown key is one line ``FILE:LINE: unknown key 'x' (did
    you mean 'y'?)``;
(c) the pack section reader (:meth:`Spec.read` again, with the section's keys), so a limit or
    a default is written once and the three front ends accept and refuse the same values with
    the same message (``tests/options/test_parity.py`` checks every field of every spec).

Errors carry the field as data, never parsed from text: ``UsageError(msg, field="bring")``
prints as ``--bring: msg`` on the command line, ``FILE:LINE: bring: msg`` in a config file
and ``FILE:LINE: sections[3].bring: msg`` in a pack (``batch.context.SectionContext``).
The engine's own refusal of a value its reader took (a band no word has) is named where that
value came from, by the field it names (:meth:`Spec.options`, :meth:`Options.given`,
``SectionContext.refused``).

How to add an option
--------------------
1. Add one :class:`Field` to the engine's spec, next to its request dataclass, e.g. in
   ``crossword/config.py``::

       Field("max_width", click.IntRange(3, 200), None, "Widest board, in cells.")

   ``name`` is the request field / Click parameter name and, unless ``key`` says otherwise,
   the key in ``--config`` files and pack sections; the flag is ``--max-width`` unless
   ``flags`` says otherwise. A boolean is ``click.BOOL`` (``--x`` is_flag, or
   ``flags=("--x/--no-x",)``). ``fronts`` says where it may be given (default: all three).
2. Use the value: the command gets it as a keyword argument; a pack section gets it in the
   dict :meth:`Spec.read` returns (and in its manifest ``options``); pass it to the engine.
3. Run ``python -m wordforge_cli.docs`` (the docs' command and configuration references) and
   the tests: the parity test exercises the new field on all three front ends without another line.
A value that must be checked against the data (a band no word fits) is the engine's to refuse
(``check_request``): raise ``UsageError(msg, field="name")`` there, not in a front end.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from wordforge_cli.core.errors import ConfigError, UsageError, WfkitError

if TYPE_CHECKING:
    from wordforge_cli.io.yamlio import YamlDoc

    ParamType = click.ParamType[Any, Any]
else:  # Click before 8.2 has no type parameters
    ParamType = click.ParamType

CLI, CONFIG, PACK = "cli", "config", "pack"
ALL_FRONTS = frozenset((CLI, CONFIG, PACK))
CONFIG_META = "wfkit.config"  # ctx.meta: the command's --config, read (config_callback)
GIVEN_META = "wfkit.config.given"  # ctx.meta: where the user's --config gave each value
F = Callable[..., Any]
Given = Callable[[WfkitError, str], ConfigError | None]  # see Options.given


@dataclass(frozen=True)
class Field:
    """One option of an engine, declared once for every front end."""

    name: str
    type: ParamType
    default: Any = None
    help: str = ""
    flags: tuple[str, ...] = ()  # command-line declarations; default ("--name-with-dashes",)
    key: str | None = None  # key in --config files and pack sections; default: name
    fronts: frozenset[str] = ALL_FRONTS
    show_default: bool = True
    metavar: str | None = None
    what: str = "file"  # a file field (click.Path): what it is, for "... not found" messages
    multiple: bool = False  # given once per value (``--player A --player B``; a YAML list)

    @property
    def is_file(self) -> bool:
        """A file named by the user: a pack section names it relative to the pack config."""
        return isinstance(self.type, click.Path)

    @property
    def config_key(self) -> str:
        return self.key or self.name

    @property
    def decls(self) -> tuple[str, ...]:
        return self.flags or (f"--{self.name.replace('_', '-')}",)

    @property
    def flag(self) -> str:
        """The long option a user types (``--min-len``), for messages."""
        return next(p for d in self.decls for p in d.split("/") if p.startswith("--"))

    def option(self) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """The Click option of this field."""
        kwargs: dict[str, Any] = {"default": self.default, "help": self.help,
                                  "show_default": self.show_default, "metavar": self.metavar}
        if self.type is not click.BOOL:
            kwargs["type"] = self.type
        elif not any("/" in d for d in self.decls):
            kwargs["is_flag"] = True
        if self.multiple:
            kwargs.update(multiple=True, default=self.default or ())
        return click.option(*self.decls, self.name, **kwargs)

    def convert(self, value: Any) -> Any:
        """A value from a YAML file, parsed as the command line would parse its text.

        A scalar is given to the Click type as the text a user would type (``true`` for a
        YAML boolean), so ``budget: 5000000`` and ``--budget 5000000`` meet the same check
        and message; a list goes to types that take one (a band, a style list) as is; a field
        given once per value takes one value or a list of them (a tuple)."""
        if self.multiple:
            items = value if isinstance(value, list) else [value]
            return tuple(replace(self, multiple=False).convert(v) for v in items)
        if value is None:  # (Spec.read takes a null key as "the default" before this)
            raise click.BadParameter(f"expected {_type_words(self.type)}, not empty")
        if isinstance(value, bool) and self.type is not click.BOOL:
            value = "true" if value else "false"
        elif isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        elif isinstance(value, list | dict) and not getattr(self.type, "takes_lists", False):
            kind = "a list" if isinstance(value, list) else "a mapping"
            raise click.BadParameter(f"expected {_type_words(self.type)}, not {kind}")
        return self.type.convert(value, None, None)


def _type_words(t: ParamType) -> str:
    if isinstance(t, click.Choice):
        return "one of " + ", ".join(map(str, t.choices))
    if isinstance(t, click.types.IntParamType):  # IntRange too
        return "a whole number"
    return "a number" if isinstance(t, click.types.FloatParamType) else f"a {t.name}"


class Spec:
    """The options of one engine (or one form of it: batch, endless, challenge)."""

    def __init__(self, *fields: Field):
        self.fields: tuple[Field, ...] = fields
        self._by_key = {f.config_key: f for f in fields}
        self._by_name = {f.name: f for f in fields}

    def __add__(self, other: Spec) -> Spec:
        return Spec(*self.fields, *other.fields)

    def __iter__(self) -> Iterator[Field]:
        return iter(self.fields)

    def __getitem__(self, name: str) -> Field:
        return self._by_name[name]

    def find(self, name: str | None) -> Field | None:
        """The field an error names (by its name or its key), if it is one of these."""
        return self._by_name.get(name or "") or self._by_key.get(name or "")

    def on(self, front: str) -> list[Field]:
        return [f for f in self.fields if front in f.fronts]

    def keys(self, front: str) -> tuple[str, ...]:
        return tuple(f.config_key for f in self.on(front))

    def resolve(self, *layers: Mapping[str, Any]) -> dict[str, Any]:
        """Every field's default parsed by its type (a field given once per value: a tuple),
        then each layer's values over them in order (a config, its preset, a section); a None
        value brings back the field's default."""
        defaults: dict[str, Any] = {}
        for f in self.fields:
            if f.multiple:
                defaults[f.name] = tuple(f.default or ())
            elif f.default is not None and f.type is not click.BOOL:
                defaults[f.name] = f.type.convert(f.default, None, None)
            else:
                defaults[f.name] = f.default
        out = dict(defaults)
        for layer in layers:
            for name, value in layer.items():
                if name in out:
                    out[name] = defaults[name] if value is None else value
        return out

    def parse(self, name: str, text: str) -> Any:
        """``text`` parsed as the command line parses field ``name``'s value (one value of a
        field given once per value); UsageError with the type's message when it refuses
        (what a sweep's values are checked by: the option's own check and words)."""
        try:
            return self[name].type.convert(text, None, None)
        except click.BadParameter as exc:
            raise UsageError(exc.message) from None

    def options(self) -> Callable[[F], F]:
        """A decorator adding the command-line fields as Click options, in spec order; the
        command's engine refusals of one of these fields (``UsageError(msg, field=...)``)
        are named where the value came from: the ``--config`` file's line when the user's
        config (or its preset) gave it (:func:`config_callback`), else the field's flag
        (``--min-len: msg``, ``--player: msg``)."""

        def decorate(func: F) -> F:
            @functools.wraps(func)
            def command(*args: Any, **kwargs: Any) -> Any:
                try:
                    return func(*args, **kwargs)
                except UsageError as error:
                    f = self.find(error.field) if error.path is None else None
                    if f is None:
                        raise
                    ctx = click.get_current_context()
                    given: Given | None = ctx.meta.get(GIVEN_META)
                    source = ctx.get_parameter_source(f.name)
                    located = given(error, "") if given is not None and (
                        source is click.core.ParameterSource.DEFAULT_MAP) else None
                    raise located or UsageError(f"{f.flag}: {error.message}") from None

            decorated: F = command
            for f in reversed(self.on(CLI)):
                decorated = f.option()(decorated)
            return decorated

        return decorate

    def read(self, data: Mapping[str, Any], *, path: str | None = None,
             line: Callable[[str], int | None] = lambda key: None,
             label: Callable[[str], str] = lambda key: key) -> dict[str, Any]:
        """Parse the values a file gives (``--config`` or a pack section): ``name -> value``.

        Its keys are the spec's ones for its front end (:meth:`keys`) and keys the caller
        reads itself (skipped here): the file's reader refused any other one first, with a
        did-you-mean (``config.check_mapping``). ``line(key)`` and ``label(key)``
        say where a key is and how to name it (``sections[3].budget``) in messages. A null
        value is kept as None: "the default" (see :meth:`resolve`), also over a value a lower
        layer gave."""
        out: dict[str, Any] = {}
        for key, value in data.items():
            key = str(key)
            f = self._by_key.get(key)
            if f is None:  # a key the caller reads itself
                continue
            if value is None:
                out[f.name] = None
                continue
            try:
                out[f.name] = f.convert(value)
            except click.BadParameter as exc:
                raise ConfigError(exc.message, path=path, line=line(key),
                                  field=label(key)) from None
        return out


def config_callback(load: Callable[[str | None], Any], *, after: tuple[str, ...] = ()
                    ) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """The eager ``--config`` callback (black's pattern): ``load(path)`` reads the config
    (None: the bundled one) into ``ctx.meta[CONFIG_META]``, and its :meth:`Options.values` become
    ``ctx.default_map`` (also for the group's subcommands, for the fields they have), with
    where a user's config gave them (:meth:`Options.given`, for :meth:`Spec.options`).
    ``after``: the other eager parameters the values depend on (kanji's ``preset``), each
    with this callback too: the config is read once all are known."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        from wordforge_cli.core.messages import ReportedError

        known: dict[str | None, Any] = ctx.meta.setdefault(f"{CONFIG_META}.params", {})
        known[param.name] = value
        if len(known) <= len(after) or not set(after) <= known.keys():
            return value
        path = next(v for k, v in known.items() if k not in after)
        chosen = [known[name] for name in after]
        try:
            cfg = load(path)
            values = cfg.values(*chosen)
        except WfkitError as error:
            raise ReportedError(error) from None
        ctx.meta[CONFIG_META] = cfg
        ctx.meta[GIVEN_META] = cfg.given(*chosen)

        configured = {f.name for f in cfg.spec.on(CONFIG)}

        def own(command: click.Command) -> dict[str, Any]:
            # a command's values written as a user would type them (so --help shows them so;
            # Click parses them again with the same types); only the config's own fields: one
            # it has no key for keeps the command's own default (endless's count of 10 is not
            # the batch's count of 1, though both are named count)
            return {p.name: getattr(p.type, "to_text", lambda v: v)(values[p.name])
                    for p in command.params
                    if p.name in configured and values.get(p.name) is not None}

        ctx.default_map = own(ctx.command)
        if isinstance(ctx.command, click.Group):
            ctx.default_map.update((name, own(sub)) for name, sub in ctx.command.commands.items())
        return value

    return callback


@dataclass
class Options:
    """A difficulty config's option values (``--config``, a pack section's ``config``): the
    top level's, each preset's (over the top level's) and the default preset; ``user``: a file
    the user named."""

    doc: YamlDoc
    spec: Spec
    user: bool
    options: dict[str, Any]
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    preset: str | None = None

    def values(self, preset: str | None = None) -> dict[str, Any]:
        """Every field's value: ``preset``'s (None: the config's default preset) over the
        top level's over the field's default; UsageError(field="preset") for an unknown one."""
        from wordforge_cli.io.checks import did_you_mean

        preset = preset or self.preset
        if preset is not None and preset not in self.presets:
            raise UsageError(f"unknown preset '{preset}'{did_you_mean(preset, self.presets)} "
                             f"(presets: {', '.join(self.presets) or 'none'})", field="preset")
        return self.spec.resolve(self.options, self.presets[preset] if preset else {})

    def given(self, preset: str | None = None) -> Given | None:
        """Where the user's file gave the values of ``preset`` (see :meth:`values`), so that
        the engine's later refusal of a value it took (``UsageError(msg, field="min_len")``)
        names that file and line as the reader's own errors do (``FILE:LINE: min_len: msg``):
        ``given(error, prefix)`` is ``error`` at the line that gave its field, or None when the
        file did not give it. None for the bundled file (its lines are not the user's to fix)."""
        name = preset or self.preset or ""
        layers = (((), self.options), (("presets", name), self.presets.get(name, {})))

        def refusal(error: WfkitError, prefix: str) -> ConfigError | None:
            at = next((at for at, values in reversed(layers) if error.field in values), None)
            if at is None or error.field is None:  # (a preset wins over the top level)
                return None
            key = self.spec[error.field].config_key
            return ConfigError(prefix + error.message, path=self.doc.path,
                               line=self.doc.line(*at, key), field=key)

        return refusal if self.user else None


def read_options(path: str | Path | None, bundled: str, spec: Spec, own: tuple[str, ...] = (),
                 *, presets: bool = False) -> tuple[Options, dict[Any, Any]]:
    """Read and check a difficulty config (``path``; None: the bundled ``configs/BUNDLED.yaml``):
    the spec's keys at the top level and, with ``presets``, in every preset (unknown keys and
    presets caught with file:line); ``own``: keys the caller reads itself from the data."""
    from wordforge_cli.io import checks as files
    from wordforge_cli.io.yamlio import load_yaml

    own += ("preset", "presets") if presets else ()
    file = path or files.bundled_config(bundled)
    doc = load_yaml(file, "config")
    if doc.data is None:
        raise ConfigError("file is empty", path=file)
    data = files.check_mapping(doc, doc.data, spec.keys(CONFIG) + own)
    cfg = Options(doc, spec, path is not None,
                  spec.read(data, path=doc.path, line=doc.line))
    raw = data.get("presets") or {} if presets else {}
    files.check_mapping(doc, raw, map(str, raw) if isinstance(raw, dict) else (), "presets")
    for name, values in raw.items():
        where = ("presets", str(name))
        files.check_mapping(doc, values or {}, spec.keys(CONFIG), *where)
        cfg.presets[str(name)] = spec.read(values or {}, path=doc.path,
                                           line=functools.partial(doc.line, *where))
    preset = cfg.preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise doc.error(f"'preset' must be a preset name, not {files.type_name(preset)}", "preset")
    if preset is not None and preset not in cfg.presets:
        raise doc.error(f"unknown preset '{preset}'{files.did_you_mean(preset, cfg.presets)}",
                        "preset")
    return cfg, data


class Choice(click.Choice):  # type: ignore[type-arg]  # generic from Click 8.2 only (>=8.1)
    """Click's Choice, with a did-you-mean when the value is close to one of the choices."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            from wordforge_cli.io.checks import did_you_mean

            hint = did_you_mean(str(value), [str(c) for c in self.choices])
            if not hint:
                raise
            self.fail(exc.message.rstrip(".") + hint, param, ctx)


class FiniteFloat(click.types.FloatParamType):
    """click.FLOAT without nan and inf: Click's float types take both (and a range passes
    nan, every comparison with it being false), which no zipf or share can mean."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


class Count(click.IntRange):
    """click.IntRange from ``min`` with a ceiling of ``digits`` digits: a question number or
    an offset the user types (``--start``), refused with one line when it is longer than any
    run could reach (Python cannot even print a number of 4,301 digits). The help text is
    the range's own (``x>=0``)."""

    def __init__(self, min: int = 0, digits: int = 18):
        super().__init__(min)
        self.digits = digits

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        text = value.strip().lstrip("+") if isinstance(value, str) else None
        if text is not None and len(text) > self.digits and text.isdigit():
            self.fail(f"a number of {len(text):,} digits is too large (at most "
                      f"{self.digits} digits)", param, ctx)
        number = super().convert(value, param, ctx)
        if number >= 10 ** self.digits:
            self.fail(f"too large (at most {self.digits} digits)", param, ctx)
        return number


class FiniteRange(FiniteFloat, click.FloatRange):
    """click.FloatRange without nan (the range's own check comes first: ``super()`` is
    FloatRange's)."""


@dataclass(frozen=True)
class Pair(ParamType):
    """``LOW-HIGH``, one number (``N`` = ``N-N``), or a YAML ``[low, high]``; low <= high."""

    low: int = 1
    ordered: bool = True  # False: the engine checks low <= high (a band's message is its own)
    name: str = field(default="LOW-HIGH", init=False)
    takes_lists: bool = field(default=True, init=False)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[int, int]:
        # (a YAML number came as its text: Field.convert)
        pair: list[Any] | None = None
        if isinstance(value, list) and len(value) == 2:
            pair = value
        elif isinstance(value, str):
            m = re.fullmatch(r"\s*(\d{1,9})\s*(?:-\s*(\d{1,9})\s*)?", value)  # no huge ints
            if m:
                pair = [int(m.group(1)), int(m.group(2) or m.group(1))]
        if pair is None or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair):
            self.fail(f"expected LOW-HIGH (e.g. 30-50), one number or [low, high], "
                      f"not {value!r}", param, ctx)
        lo, hi = pair
        if lo < self.low or (self.ordered and lo > hi):
            self.fail(f"{lo}-{hi}: need {self.low} <= low <= high", param, ctx)
        return (lo, hi)

    def to_text(self, band: tuple[int, int]) -> str:
        """A band written back as the command line's text (a ``default_map`` value)."""
        return f"{band[0]}-{band[1]}"


@dataclass(frozen=True)
class Names(ParamType):
    """``all`` or a comma list (or a YAML list) of names out of ``choices``; a tuple."""

    choices: tuple[str, ...]
    what: str = "name"
    name: str = field(default="NAMES", init=False)
    takes_lists: bool = field(default=True, init=False)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[str, ...]:
        if value == "all":
            items: list[Any] = list(self.choices)
        elif isinstance(value, str):
            items = [s.strip() for s in value.split(",") if s.strip()]
        elif isinstance(value, list):
            items = value
        else:
            items = []
        bad = [s for s in items if s not in self.choices]
        if bad or not items:
            self.fail(f"unknown {self.what} {bad[0] if bad else value!r} (all, or a comma list of "
                      f"{', '.join(self.choices)})", param, ctx)
        return tuple(items)

    def to_text(self, names: tuple[str, ...]) -> str:
        """Names written back as a comma list, ``all`` for every one (a ``default_map`` value)."""
        return "all" if names == self.choices else ",".join(names)


@dataclass(frozen=True)
class Parsed(ParamType):
    """A value the engine itself parses from text (a player model: ``greedy@3``, ``C2``);
    the engine's ``ValueError`` is the message on every front end."""

    parse: Callable[[str], Any]
    name: str = "TEXT"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if not isinstance(value, str):  # parsed already (a default from a config)
            return value
        try:
            return self.parse(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


MAX_SWEEP_VALUES = 50  # rows of one sweep: each is a whole batch of games


@dataclass(frozen=True)
class Sweep(ParamType):
    """``KEY=V1,V2,...``: one setting and the values a sweep plays it at, as texts
    ``(key, (v1, v2, ...))``; the engine knows its keys and checks each value as the option
    (or file) that sets it would."""

    name: str = field(default="KEY=V1,V2,...", init=False)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[str, tuple[str, ...]]:
        if isinstance(value, tuple):  # parsed already
            return value
        key, eq, rest = str(value).partition("=")
        key = key.strip()
        values = tuple(v.strip() for v in rest.split(","))
        if not eq or not key:
            self.fail(f"expected KEY=V1,V2,... (e.g. turns=5,10,20), not {value!r}", param, ctx)
        if not all(values):
            self.fail(f"an empty value in {value!r} (values are separated by commas)", param,
                      ctx)
        if len(values) > MAX_SWEEP_VALUES:
            self.fail(f"{len(values)} values; at most {MAX_SWEEP_VALUES} (each is a whole "
                      "batch)", param, ctx)
        twice = next((v for i, v in enumerate(values) if v in values[:i]), None)
        if twice is not None:
            self.fail(f"the value {twice!r} is given twice", param, ctx)
        return key, values
