"""The section kinds a pack can hold, one adapter per engine, imported only when used.

A kind turns a config section into a prepared :class:`Section` (checked, vocabulary loaded,
impossible requests refused) that a worker process can run: item ``i`` draws only from
``item_rng(seed, section_name, i)``, so it is the same whichever worker or shard makes it.
Statistics are exact (counts and histograms, no floats, no timings) so partial results merge
to the same summary in any grouping: that is what lets ``--jobs`` and shards give the same bytes.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from wordforge_cli.core.engine import Statistics

if TYPE_CHECKING:
    from wordforge_cli.batch.context import SectionContext, SectionSpec, Source
    from wordforge_cli.options.spec import Field

# kind -> "module:attribute" of a Kind object; modules are imported only when a pack uses them
KINDS: dict[str, str] = {
    "crossword": "wordforge_cli.batch.crossword:CROSSWORD",
    "endless": "wordforge_cli.batch.crossword:ENDLESS",
    "challenge": "wordforge_cli.batch.crossword:CHALLENGE",
    "kanji": "wordforge_cli.batch.kanji:KANJI",
    "rarity": "wordforge_cli.batch.rarity:RARITY",
    "balance": "wordforge_cli.batch.balance:BALANCE",
}
_LOADED: dict[str, Kind] = {}


def kind_names() -> list[str]:
    return sorted(KINDS)


def get_kind(name: str) -> Kind:
    if name not in _LOADED:
        module_name, attr = KINDS[name].split(":")
        _LOADED[name] = getattr(importlib.import_module(module_name), attr)
    return _LOADED[name]


@dataclass
class DataFile:
    """A data file a section reads: hashed into the manifest with its provenance and licence."""

    label: str
    path: Path
    source: str | None = None
    license: str | None = None
    provenance: str | None = None  # label of the note that documents it


def user_file(ctx: SectionContext, path: Path) -> DataFile:
    """A file of the user's (a vocabulary, a config): named relative to the pack config, with
    the ``source`` and ``license`` a YAML vocabulary may state."""
    label = Path(os.path.relpath(path, ctx.config.base_dir)).as_posix()
    source = license_ = None
    if path.suffix.lower() in (".yaml", ".yml"):
        from wordforge_cli.io.yamlio import load_yaml

        data = load_yaml(path).data
        if isinstance(data, dict):
            source = data.get("source") if isinstance(data.get("source"), str) else None
            license_ = data.get("license") if isinstance(data.get("license"), str) else None
    return DataFile(label, path, source, license_)


def bundled_file(folder: str, name: str, *, note: str | None = None) -> DataFile:
    """A file shipped with wfkit (``data/`` or ``configs/``), named the same on every machine.

    ``note``: the Markdown provenance note that covers it (default ``NAME.md`` beside it);
    its licence section becomes the entry's ``license``.
    """
    from wordforge_cli.io.paths import resource_dir

    path = resource_dir(folder) / name
    note_path = resource_dir(folder) / (note or f"{Path(name).stem}.md")
    if not note_path.is_file():
        return DataFile(f"wfkit:{folder}/{name}", path)
    return DataFile(f"wfkit:{folder}/{name}", path, license=licence_section(note_path),
                    provenance=f"wfkit:{folder}/{note_path.name}")


def licence_section(note: Path) -> str | None:
    """The text of a provenance note's licence section (a heading naming licence/license)."""
    lines = note.read_text(encoding="utf-8").splitlines()
    taken: list[str] = []
    inside = False
    for line in lines:
        if line.startswith("#"):
            if inside:
                break
            inside = bool(re.search(r"licen[cs]e", line, re.I))
            continue
        if inside and line.strip():
            taken.append(line.strip())
    return " ".join(taken) or None


@dataclass
class Item:
    """What one index of a section produced: its records (none when it failed; a challenge
    set has several), how many parts failed (and the engine's reason, for the command line's
    message), and what the engine's statistics count (``made``: boards, ratings; by default
    the records themselves)."""

    records: list[dict[str, Any]]
    failed: int = 0
    made: Any = None
    reason: str | None = None

    def count(self, stats: Statistics[Any]) -> None:
        """Feed the section's statistics (the engine's own class) with this item."""
        for thing in self.records if self.made is None else self.made:
            stats.add(thing)
        if self.failed:
            stats.fail(self.failed)


class Beside:
    """Two engine statistics of one section side by side (a batch's boards and their
    difficulty, its pools and their self-play): the :class:`Statistics` protocol over pairs
    of the arguments each part's ``add`` takes (None: nothing for the first part); failures
    are the first part's to count, the state has each part under its name and the summary
    is the first part's with the second's under ``key``."""

    def __init__(self, parts: dict[str, Statistics[Any]], key: str) -> None:
        self.parts = parts
        self.key = key
        self.first, self.second = parts.values()

    def add(self, made: tuple[tuple[Any, ...] | None, tuple[Any, ...]]) -> None:
        if made[0] is not None:
            self.first.add(*made[0])
        self.second.add(*made[1])

    def fail(self, count: int = 1) -> None:
        self.first.fail(count)

    def merge(self, other: Beside) -> Beside:
        for name, part in self.parts.items():
            part.merge(other.parts[name])
        return self

    def to_state(self) -> dict[str, Any]:
        return {name: part.to_state() for name, part in self.parts.items()}

    def summary(self) -> dict[str, Any]:
        return {**self.first.summary(), self.key: self.second.summary()}


@dataclass(eq=False)
class Section:
    """A prepared section: picklable, so worker processes can run it. An engine's section
    adds its own fields (keyword-only: ``@dataclass(eq=False, kw_only=True)``)."""

    kind: ClassVar[str] = ""
    name: str
    count: int
    render: tuple[str, ...]
    render_limit: int
    options: dict[str, Any]
    data: list[DataFile] = field(default_factory=list)  # the files it reads, for the manifest
    require_all: bool = False  # a missing item fails the build (the section key require_all)

    def make(self, seed: int, index: int) -> Item:  # pragma: no cover - abstract
        raise NotImplementedError

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        """Items ``start..stop-1`` (an engine with a batch iterator overrides this)."""
        for index in range(start, stop):
            yield self.make(seed, index)

    def render_item(self, fmt: str, record: dict[str, Any]) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def encode(self, record: dict[str, Any]) -> str:
        """One record as its JSON line (an engine whose records hold no floats may use the
        faster :func:`~wordforge_cli.io.output.dumps_plain`: the same bytes)."""
        from wordforge_cli.io.output import dumps

        return dumps(record)

    def lines(self, item: Item) -> list[bytes]:
        """The item's records as JSON lines in UTF-8 (a kind that can write them without
        building its records overrides this: the same bytes)."""
        return [self.encode(record).encode() for record in item.records]

    def new_stats(self) -> Statistics[Any]:  # pragma: no cover - abstract
        """The engine's statistics of this section, empty (its own class: every engine has
        one)."""
        raise NotImplementedError

    def stats_from_state(self, state: dict[str, Any]) -> Statistics[Any]:  # pragma: no cover
        raise NotImplementedError


@dataclass
class Kind:
    """How a config section of one kind becomes a :class:`Section`."""

    name: str
    keys: tuple[str, ...]
    renders: tuple[str, ...]
    prepare: Callable[[SectionContext, int, tuple[str, ...], int], Section]
    count_fixed: bool = False  # the section's size comes from its data (a rarity table)
    default_count: int | None = None
    count: Field | None = None  # the engine's count field: its range and message
    # the preview page (pack/preview.py): the kind draws its own records and statistics
    draw: Callable[[str, dict[str, Any]], str] | None = None  # (section, record) -> figure
    # (kind, stats) -> (svg, caption) charts of the section's statistics
    charts: Callable[[str, dict[str, Any]], list[tuple[str, str]]] | None = None
    legend: Callable[[], str] | None = None  # what the drawn figures' colours mean
    # what one record is, in the game's words ("5 pools"); ``group``: what ``count``
    # counts when it is not records (a challenge's sets of boards: "5 sets of 10 boards")
    noun: str = "record"
    group: str | None = None


def prepare_section(config: Source, spec: SectionSpec) -> Section:
    """Check one section written in ``config`` and prepare it; nothing is written yet."""
    from wordforge_cli.batch.context import COMMON, COMMON_KEYS, SectionContext
    from wordforge_cli.io.checks import check_mapping
    from wordforge_cli.options.spec import Spec

    kind = get_kind(spec.kind)
    ctx = SectionContext(config, spec)
    check_mapping(config.doc, spec.data, COMMON_KEYS + kind.keys, *ctx.keys)
    if kind.count_fixed and ctx.has("count"):
        raise ctx.error(f"a {kind.name} section has no 'count' (its size is its data)", "count")
    if not (kind.count_fixed or ctx.has("count") or kind.default_count is not None):
        raise ctx.error("'count' is required")
    own = Spec(kind.count or COMMON["count"], COMMON["render_limit"],  # the engine's count limit
               COMMON["require_all"])
    values = own.resolve(ctx.read(own))
    count = values[own.fields[0].name] if ctx.has("count") else kind.default_count or 0
    render = [] if spec.data.get("render") is None else spec.data["render"]
    if isinstance(render, str):
        render = [render]
    if not isinstance(render, list) or not all(isinstance(r, str) for r in render):
        raise ctx.error("'render' must be a list of formats", "render")
    for fmt in render:
        if fmt not in kind.renders:
            raise ctx.error(f"a {kind.name} section cannot render '{fmt}' (it can: "
                            f"{', '.join(kind.renders) or 'nothing'})", "render")
    section = kind.prepare(ctx, count, tuple(dict.fromkeys(render)), values["render_limit"])
    section.require_all = values["require_all"]
    return section
