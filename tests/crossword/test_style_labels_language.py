"""A board's style label is in its vocabulary's language: the article's Japanese names on
boards of a Japanese vocabulary, English names on any other, in the records and every render
that shows the label (text, SVG, the sheet, the pack preview), for batches, endless runs and
challenge sets; both sets of names are one table (``crossword/blanks.py``) and the config's
``labels`` replace them, per language or for every language."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES

from wordforge_cli.crossword.blanks import BLANK_STYLES, LABELS, LANGUAGES, label_language
from wordforge_cli.crossword.config import load_config

ENGLISH, JAPANESE = EXAMPLES / "animals-en.yaml", EXAMPLES / "tech.yaml"
KANA = "かくしそのままほぼ語尾頭市松"


def test_the_table_names_every_style_in_both_languages():
    assert LANGUAGES == ("ja", "en")
    for style in BLANK_STYLES.values():
        assert style.en.isascii() and style.en.strip()
        assert not style.ja.isascii() and style.ja.strip()
        assert LABELS["ja"][style.name] == style.ja and LABELS["en"][style.name] == style.en
    assert LABELS["ja"]["none"] == "そのまま" and LABELS["ja"]["tail"] == "語尾かくし"  # article
    assert len(set(LABELS["en"].values())) == len(BLANK_STYLES)


@pytest.mark.parametrize("language, shown", [
    ("ja", "ja"), ("JA", "ja"), ("ja-JP", "ja"), ("ja_JP", "ja"), (" ja ", "ja"),
    ("en", "en"), ("en-GB", "en"), (None, "en"), ("", "en"), ("ru", "en"), ("jav", "en")])
def test_a_vocabulary_language_picks_its_names(language, shown):
    assert label_language(language) == shown


def test_the_bundled_config_names_the_tables_labels():
    assert load_config(None).labels == LABELS


def _records(result):
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize("vocab, language", [(ENGLISH, "en"), (JAPANESE, "ja")])
def test_every_form_labels_its_boards_in_the_vocabularys_language(run, vocab, language):
    names, others = LABELS[language], LABELS["ja" if language == "en" else "en"]
    batch = _records(run("crossword", "--vocab", vocab, "-n", "4", "--style", "tail",
                         "--seed", "2"))
    assert {r["label"] for r in batch} == {names["tail"]}
    for form, count in (("endless", "40"), ("challenge", "1")):
        boards = _records(run("crossword", form, "--vocab", vocab, "--count", count,
                              "--seed", "2"))
        assert all(r["label"] == names[r["style"]] for r in boards)
        assert len({r["style"] for r in boards}) > 1  # more than one style was labelled
    for render in ("text", "svg", "sheet"):
        result = run("crossword", "--vocab", vocab, "-n", "2", "--style", "tail", "--seed",
                     "2", "--render", render)
        assert result.exit_code == 0, result.stderr
        shown = result.stdout.replace("&quot;", '"')
        assert names["tail"] in shown and others["tail"] not in shown, render
        if language == "en":
            assert not any(ch in shown for ch in KANA), render


def test_the_pack_preview_shows_each_sections_own_language(run, tmp_path):
    config = tmp_path / "pack.yaml"
    config.write_text(f"""name: two-languages
seed: 5
sections:
  - {{name: english, kind: crossword, vocab: {ENGLISH}, count: 3, style: head,
     render: [svg]}}
  - {{name: japanese, kind: crossword, vocab: {JAPANESE}, count: 3, style: head,
     render: [svg]}}
""", encoding="utf-8")
    assert run("pack", "build", config, "--out", tmp_path / "pack").exit_code == 0
    for name, language in (("english", "en"), ("japanese", "ja")):
        svg = (tmp_path / "pack" / name / "000000.svg").read_text(encoding="utf-8")
        assert f"({LABELS[language]['head']})" in svg
    result = run("pack", "preview", tmp_path / "pack", "-o", tmp_path / "preview.html")
    assert result.exit_code == 0, result.stderr
    page = (tmp_path / "preview.html").read_text(encoding="utf-8")
    for name, language in (("english", "en"), ("japanese", "ja")):
        start = page.index(f'id="section-{name}"')
        section = page[start:page.index("</section>", start)]
        other = LABELS["ja" if language == "en" else "en"]["head"]
        assert f"({LABELS[language]['head']})" in section and other not in section, name


def test_the_configs_labels_replace_the_names_per_language_or_for_all(run, tmp_path):
    config = tmp_path / "labels.yaml"
    config.write_text("labels:\n  tail: Last letters gone\n  en: {head: First letters gone}\n"
                      "  ja: {tail: おわりかくし}\n", encoding="utf-8")

    def label(vocab, style):
        [record] = _records(run("crossword", "--config", config, "--vocab", vocab, "-n", "1",
                                "--style", style, "--seed", "1"))
        return record["label"]

    assert label(ENGLISH, "tail") == "Last letters gone"  # every language's
    assert label(ENGLISH, "head") == "First letters gone"  # English only
    assert label(JAPANESE, "tail") == "おわりかくし"  # a language's own wins
    assert label(JAPANESE, "head") == LABELS["ja"]["head"]  # the table's
    assert label(ENGLISH, "alt") == LABELS["en"]["alt"]


@pytest.mark.parametrize("text, message", [
    ("labels: {eng: {tail: x}}\n", "unknown key 'eng' (did you mean 'en'?)"),
    ("labels: {en: {tial: x}}\n", "unknown key 'tial' (did you mean 'tail'?)"),
    ("labels: {en: ends}\n", "labels/en must be a mapping, not a string"),
    ("labels: {ja: {tail: ''}}\n", "labels/ja/tail must be a non-empty string"),
])
def test_a_bad_labels_section_is_one_line_at_its_place(run, tmp_path, text, message):
    config = tmp_path / "bad.yaml"
    config.write_text(text, encoding="utf-8")
    result = run("crossword", "--config", config, "--vocab", ENGLISH, "-n", "1")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert f"{config}:1: " in result.stderr and message in result.stderr


def test_the_plan_prints_the_label_of_the_language_asked(run):
    def plan(*args):
        result = run("crossword", "plan", "6", "--json", *args)
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)["label"]

    assert plan() == plan("--language", "ja") == LABELS["ja"]["tail"]
    assert plan("--language", "en") == LABELS["en"]["tail"]
    assert run("crossword", "plan", "6", "--language", "fr").exit_code == 2
