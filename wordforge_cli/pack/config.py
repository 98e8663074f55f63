"""The pack config: a seed and a list of sections, each naming its kind and that kind's options.

Every value is checked before anything is written, and every error names the pack file and
line (unknown keys with a did-you-mean, a missing vocabulary file, a request that can never
succeed), so a CI job fails on the line to fix.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from wordforge_cli.batch.context import SectionSpec
from wordforge_cli.batch.kinds import Section, kind_names, prepare_section
from wordforge_cli.core.errors import ConfigError, one_line
from wordforge_cli.io.checks import check_mapping, did_you_mean, type_name
from wordforge_cli.io.yamlio import YamlDoc, marks_at_most, parse_yaml, read_text

TOP_KEYS = ("name", "description", "seed", "sections")
NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")  # fullmatch: "$" would allow "abc\n"


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


def load_pack_config(path: str | Path) -> PackConfig:
    """Parse and check the top level and every section's common keys (kinds check the rest)."""
    path = Path(path)
    text = read_text(path, "config", before=marks_at_most(path, what="a pack config"))
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
    name = data.get("name") or one_line(path.stem)  # (a file name: as messages show it)
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


def prepare_sections(config: PackConfig) -> list[Section]:
    """Check every section of the config and prepare it; nothing is written yet."""
    return [prepare_section(config, spec) for spec in config.specs]
