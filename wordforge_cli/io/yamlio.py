"""Safe YAML reading that keeps line numbers, so every error can name its file and line.

Only the safe loader is used. Anchors and aliases are refused: no wfkit file needs them, and
refusing them is the one sure guard against alias bombs ("billion laughs"). A key given twice in
one mapping is refused with both lines (YAML loaders keep the last silently: ``count: 100``
then ``count: 3`` would build 3), and so is an integer too long for Python to convert.
"""

from __future__ import annotations

import re
from collections.abc import Callable
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
    """The pure-Python safe loader, refusing aliases as it composes (used when '&' appears);
    an anchor no alias uses is refused once the document is composed (``first_anchor``), so
    a file never holds a feature wfkit does not read."""

    first_anchor: int | None = None  # 1-based line of the first anchor

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        # PyYAML's stubs leave peek_event unannotated
        event: yaml.Event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            raise yaml.MarkedYAMLError(
                problem="YAML aliases (*name) are not allowed in wfkit files",
                problem_mark=event.start_mark,  # type: ignore[arg-type]  # C or Python mark
            )
        mark = event.start_mark
        if getattr(event, "anchor", None) is not None and self.first_anchor is None \
                and mark is not None:
            self.first_anchor = mark.line + 1
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


def read_text(path: str | Path, kind: str = "file", *, stdin: bool = False,
              before: Callable[[bytes], None] | None = None) -> str:
    """A file's text as UTF-8, or a one-line ConfigError naming what is wrong with it.

    Only a regular file of at most the cap of its ``kind`` is read (see :mod:`inputs`);
    ``stdin``: ``-`` is standard input; ``before`` checks the bytes before they are decoded
    (a refusal there never holds the text as well)."""
    from wordforge_cli.io.inputs import read_bytes

    path = Path(path)
    raw = read_bytes(path, kind, stdin=stdin)
    if before is not None:
        before(raw)
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
FLOAT_TAG = "tag:yaml.org,2002:float"
MERGE_TAG = "tag:yaml.org,2002:merge"
MAX_INT_DIGITS = 4000  # Python refuses to convert more than 4,300 digits
_INT_LIMIT = 10 ** MAX_INT_DIGITS  # in every base: 0xfff... has more decimal digits than hex
# the only kinds of value a wfkit file holds; a date, a set, binary, an ordered map or a tag
# of one's own is refused before it is built (a field would meet a date where it wants a number)
_PLAIN_TAGS = {f"tag:yaml.org,2002:{kind}"
               for kind in ("str", "int", "float", "bool", "null", "seq", "map")}
_TAG_WORDS = {"tag:yaml.org,2002:timestamp": "a date or time",
              "tag:yaml.org,2002:set": "a set (!!set)", "tag:yaml.org,2002:binary": "binary data",
              "tag:yaml.org,2002:omap": "an ordered map (!!omap)",
              "tag:yaml.org,2002:pairs": "a list of pairs (!!pairs)"}
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_DECIMAL = re.compile(r"[0-9]{1,18}")


def _scalar(node: yaml.ScalarNode) -> Any:
    """The value of a plain scalar, as the safe loader would build it."""
    if node.tag == INT_TAG:
        return _CONSTRUCTOR.construct_yaml_int(node)
    if node.tag == FLOAT_TAG:
        return _CONSTRUCTOR.construct_yaml_float(node)
    if node.tag == "tag:yaml.org,2002:bool":
        return _CONSTRUCTOR.construct_yaml_bool(node)
    if node.tag == "tag:yaml.org,2002:null":
        return None
    return node.value


def _key_identity(node: yaml.ScalarNode) -> tuple[str, Any]:
    """What a key means once read: ``7``, ``07``, ``0x7`` and ``"7"`` are one key, and so
    are ``yes`` and ``true`` (a reader that takes the last would silently keep one)."""
    if node.tag == "tag:yaml.org,2002:str":  # the common case, kept cheap
        text = node.value
        if text[:1].isdigit() and _DECIMAL.fullmatch(text):
            return ("number", int(text))
        return ("str", text)
    value = _scalar(node)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return ("number", value)
    return (type(value).__name__, value)


_SURROGATE = re.compile("[\ud800-\udfff]")


def check_nodes(node: yaml.Node | None, path: str | Path, *, surrogates: bool = False) -> None:
    """Refuse what the loader would resolve silently or crash on: a key given twice in one
    mapping (both lines named), an integer of more than 4,000 digits, and with ``surrogates``
    a string holding a lone surrogate (a ``"\\ud800"`` escape: the pure-Python loader takes
    it, libyaml refuses it, and no output can encode it). Iterative, so deep nesting costs
    no stack. Also refused: a merge key (``<<:``, which repeats keys unseen), keys that are
    one key once read (``7`` and ``07``), and any value that is not text, a number, a
    boolean, null, a list or a mapping (a date, a set, a tag)."""
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        line = current.start_mark.line + 1
        if current.tag not in _PLAIN_TAGS:
            what = _TAG_WORDS.get(current.tag, f"a value tagged {current.tag!r:.60}")
            raise ConfigError(f"{what} is not a value wfkit reads (quote it to make it text)",
                              path=path, line=line)
        if isinstance(current, yaml.MappingNode):
            first: dict[tuple[str, Any], int] = {}
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode):
                    line = key.start_mark.line + 1
                    if key.tag == MERGE_TAG:
                        raise ConfigError("YAML merge keys (<<:) are not allowed in wfkit "
                                          "files (write each key once)", path=path, line=line)
                    _check_int(key, path)
                    name = _key_identity(key)
                    if name in first:
                        raise ConfigError(f"'{key.value:.80}' is given twice (first on line "
                                          f"{first[name]}; a key may appear once)",
                                          path=path, line=line)
                    first[name] = line
                stack.append(value)
                stack.append(key)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
        elif current.tag == INT_TAG and isinstance(current, yaml.ScalarNode):
            _check_int(current, path)
        elif surrogates and isinstance(current.value, str) and _SURROGATE.search(current.value):
            raise ConfigError("YAML syntax error: found invalid Unicode character escape code",
                              path=path, line=current.start_mark.line + 1)


def _check_int(node: yaml.ScalarNode, path: str | Path) -> None:
    """An integer of at most 4,000 decimal digits' size, in whatever base it is written
    (Python converts hexadecimal of any length, then cannot print it)."""
    if node.tag != INT_TAG:
        return
    line = node.start_mark.line + 1
    if len(node.value) > MAX_INT_DIGITS:
        raise ConfigError(f"a number of {len(node.value):,} digits is too long "
                          f"(at most {MAX_INT_DIGITS:,})", path=path, line=line)
    try:
        value = _scalar(node)
    except ValueError:  # more than Python's own limit of digits
        value = _INT_LIMIT
    if abs(value) >= _INT_LIMIT:
        raise ConfigError(f"a number of more than {MAX_INT_DIGITS:,} digits is too long",
                          path=path, line=line)


def parse_yaml(text: str, path: str | Path = "<string>") -> YamlDoc:
    loader_cls = _NoAliasLoader if "&" in text else _FastLoader
    loader = None
    try:
        loader = loader_cls(text)  # the pure-Python reader checks characters right here
        node = loader.get_single_node()
        anchor = getattr(loader, "first_anchor", None)
        if anchor is not None:
            raise ConfigError("YAML syntax error: YAML anchors (&name) are not allowed in "
                              "wfkit files", path=path, line=anchor)
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
