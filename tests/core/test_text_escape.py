"""The one set of control characters and the one way to show them (``core/text.py``): every
member is escaped, nothing else is touched, the escape is valid JSON that reads back as what
it stands for, and the byte forms agree with the text form however the bytes are cut.
"""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from wordforge_cli.core.text import (
    CONTROLS,
    RANGES,
    ShownStream,
    one_line,
    shown,
    shown_utf8,
)

MEMBERS = [chr(c) for first, last in RANGES for c in range(first, last + 1)]
IN_SET = re.compile(f"[{CONTROLS}]")
NAMED = ["\x1b", "\x07", "\x00", "\x7f", "\x85", "\x9b", "\u2028", "\u2029", "\u202e",
         "\u2066", "\u200f", "\ud800", "\udcff", "\udfff"]

# text that leans on the set: its members, their neighbours, backslashes, kana, emoji
hostile_text = st.text(st.one_of(st.sampled_from(MEMBERS), st.sampled_from(
    ["\\", "x", "u", "a", "é", "キ", "語", "\u2027", "\u202f", "\u2065", "\u206a", "\ud7ff",
     "\ue000", "😀", " ", "\n"]), st.characters()), max_size=40)


def test_the_set_is_what_the_docs_name():
    for char in NAMED:
        assert IN_SET.fullmatch(char), repr(char)
    for char in ("a", " ", "é", "\u00a0", "\u2027", "\u202f", "\u2065", "\u206a", "キ",
                 "\ue000", "😀"):
        assert not IN_SET.fullmatch(char), repr(char)


def test_no_member_is_a_character_python_calls_printable():
    """The fast path: ``str.isprintable`` clearing a text proves it holds no member."""
    assert not [char for char in MEMBERS if char.isprintable()]


@given(hostile_text)
def test_one_line_leaves_no_member_and_shown_only_line_breaks(text):
    assert not IN_SET.search(one_line(text))
    assert not IN_SET.search(shown(text).replace("\n", ""))
    assert shown(text).count("\n") == text.count("\n")
    assert shown(shown(text)) == shown(text) and one_line(one_line(text)) == one_line(text)


@given(hostile_text)
def test_what_is_not_in_the_set_is_kept_as_it_is(text):
    outside = IN_SET.sub("", text.replace("\n", ""))
    assert shown(outside) == outside == one_line(outside)


def test_each_member_has_its_escape():
    assert one_line("\n\r\t\x1b\x07\x00") == "\\n\\r\\t\\x1b\\x07\\x00"
    assert one_line("\x7f\x85\u2028\u202e\ud800") == "\\u007f\\u0085\\u2028\\u202e\\ud800"
    assert shown("a\nb\x1bc") == "a\nb\\x1bc"


json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | hostile_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(hostile_text, inner,
                                                                max_size=4),
    max_leaves=12)


@given(json_value, st.sampled_from([None, 2]))
def test_json_shown_is_valid_json_of_the_same_value(value, indent):
    """JSON writers escape what is below U+0020; :func:`shown` turns the rest into ``\\uNNNN``,
    so a document still reads back as the very value (lossless), and holds no member raw."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    out = shown(text)
    assert json.loads(out) == value
    assert not IN_SET.search(out.replace("\n", ""))


@given(hostile_text.filter(lambda t: not re.search("[\ud800-\udfff]", t)))
def test_bytes_are_shown_as_their_text(text):
    data = text.encode()
    assert shown_utf8(data) == shown(text).encode()
    if not IN_SET.search(text.replace("\n", "")):
        assert shown_utf8(data) is data  # (nothing to escape: the very bytes)


@given(hostile_text.filter(lambda t: not re.search("[\ud800-\udfff]", t)),
       st.lists(st.integers(0, 200), max_size=6))
def test_bytes_cut_anywhere_are_shown_as_the_whole(text, cuts):
    data = text.encode()
    marks = sorted({min(c, len(data)) for c in cuts})
    pieces = [data[a:b] for a, b in zip([0, *marks], [*marks, len(data)], strict=True)]
    stream = ShownStream()
    assert b"".join(stream(p) for p in pieces) + stream.end() == shown_utf8(data)


def test_bytes_that_end_mid_character_are_shown_escaped():
    stream = ShownStream()
    assert stream(b"ab\xe2\x80") == b"ab" and stream.end() == b"\\udce2\\udc80"
    assert shown_utf8(b"x\xff\x1b") == b"x\\udcff\\x1b"  # (undecodable bytes beside a member)
