"""A vocabulary's YAML is read from the parser's events (``yamlio.load_values``), never into a
tree of nodes: the same values as the node reader (``parse_yaml``) and the same refusals
(anchors, aliases, merge keys, a key given twice or once read the same, tags, dates, sets,
numbers over 4,000 digits, a second document, syntax errors), with the same line; and the
line of any value or key is found again from the events when a message needs it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordforge_cli.core.errors import ConfigError
from wordforge_cli.io.yamlio import load_values, parse_yaml

SCALARS = ["cat", "'quoted'", '"dq \\x41"', "yes", "no", "~", "", "12", "0x1f", "0o17", "07",
           "1.5", ".nan", "-.inf", "2001-12-14", "!!str 5", "!!int '7'", "!!set {a}",
           "!mine x", "&a 3", "*a", "'9' ", "9" * 4001, "0x" + "f" * 3990, "<<", "=",
           "!!binary aGVsbG8=", "a: b", "[a, b]", "{a: 1}", "- x", "te{x", "\"unclosed"]
KEYS = ["a", "b", "7", "07", "'7'", "0x7", "yes", "true", "<<", "[k]", "? x", "a"]


def block(depth: int) -> st.SearchStrategy[str]:
    """A YAML document of mappings and lists, indented, with crafted scalars and keys."""
    leaf = st.sampled_from(SCALARS)
    if depth == 0:
        return leaf
    inner = block(depth - 1)

    def mapping(pairs: list[tuple[str, str]]) -> str:
        return "\n".join(f"{k}: {v}" if "\n" not in v else f"{k}:\n" + indent(v)
                         for k, v in pairs)

    def sequence(items: list[str]) -> str:
        return "\n".join(f"- {v}" if "\n" not in v else "-\n" + indent(v) for v in items)

    return st.one_of(leaf,
                     st.lists(st.tuples(st.sampled_from(KEYS), inner), min_size=1,
                              max_size=4).map(mapping),
                     st.lists(inner, min_size=1, max_size=4).map(sequence))


def indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def outcome(read, text: str):
    try:
        doc = read(text, "f.yaml")
    except ConfigError as error:
        return ("refused", str(error))
    return ("read", repr(doc.data))


@settings(max_examples=400, deadline=None)
@given(block(3), st.sampled_from(["", "---\n", "--- \n", "x: 1\n---\ny: 2\n#"]))
def test_the_event_reader_reads_and_refuses_as_the_node_reader(text, around):
    """The same values, or both refuse (a document with two problems may be refused for
    either: the events meet them in the file's order)."""
    text = around.replace("#", text) if "#" in around else around + text
    events, nodes = outcome(load_values, text), outcome(parse_yaml, text)
    assert events[0] == nodes[0], (text, events, nodes)
    if events[0] == "read":
        assert events == nodes, text
    else:
        assert events[1].startswith("f.yaml:") and events[1].count("\n") == 0, events


@pytest.mark.parametrize("text", [
    "a: 1\nb: &x 2\n", "a: 1\n<<: {b: 2}\n", "a: 1\nb: 2\na: 3\n",
    "l:\n  7: a\n  07: b\n", "l:\n  '7': a\n  0x7: b\n", "yes: 1\ntrue: 2\n",
    "d: 2001-12-14\n", "s: !!set {a, b}\n", "b: !!binary aGVsbG8=\n", "m: !mine 3\n",
    "o: !!omap [a: 1]\n", "n: " + "9" * 4001 + "\n", "n: 0x" + "f" * 3990 + "\n",
    "a: 1\n---\nb: 2\n", "a: [1, 2\n", "a: 'x\n", "a:\n- b\n c: d\n", "[a]: 1\n",
    "{a: 1}: 2\n", "v: =\n", "a: 1\nb:\n  - x\n  - {c: 1, c: 2}\n"])
def test_each_refusal_is_the_node_readers_word_for_word(text):
    assert outcome(load_values, text) == outcome(parse_yaml, text)
    assert outcome(load_values, text)[0] == "refused"


@pytest.mark.parametrize("text", ["a: 1\nb: *x\n", "a: &x 1\nb: *x\n", "a: [*x]\n"])
def test_an_alias_is_refused_at_its_first_anchor_or_alias(text):
    """The node reader meets an alias while composing and an anchor after; the events meet
    whichever comes first: refused either way, at its line."""
    kind, message = outcome(load_values, text)
    assert kind == "refused" and outcome(parse_yaml, text)[0] == "refused"
    assert "YAML anchors (&name) are not allowed" in message \
        or "YAML aliases (*name) are not allowed" in message


WORDS = """\
name: tech
words:
  - cat
  - {word: dog, hint: a pet}
  - word: bird
    hint: |
      sings
  - [not, a, word]
meta:
  nested:
    - {deep: [1, 2, {k: v}]}
"""


@pytest.mark.parametrize("keys", [(), ("name",), ("words",), ("words", 0), ("words", 1),
                                  ("words", 1, "hint"), ("words", 2, "hint"), ("words", 3),
                                  ("words", 3, 1), ("meta", "nested", 0, "deep", 2, "k"),
                                  ("words", 9), ("nothing",), ("meta", "nested", 0, "x")])
def test_a_line_found_again_from_the_events_is_the_node_readers(keys):
    nodes, values = parse_yaml(WORDS, "w.yaml"), load_values(WORDS, "w.yaml")
    assert values.line(*keys) == nodes.line(*keys), keys
    if keys:
        assert values.key_line(*keys) == nodes.key_line(*keys), keys


def test_a_followed_list_keeps_its_items_as_written_with_their_lines():
    doc = load_values("words:\n  - yes\n  - 12\n  - ~\n  - {word: 5}\n", "w.yaml",
                      follow="words")
    assert doc.data["words"] == ["yes", "12", "~", {"word": 5}]
    assert doc.item_lines == [2, 3, 4, 5]
