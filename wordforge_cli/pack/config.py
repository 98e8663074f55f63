"""The pack config: a seed and a list of sections, each naming its kind and that kind's options.

Every value is checked before anything is written, and every error names the pack file and
line (unknown keys with a did-you-mean, a missing vocabulary file, a request that can never
succeed), so a CI job fails on the line to fix.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

import click

from wordforge_cli.config import check_mapping, did_you_mean, type_name
from wordforge_cli.errors import ConfigError, UsageError
from wordforge_cli.spec import PACK, Field, Spec
from wordforge_cli.yamlio import YamlDoc, parse_yaml, read_text

if TYPE_CHECKING:
    from wordforge_cli.spec import Given

TOP_KEYS = ("name", "description", "seed", "sections")
COMMON_KEYS = ("name", "kind", "count", "render", "render_limit")
NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")  # fullmatch: "$" would allow "abc\n"
MAX_COUNT = 10**9  # items per section: 1.2 TB of boards; split bigger packs into sections
DEFAULT_RENDER_LIMIT = 12
# a section's count (for a kind whose engine has no count field) and render limit, read as an
# engine's options are
COMMON = Spec(Field("count", click.IntRange(0, MAX_COUNT)),
              Field("render_limit", click.IntRange(0, MAX_COUNT), DEFAULT_RENDER_LIMIT))


@dataclass
class SectionSpec:
    """One section as written in the config, before its kind has prepared it."""

    index: int
    name: str
    kind: str
    data: dict[str, Any]


@dataclass
class PackConfig:
    path: Path
    sha256: str
    name: str
    description: str | None
    seed: int
    doc: YamlDoc
    specs: list[SectionSpec] = field(default_factory=list)

    @property
    def base_dir(self) -> Path:
        return self.path.parent


class SectionContext:
    """What a kind needs to read its options: typed getters that fail with file:line."""

    def __init__(self, config: PackConfig, spec: SectionSpec):
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
        """The section's values of a spec's fields (:meth:`wordforge_cli.spec.Spec.read`: an
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
            found = path.is_file()
        except OSError as exc:  # a name too long for the file system, say
            raise self.error(f"{what} cannot be used: {exc.strerror}", key) from None
        if not found:
            raise self.error(f"{what} not found: {value}", key)
        return path


def load_pack_config(path: str | Path) -> PackConfig:
    """Parse and check the top level and every section's common keys (kinds check the rest)."""
    path = Path(path)
    text = read_text(path)
    doc = parse_yaml(text, path)
    if doc.data is None:
        raise ConfigError("the pack config is empty", path=path)
    data = check_mapping(doc, doc.data, TOP_KEYS)
    seed = data.get("seed")
    if "seed" not in data:
        raise ConfigError("the pack config has no 'seed' (one seed makes the whole pack "
                          "reproducible)", path=path, line=1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise doc.error(f"'seed' must be a whole number from 0 to 2**63-1, not {seed!r}", "seed")
    name = data.get("name") or path.stem
    if not isinstance(name, str):
        raise doc.error(f"'name' must be a string, not {type_name(name)}", "name")
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        raise doc.error(f"'description' must be a string, not {type_name(description)}",
                        "description")
    sections = data.get("sections")
    if not isinstance(sections, list) or not sections:
        raise doc.error("'sections' must be a non-empty list of sections", "sections")
    config = PackConfig(path, hashlib.sha256(text.encode("utf-8")).hexdigest(), name,
                        description, seed, doc)
    seen: dict[str, int] = {}
    from wordforge_cli.pack.kinds import kind_names

    for index, section in enumerate(sections):
        keys = ("sections", index)
        if not isinstance(section, dict):
            raise doc.error(f"a section must be a mapping, not {type_name(section)}", *keys)
        kind = section.get("kind")
        if kind is None:
            raise doc.error("section has no 'kind' (one of " + ", ".join(kind_names()) + ")",
                            *keys)
        if not isinstance(kind, str) or kind not in kind_names():
            raise doc.error(f"unknown section kind {kind!r}{did_you_mean(str(kind), kind_names())}"
                            f" (kinds: {', '.join(kind_names())})", *keys, "kind")
        sname = section.get("name")
        if not isinstance(sname, str) or not NAME_RE.fullmatch(sname):
            where = (*keys, "name") if "name" in section else keys
            raise doc.error("section 'name' must be lower-case letters, digits, '-' or '_' "
                            f"(it names the section's files), not {sname!r}", *where)
        if sname in seen:
            raise doc.error(f"section name '{sname}' is used twice", *keys, "name")
        seen[sname] = index
        config.specs.append(SectionSpec(index, sname, kind, section))
    return config
