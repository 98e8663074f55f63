"""What a section reads its options through: its place in a config file (typed getters that
fail with file:line) and the keys and limits every section shares, whatever its kind."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, overload

import click

from wordforge_cli.core.errors import ConfigError, UsageError
from wordforge_cli.io.checks import type_name
from wordforge_cli.options.shared import REQUIRE_ALL
from wordforge_cli.options.spec import PACK, Field, Spec

if TYPE_CHECKING:
    from wordforge_cli.io.yamlio import YamlDoc
    from wordforge_cli.options.spec import Given

COMMON_KEYS = ("name", "kind", "count", "render", "render_limit", "require_all")
MAX_COUNT = 10**9  # items per section: 1.2 TB of boards; split bigger packs into sections
DEFAULT_RENDER_LIMIT = 12
# a section's count (for a kind whose engine has no count field) and render limit, read as an
# engine's options are
COMMON = Spec(Field("count", click.IntRange(0, MAX_COUNT)),
              Field("render_limit", click.IntRange(0, MAX_COUNT), DEFAULT_RENDER_LIMIT),
              REQUIRE_ALL)


class Source(Protocol):
    """The config file the sections are written in (a pack config)."""

    @property
    def doc(self) -> YamlDoc: ...

    @property
    def base_dir(self) -> Path: ...


@dataclass
class SectionSpec:
    """One section as written in the config, before its kind has prepared it."""

    index: int
    name: str
    kind: str
    data: dict[str, Any]


class SectionContext:
    """What a kind needs to read its options: typed getters that fail with file:line."""

    def __init__(self, config: Source, spec: SectionSpec):
        self.config = config
        self.spec = spec
        self.doc = config.doc
        self.keys: tuple[str | int, ...] = ("sections", spec.index)

    def error(self, message: str, key: str | None = None) -> ConfigError:
        where = (*self.keys, key) if key else self.keys
        return ConfigError(f"section '{self.spec.name}': {message}", path=self.doc.path,
                           line=self.doc.line(*where))

    @contextmanager
    def refusing(self, *, prefix: str = "", given: Given | None = None,
                 keys: dict[str, str] | None = None, fallback: str | None = None
                 ) -> Iterator[None]:
        """The engine's refusal of a field inside (``UsageError(msg, field=name)``) named where
        its value came from: the section's key as ``sections[i].key`` at its line (``keys``:
        the key that gives a field, a batch's ``band``), else the line of the user's config
        that gave it (``given``), else the ``fallback`` key or the section itself."""
        try:
            yield
        except UsageError as error:
            message = prefix + error.message
            key = (keys or {}).get(error.field or "", error.field)
            located = given(error, prefix) if given is not None else None
            if key is None or not self.has(key):
                if located is not None:
                    raise located from None
                key = fallback
            if key is None or not self.has(key):
                raise self.error(message) from None
            raise ConfigError(message, path=self.doc.path, line=self.doc.line(*self.keys, key),
                              field=f"sections[{self.spec.index}].{key}") from None

    def read(self, spec: Any) -> dict[str, Any]:
        """The section's values of a spec's fields (:meth:`wordforge_cli.options.spec.Spec.read`: an
        engine's, or the section's ``count`` by its engine's field), errors at the key's line
        as ``sections[i].key``."""
        index = self.spec.index
        values: dict[str, Any] = spec.read(self.spec.data, path=self.doc.path,
                                           line=lambda key: self.doc.line(*self.keys, key),
                                           label=lambda key: f"sections[{index}].{key}")
        for f in spec.on(PACK):  # files are named relative to the pack config
            if f.is_file and values.get(f.name) is not None:
                values[f.name] = self.path(f.config_key, what=f.what)
        return values

    def has(self, key: str) -> bool:
        return key in self.spec.data and self.spec.data[key] is not None

    def string(self, key: str, default: str | None = None) -> str | None:
        value = self.spec.data.get(key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise self.error(f"'{key}' must be a string, not {type_name(value)}", key)
        return value

    @overload
    def path(self, key: str, *, required: Literal[True], what: str = ...) -> Path: ...

    @overload
    def path(self, key: str, *, required: bool = ..., what: str = ...) -> Path | None: ...

    def path(self, key: str, *, required: bool = False, what: str = "file") -> Path | None:
        """A file named relative to the pack config; it must exist."""
        value = self.string(key)
        if value is None:
            if required:
                raise self.error(f"'{key}' is required")
            return None
        path = Path(value)
        if not path.is_absolute():
            path = self.config.base_dir / path
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            raise self.error(f"{what} not found: {value}", key) from None
        except OSError as exc:  # a name too long for the file system, a link loop, say
            raise self.error(f"{what} cannot be used: {exc.strerror}", key) from None
        if not stat.S_ISREG(mode):  # its true kind: never opened (a FIFO would block)
            from wordforge_cli.io.inputs import file_kind

            raise self.error(f"{what} is {file_kind(mode)}, not a regular file: {value}", key)
        return path
