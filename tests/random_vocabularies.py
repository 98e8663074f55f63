"""Random crossword vocabularies for property tests: Latin or katakana words (small kana inside
some), mixed with real words of the examples so that most runs make boards, with duplicates,
entries the intake skips with a warning, and hints (markup, Japanese, braces) or none."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from conftest import EXAMPLES
from hypothesis import strategies as st

LATIN = "aeinorstlc"
KATAKANA = "アイウカキクコサシスタチツトナニノハマミムラリルレロンー"
SMALL = "ャュョッァ"
ODD = ["a", "ア", "12", "hello world", "x-y", "漢字", "ッア", "ーアイ"]
HINTS = ["", "it's <b>&amp;</b> \"quoted\"", "日本語のヒント", "50% {brace}"]


def _words(name: str) -> list[str]:
    entries = yaml.safe_load((EXAMPLES / name).read_text(encoding="utf-8"))["words"]
    return [e["word"] if isinstance(e, dict) else e for e in entries]


REAL = {"ja": _words("tech.yaml"), "en": _words("animals-en.yaml")}


@st.composite
def vocabularies(draw: st.DrawFn) -> tuple[str, list[Any]]:
    """(language, entries) of a vocabulary."""
    katakana = draw(st.booleans())
    letters = st.sampled_from(KATAKANA if katakana else LATIN)
    word = st.lists(letters, min_size=2, max_size=8).map("".join)
    if katakana:  # a small kana inside a word (キャッシュ), folded or kept by the options
        word = st.tuples(word, st.sampled_from(["", *SMALL]), st.integers(1, 8)).map(
            lambda t: t[0][:t[2]] + t[1] + t[0][t[2]:])
    real = REAL["ja" if katakana else "en"]  # real words cross often: most runs are made
    words = draw(st.lists(st.sampled_from(real), min_size=8, max_size=40, unique=True))
    words += draw(st.lists(word, max_size=40))
    words = draw(st.permutations(words))
    words += draw(st.lists(st.sampled_from(words), max_size=5))  # duplicates
    words += draw(st.lists(st.sampled_from(ODD), max_size=2))  # skipped with a warning
    hints = draw(st.booleans())
    entries: list[Any] = [{"word": w, "hint": draw(st.sampled_from(HINTS))}
                          if hints and draw(st.booleans()) else w for w in words]
    return ("ja" if katakana else "en"), entries


def write_vocabulary(path: Path, vocabulary: tuple[str, list[Any]]) -> Path:
    language, entries = vocabulary
    path.write_text(json.dumps({"name": "fuzz", "language": language, "words": entries},
                               ensure_ascii=False), encoding="utf-8")
    return path
