"""Safe YAML reading that keeps line numbers, so every error can name its file and line.

Only the safe loader is used. Anchors and aliases are refused: no wfkit file needs them, and
refusing them is the one sure guard against alias bombs ("billion laughs"). A key given twice in
one mapping is refused with both lines (YAML loaders keep the last silently: ``count: 100``
then ``count: 3`` would build 3), and so is an integer too long for Python to convert.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
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


STR_TAG = "tag:yaml.org,2002:str"
def text_lines(text: str) -> list[str]:
    """A file's lines as an editor numbers them: split at line feeds only (``splitlines``
    also splits at U+2028, U+0085, a form feed..., which would cut a word in two, hide the
    character from the line's checks and number every later line wrong), a CR before one
    dropped."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


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
    if node.tag == STR_TAG:  # the common case, kept cheap
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


@contextlib.contextmanager
def _yaml_errors(text: str, path: str | Path) -> Iterator[None]:
    """A YAML library error while reading ``text`` as one line naming ``path`` and a line."""
    try:
        yield
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


def parse_yaml(text: str, path: str | Path = "<string>") -> YamlDoc:
    loader_cls = _NoAliasLoader if "&" in text else _FastLoader
    loader = None
    try:
        with _yaml_errors(text, path):
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
    finally:
        if loader is not None:
            loader.dispose()
    return YamlDoc(str(path), data, node)


# what may begin a YAML value: every value but the first follows a line break or one of
# these indicators (a mapping and its first key may share one), so twice their count bounds
# the values a file holds, and the memory its tree of nodes takes (about 700 bytes a value)
MARKS = (b"\n", b",", b":", b"-", b"[", b"{", b"?")
MAX_CONFIG_MARKS = 100_000  # the bundled configs hold about 300


def marks_at_most(path: str | Path, limit: int = MAX_CONFIG_MARKS,
                  what: str = "a config") -> Callable[[bytes], None]:
    """A check for ``read_text``'s ``before``: a config whose line breaks and indicators
    are more than ``limit`` is refused before it is decoded or parsed (a 16 MiB config of
    a million keys took a gigabyte and 13 s before its first unknown key was refused)."""
    def check(raw: bytes) -> None:
        marks = sum(raw.count(mark) for mark in MARKS)
        if marks > limit:
            raise ConfigError(f"{what} with {marks:,} line breaks and YAML indicators (, : - "
                              f"[ {{ ?); at most {limit:,} are read (the bundled configs hold "
                              "a few hundred; memory grows with each value)", path=path)

    return check


def load_yaml(path: str | Path, kind: str = "config") -> YamlDoc:
    """A config, read whole into a tree of nodes (for its lines) once it is known to be of a
    config's size in values (:func:`marks_at_most`)."""
    return parse_yaml(read_text(path, kind, before=marks_at_most(path)), path)


# --- reading from the parser's events: a large file without a tree of nodes -----------------

_RESOLVER = yaml.resolver.Resolver()
_FIRSTS = frozenset(k for k in yaml.resolver.Resolver.yaml_implicit_resolvers if k)
_COLLECTION_TAGS: dict[type, str] = {yaml.SequenceStartEvent: "tag:yaml.org,2002:seq",
                                     yaml.MappingStartEvent: "tag:yaml.org,2002:map"}
_NO_KEY = object()  # a mapping waiting for its next key


@dataclass
class ValuesDoc(YamlDoc):
    """A YAML file read from its parser's events into plain values, never into a tree of
    nodes: a node costs about 700 bytes, and a vocabulary of a million words with hints
    took more than 2.4 GB and a minute to compose. ``item_lines``: the line of each item
    of the list the reader was asked to follow. Any other line is found again from the
    events when a message needs it (see :func:`_locate`)."""

    text: str = ""
    item_lines: list[int] = field(default_factory=list)
    # with ``pairs``: the top-level mapping's pairs as written, (key, key's line, value,
    # value's line), a key or value that is no scalar as None
    pairs: list[tuple[str | None, int, str | None, int]] = field(default_factory=list)

    def node_at(self, *keys: str | int) -> yaml.Node | None:
        return None  # (no nodes: lines come from the events)

    def line(self, *keys: str | int) -> int | None:
        return _locate(self.text, keys)

    def key_line(self, *keys: str | int) -> int | None:
        return _locate(self.text, keys, key=True) or self.line(*keys)


def _event_loader() -> Any:
    return _FastLoader  # (libyaml's parser when built in: events at C speed)


def _scalar_tag(event: Any) -> str:
    """The tag the safe loader gives a scalar: its own, else the one its plain text reads
    as (only text whose first character starts a number, a boolean, a null or a merge
    key is looked at)."""
    tag: str | None = event.tag
    if tag is None or tag == "!":
        value = event.value
        if event.implicit[0] and (not value or value[0] in _FIRSTS):
            resolved: str = _RESOLVER.resolve(  # type: ignore[no-untyped-call]  # (stubs)
                yaml.ScalarNode, value, event.implicit)
            return resolved
        return STR_TAG
    return tag


def _refused_tag(tag: str, path: str | Path, line: int) -> ConfigError:
    what = _TAG_WORDS.get(tag, f"a value tagged {tag!r:.60}")
    return ConfigError(f"{what} is not a value wfkit reads (quote it to make it text)",
                       path=path, line=line)


class _Frame:
    __slots__ = ("value", "line", "key", "seen", "lines")

    def __init__(self, value: dict[Any, Any] | list[Any], line: int,
                 lines: list[int] | None = None) -> None:
        self.value = value
        self.line = line
        self.key: Any = _NO_KEY
        self.seen: dict[tuple[str, Any], int] = {}
        self.lines = lines  # a followed list: each item's line


def load_values(text: str, path: str | Path, *, follow: str | None = None,
                pairs: bool = False) -> ValuesDoc:
    """``text`` read as :func:`parse_yaml` reads it (the same values and the same refusals:
    anchors, aliases, merge keys, a key given twice, tags, numbers over 4,000 digits, more
    than one document), from the parser's events: memory is the values, not a node per
    value. ``follow``: a top-level key whose list is kept as written (a scalar item as its
    text: a word list reads ``- yes`` as the word yes), each item's line in ``item_lines``.
    ``pairs``: a table's top-level mapping kept only as written, in ``pairs`` (``no: A1``
    is the word no), its values not built."""
    written: list[tuple[str | None, int, str | None, int]] = []
    with _yaml_errors(text, path):
        data, lines = _compose(text, path, follow, written if pairs else None)
    return ValuesDoc(str(path), data, None, text, lines, written)


def _compose(text: str, path: str | Path, follow: str | None,
             pairs: list[tuple[str | None, int, str | None, int]] | None,
             ) -> tuple[Any, list[int]]:
    stack: list[_Frame] = []
    item_lines: list[int] = []
    key_written: tuple[str | None, int] = (None, 0)
    root: Any = None
    documents = 0
    python_reader = _event_loader() is not getattr(yaml, "CSafeLoader", None)
    event: Any  # (the stubs type events loosely)
    for event in yaml.parse(text, Loader=_event_loader()):
        kind = type(event)
        if kind is yaml.AliasEvent:
            raise ConfigError("YAML syntax error: YAML aliases (*name) are not allowed in "
                              "wfkit files", path=path, line=event.start_mark.line + 1)
        if kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise ConfigError("YAML syntax error: but found another document", path=path,
                                  line=event.start_mark.line + 1)
            continue
        if kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
            done = stack.pop()
            value, line, scalar = done.value, done.line, None
        elif kind is yaml.ScalarEvent or kind in _COLLECTION_TAGS:
            line = event.start_mark.line + 1
            if event.anchor is not None:
                raise ConfigError("YAML syntax error: YAML anchors (&name) are not allowed "
                                  "in wfkit files", path=path, line=line)
            as_key = bool(stack) and isinstance(stack[-1].value, dict) \
                and stack[-1].key is _NO_KEY
            if kind is yaml.ScalarEvent:
                tag = _scalar_tag(event)
                if tag == MERGE_TAG and as_key:
                    raise ConfigError("YAML merge keys (<<:) are not allowed in wfkit files "
                                      "(write each key once)", path=path, line=line)
                if tag not in _PLAIN_TAGS:
                    raise _refused_tag(tag, path, line)
                raw = event.value
                if tag == STR_TAG:
                    value = raw
                    if python_reader and _SURROGATE.search(raw):
                        raise ConfigError("YAML syntax error: found invalid Unicode "
                                          "character escape code", path=path, line=line)
                else:
                    node = yaml.ScalarNode(tag, raw, event.start_mark, event.end_mark)
                    _check_int(node, path)
                    value = _scalar(node)
                scalar = (tag, raw)
            else:
                tag = event.tag if event.tag not in (None, "!") else _COLLECTION_TAGS[kind]
                if tag not in _PLAIN_TAGS:
                    raise _refused_tag(tag, path, line)
                followed = (follow is not None and kind is yaml.SequenceStartEvent
                            and len(stack) == 1 and stack[0].key == follow)
                stack.append(_Frame({} if kind is yaml.MappingStartEvent else [], line,
                                    item_lines if followed else None))
                continue
        else:
            continue  # stream and document ends: nothing to hold
        if not stack:
            root = value
            continue
        parent = stack[-1]
        if isinstance(parent.value, list):
            if parent.lines is not None:  # a followed list: its scalars as written
                parent.value.append(scalar[1] if scalar is not None else value)
                parent.lines.append(line)
            else:
                parent.value.append(value)
        elif parent.key is _NO_KEY:
            if scalar is None:  # a list or mapping as a key: not a key Python can hold
                raise ConfigError("YAML syntax error: found unhashable key", path=path,
                                  line=line)
            name = _key_identity(yaml.ScalarNode(scalar[0], scalar[1]))
            if name in parent.seen:
                raise ConfigError(f"'{scalar[1]:.80}' is given twice (first on line "
                                  f"{parent.seen[name]}; a key may appear once)",
                                  path=path, line=line)
            parent.seen[name] = line
            parent.key = value
            if pairs is not None and len(stack) == 1:
                key_written = (scalar[1], line)
        else:
            if pairs is not None and len(stack) == 1:  # kept as written, not built
                pairs.append((*key_written, scalar[1] if scalar is not None else None, line))
            else:
                parent.value[parent.key] = value
            parent.key = _NO_KEY
    return root, item_lines


def _locate(text: str, keys: tuple[str | int, ...], *, key: bool = False) -> int | None:
    """The 1-based line of the value at ``keys`` (or of its nearest parent there is), or
    with ``key`` of the mapping key ``keys[-1]`` itself (None when there is none), found by
    walking the parser's events again: a message needs it, memory holds no tree for it."""
    best: tuple[int, int] | None = None  # (how many keys matched, line)
    # frames: [path (None: inside a key), is a mapping, waiting for a key, the key, index]
    stack: list[list[Any]] = []

    def matches(found: tuple[Any, ...]) -> bool:
        return len(found) <= len(keys) and all(
            f == k if isinstance(f, int) else isinstance(k, str | int) and str(k) == f
            for f, k in zip(found, keys, strict=False))

    event: Any
    with contextlib.suppress(yaml.YAMLError, RecursionError):
        for event in yaml.parse(text, Loader=_event_loader()):
            kind = type(event)
            if kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
                stack.pop()
                continue
            if kind is not yaml.ScalarEvent and kind not in _COLLECTION_TAGS:
                continue
            line: int = event.start_mark.line + 1
            where: tuple[Any, ...] | None = ()
            if stack:
                top = stack[-1]
                if top[1] and top[2]:  # a mapping's key
                    if key and kind is yaml.ScalarEvent and top[0] is not None \
                            and len(top[0]) == len(keys) - 1 \
                            and matches((*top[0], event.value)):
                        return line
                    top[2] = False
                    top[3] = event.value if kind is yaml.ScalarEvent else None
                    where = None
                elif top[1]:
                    where = None if top[0] is None or top[3] is None else top[0] + (top[3],)
                    top[2] = True
                else:
                    where = None if top[0] is None else top[0] + (top[4],)
                    top[4] += 1
            if where is not None and matches(where) and (best is None or len(where) > best[0]):
                best = (len(where), line)
                if len(where) == len(keys) and not key:
                    return line
            if kind is not yaml.ScalarEvent:
                stack.append([where, kind is yaml.MappingStartEvent, True, None, 0])
    return None if key else (best[1] if best is not None else None)
