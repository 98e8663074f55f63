"""The clues wfkit writes itself (a word the vocabulary gives no hint for, a run that joins
words) and the clue lists' headings are in the vocabulary's language, picked as the style
labels are (``blanks.label_language``): Japanese on boards of a Japanese vocabulary, English
on any other, in the text board, the SVG, the sheet, the ipuz clues and the pack preview;
both languages are one table (``render.ipuz.CLUE_WORDS``)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES

from wordforge_cli.crossword.blanks import LANGUAGES
from wordforge_cli.crossword.lexicon import prepare
from wordforge_cli.crossword.records import record
from wordforge_cli.crossword.sets import Request, batch
from wordforge_cli.io.vocab import read_vocab
from wordforge_cli.render.ipuz import CLUE_WORDS, board_ipuz, board_ipuz_line, clue_words, entries

JAPANESE = EXAMPLES / "tech.yaml"  # language: ja, no hints
# what the English clue words write, and the Japanese
ENGLISH_WORDS = re.compile(r"no hint in the vocabulary|letters joining|letter \d+ of|"
                           r"-letter word|^\s*(across|down):|<h2>(Across|Down)</h2>", re.M)
JAPANESE_WORDS = re.compile(r"語彙にヒントなし|をつなぐ|文字目|文字の語|ヨコのカギ|タテのカギ")


def _vocab(tmp_path: Path, language: str | None, words: list[str]) -> Path:
    path = tmp_path / f"v-{language}.yaml"
    head = f"language: {language}\n" if language else ""
    path.write_text(f"name: v\n{head}words:\n" + "".join(f"  - {w}\n" for w in words),
                    encoding="utf-8")
    return path


def _hintless_english(tmp_path: Path, language: str | None = "en") -> Path:
    """animals-en's words without their hints: every clue is one wfkit writes."""
    return _vocab(tmp_path, language, [e.word for e in read_vocab(EXAMPLES / "animals-en.yaml")
                                       .entries])


def _japanese_words() -> list[str]:
    return [e.word for e in read_vocab(JAPANESE).entries]


def test_the_table_has_the_style_labels_languages() -> None:
    assert tuple(CLUE_WORDS) == LANGUAGES
    for language, words in CLUE_WORDS.items():
        texts = [words.no_hint, words.joining, words.plus, words.hinted, words.word,
                 words.letter_of_entry, words.letter_of_word, *words.directions.values(),
                 *words.headings.values()]
        shown = [re.sub(r"\{\w+\}", "", t) for t in texts]
        if language == "en":
            assert all(t.isascii() or t.strip("«» ") == "" for t in shown)
        else:
            assert not any(re.search("[A-Za-z]", t) for t in shown), shown
        assert set(words.directions) == set(words.headings) == {"across", "down"}
    assert clue_words("ja-JP") is CLUE_WORDS["ja"] and clue_words("fr") is CLUE_WORDS["en"]
    assert clue_words(None) is CLUE_WORDS["en"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_generated_clue_says_its_length_once(language: str) -> None:
    words = CLUE_WORDS[language]
    assert words.says_length(words.no_hint.format(n=4), 4)
    assert words.says_length(words.joining.format(n=3, parts=words.word.format(n=5)), 3)
    assert not words.says_length(words.no_hint.format(n=4), 5)
    assert not words.says_length("small pet that purrs", 4)


@pytest.mark.parametrize("layout", ["loose", "strict"])
def test_the_clues_of_a_japanese_board_are_japanese_in_every_render(run: Any, tmp_path: Path,
                                                                   layout: str) -> None:
    outputs = {}
    for render in ("text", "svg", "sheet", "ipuz"):
        result = run("crossword", "--vocab", JAPANESE, "-n", "6", "--seed", "3", "--layout",
                     layout, "--render", render, "-q")
        assert result.exit_code == 0, result.stderr
        outputs[render] = result.stdout
    clues = [c[1] for line in outputs["ipuz"].splitlines()
             for way in ("Across", "Down") for c in json.loads(line)["clues"][way]]
    assert clues and all(c.startswith("語彙にヒントなし（") or "をつなぐ" in c for c in clues)
    if layout == "loose":  # runs that join words: their clues name letters of other entries
        assert any(re.search(r"(ヨコ|タテ)\d+の\d+文字目", c) for c in clues)
    for render, out in outputs.items():
        shown = html.unescape(out)
        assert not ENGLISH_WORDS.search(shown), (render, ENGLISH_WORDS.findall(shown)[:3])
        assert "語彙にヒントなし" in shown, render
    assert "ヨコのカギ:" in outputs["text"] or "タテのカギ:" in outputs["text"]
    assert '<html lang="ja">' in outputs["sheet"]
    assert not re.search(r"（\d+文字） \(\d+\)", outputs["sheet"])  # the length said once


@pytest.mark.parametrize("language", ["en", None, "fr"])
def test_the_clues_of_any_other_board_are_english(run: Any, tmp_path: Path,
                                                  language: str | None) -> None:
    vocab = _hintless_english(tmp_path, language)
    for render in ("text", "svg", "sheet", "ipuz"):
        result = run("crossword", "--vocab", vocab, "-n", "4", "--seed", "5", "--render",
                     render, "-q")
        assert result.exit_code == 0, result.stderr
        assert "no hint in the vocabulary (" in result.stdout, render
        assert not JAPANESE_WORDS.search(result.stdout), render
        if render == "sheet":
            assert '<html lang="en">' in result.stdout


def test_a_japanese_vocabulary_named_ja_jp_gets_japanese_clues(run: Any,
                                                               tmp_path: Path) -> None:
    vocab = _vocab(tmp_path, "ja-JP", _japanese_words())
    result = run("crossword", "--vocab", vocab, "-n", "2", "--seed", "3", "--render", "text",
                 "-q")
    assert result.exit_code == 0, result.stderr
    assert "語彙にヒントなし" in result.stdout and not ENGLISH_WORDS.search(result.stdout)


def test_the_fast_ipuz_line_is_the_documents_bytes_in_japanese() -> None:
    from wordforge_cli.io.output import dumps_plain

    lex = prepare(read_vocab(JAPANESE))
    cache: dict[Any, Any] = {}
    for layout in ("loose", "strict"):
        for board_id, seed, board in batch(lex, Request(4, 6, layout=layout), 7, 8):
            assert board is not None
            rec = record(board, board_id, seed, lex)
            doc = board_ipuz(rec, title="t", language="ja")
            line = board_ipuz_line(board, board_id, seed, hints={}, title="t", cache=cache,
                                   language="ja")
            assert line == dumps_plain(doc).encode()
            english = board_ipuz_line(board, board_id, seed, hints={}, title="t",
                                      cache=cache, language="en")
            assert english == dumps_plain(board_ipuz(rec, title="t")).encode()
            found = entries(rec, {}, "ja")  # (the people's renders' clues: the same)
            assert [e.clue for way in ("across", "down") for e in found if e.dir == way] == [
                c[1] for way in ("Across", "Down") for c in doc["clues"][way]]


def test_the_pack_preview_clues_each_board_in_its_vocabularys_language(run: Any,
                                                                       tmp_path: Path) -> None:
    english = _hintless_english(tmp_path)
    config = tmp_path / "pack.yaml"
    config.write_text(
        "name: both\nseed: 4\nsections:\n"
        f"  - {{name: tech, kind: crossword, vocab: {JAPANESE}, count: 4}}\n"
        f"  - {{name: animals, kind: crossword, vocab: {english.name}, count: 4}}\n",
        encoding="utf-8")
    assert run("pack", "build", config, "--out", tmp_path / "pack").exit_code == 0
    page = run("pack", "preview", tmp_path / "pack")
    assert page.exit_code == 0, page.stderr
    tech, animals = page.stdout.split('id="section-animals"')[0], page.stdout.split(
        'id="section-animals"')[1]
    tech = tech[tech.index('id="section-tech"'):]
    assert "語彙にヒントなし" in tech and "ヨコのカギ" in tech + "タテのカギ"
    assert not ENGLISH_WORDS.search(tech)
    assert "no hint in the vocabulary (" in animals and not JAPANESE_WORDS.search(animals)
