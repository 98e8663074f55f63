"""Safe YAML reading that keeps line numbers, so every error can name its file and line.

Only the safe loader is used. Anchors and aliases are refused: no wfkit file needs them, and
refusing them is the one sure guard against alias bombs ("billion laughs").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from wordforge_cli.errors import ConfigError

try:  # libyaml is much faster on large vocabularies; fall back when it is not built in
    from yaml import CSafeLoader as _FastLoader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _FastLoader


class _NoAliasLoader(yaml.SafeLoader):
    """The pure-Python safe loader, refusing aliases as it composes (used when '&' appears)."""

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.MarkedYAMLError(
                problem="YAML aliases (*name) are not allowed in wfkit files",
                problem_mark=event.start_mark,
            )
        return super().compose_node(parent, index)


@dataclass
class YamlDoc:
    """A parsed YAML file: its data, and its node tree for line numbers."""

    path: str
    data: Any
    node: yaml.Node | None

    def node_at(self, *keys: str | int) -> yaml.Node | None:
        node = self.node
        for key in keys:
            if isinstance(node, yaml.MappingNode):
                node = next((v for k, v in node.value if k.value == str(key)), None)
            elif isinstance(node, yaml.SequenceNode) and isinstance(key, int):
                node = node.value[key] if 0 <= key < len(node.value) else None
            else:
                return node
            if node is None:
                return None
        return node

    def line(self, *keys: str | int) -> int | None:
        """1-based line of the value at ``keys`` (or of its nearest existing parent)."""
        node = self.node
        for depth in range(len(keys), -1, -1):
            node = self.node_at(*keys[:depth])
            if node is not None:
                break
        return node.start_mark.line + 1 if node is not None else None

    def key_line(self, *keys: str | int) -> int | None:
        """1-based line of the mapping key ``keys[-1]`` itself."""
        parent = self.node_at(*keys[:-1])
        if isinstance(parent, yaml.MappingNode):
            for k, _v in parent.value:
                if k.value == str(keys[-1]):
                    return k.start_mark.line + 1
        return self.line(*keys)

    def error(self, message: str, *keys: str | int) -> ConfigError:
        return ConfigError(message, path=self.path, line=self.line(*keys))


def read_text(path: str | Path) -> str:
    """A file's text as UTF-8, or a one-line ConfigError naming what is wrong with it."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError("no such file", path=path) from None
    except IsADirectoryError:
        raise ConfigError("is a directory, not a file", path=path) from None
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}", path=path) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
            path=path,
            line=line,
        ) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise ConfigError("contains a NUL character", path=path, line=line)
    return text


def parse_yaml(text: str, path: str | Path = "<string>") -> YamlDoc:
    loader_cls = _NoAliasLoader if "&" in text else _FastLoader
    loader = loader_cls(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise ConfigError(
            f"YAML syntax error: {problem}", path=path, line=mark.line + 1 if mark else None
        ) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"YAML error: {exc}".splitlines()[0], path=path) from None
    except RecursionError:
        raise ConfigError("YAML nested too deeply", path=path) from None
    finally:
        loader.dispose()
    return YamlDoc(str(path), data, node)


def load_yaml(path: str | Path) -> YamlDoc:
    return parse_yaml(read_text(path), path)
