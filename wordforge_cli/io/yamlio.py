"""Safe YAML reading that keeps line numbers, so every error can name its file and line.

Only the safe loader is used. Anchors and aliases are refused: no wfkit file needs them, and
refusing them is the one sure guard against alias bombs ("billion laughs"). A key given twice in
one mapping is refused with both lines (YAML loaders keep the last silently: ``count: 100``
then ``count: 3`` would build 3), and so is an integer too long for Python to convert.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from wordforge_cli.core.errors import ConfigError

_FastLoader: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
try:  # libyaml is much faster on large vocabularies; fall back when it is not built in
    _FastLoader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _FastLoader = yaml.SafeLoader


class _NoAliasLoader(yaml.SafeLoader):
    """The pure-Python safe loader, refusing aliases as it composes (used when '&' appears)."""

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            # PyYAML's stubs leave peek_event unannotated
            event: yaml.Event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.MarkedYAMLError(
                problem="YAML aliases (*name) are not allowed in wfkit files",
                problem_mark=event.start_mark,  # type: ignore[arg-type]  # C or Python mark
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
                    line: int = k.start_mark.line + 1
                    return line
        return self.line(*keys)

    def error(self, message: str, *keys: str | int) -> ConfigError:
        return ConfigError(message, path=self.path, line=self.line(*keys))


def read_text(path: str | Path, kind: str = "file", *, stdin: bool = False) -> str:
    """A file's text as UTF-8, or a one-line ConfigError naming what is wrong with it.

    Only a regular file of at most the cap of its ``kind`` is read (see :mod:`inputs`);
    ``stdin``: ``-`` is standard input."""
    from wordforge_cli.io.inputs import read_bytes

    path = Path(path)
    raw = read_bytes(path, kind, stdin=stdin)
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


INT_TAG = "tag:yaml.org,2002:int"
MAX_INT_DIGITS = 4000  # Python refuses to convert more than 4,300 digits


_SURROGATE = re.compile("[\ud800-\udfff]")


def check_nodes(node: yaml.Node | None, path: str | Path, *, surrogates: bool = False) -> None:
    """Refuse what the loader would resolve silently or crash on: a key given twice in one
    mapping (both lines named), an integer of more than 4,000 digits, and with ``surrogates``
    a string holding a lone surrogate (a ``"\\ud800"`` escape: the pure-Python loader takes
    it, libyaml refuses it, and no output can encode it). Iterative, so deep nesting costs
    no stack."""
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.MappingNode):
            first: dict[tuple[str, str], int] = {}
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode):
                    line = key.start_mark.line + 1
                    name = (key.tag, key.value)
                    if name in first:
                        raise ConfigError(f"'{key.value}' is given twice (first on line "
                                          f"{first[name]}; a key may appear once)",
                                          path=path, line=line)
                    first[name] = line
                stack.append(value)
                stack.append(key)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
        elif current.tag == INT_TAG and len(current.value) > MAX_INT_DIGITS:
            raise ConfigError(f"a number of {len(current.value):,} digits is too long "
                              f"(at most {MAX_INT_DIGITS:,})", path=path,
                              line=current.start_mark.line + 1)
        elif surrogates and isinstance(current.value, str) and _SURROGATE.search(current.value):
            raise ConfigError("YAML syntax error: found invalid Unicode character escape code",
                              path=path, line=current.start_mark.line + 1)


def parse_yaml(text: str, path: str | Path = "<string>") -> YamlDoc:
    loader_cls = _NoAliasLoader if "&" in text else _FastLoader
    loader = None
    try:
        loader = loader_cls(text)  # the pure-Python reader checks characters right here
        node = loader.get_single_node()
        # only the pure-Python loader reads an escape into a lone surrogate
        check_nodes(node, path, surrogates=loader_cls is _NoAliasLoader
                    and ("\\u" in text or "\\U" in text))
        data = loader.construct_document(node) if node is not None else None
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1 if isinstance(exc.position, int) else None
        char = exc.character
        shown = f"U+{char:04X}" if isinstance(char, int) else repr(char)
        raise ConfigError(f"YAML syntax error: character {shown} is not allowed in YAML",
                          path=path, line=line) from None
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
        if loader is not None:
            loader.dispose()
    return YamlDoc(str(path), data, node)


def load_yaml(path: str | Path, kind: str = "config") -> YamlDoc:
    return parse_yaml(read_text(path, kind), path)
