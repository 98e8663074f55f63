"""Shell completion of values: ``wfkit schema NAME`` completes the shipped schemas' names,
``wfkit kanji --preset`` the presets of the config the command line names (the bundled one
when it names none), in every shell Click supports."""

from __future__ import annotations

from click.testing import CliRunner

from wordforge_cli import schemas
from wordforge_cli.cli import cli
from wordforge_cli.kanji.config import load_config


def complete(words: str, shell: str = "bash") -> list[str]:
    incomplete = "" if words.endswith(" ") else words.split()[-1]
    # bash and zsh say which word is being completed, fish gives the word itself
    cword = incomplete if shell == "fish" else str(len(words.split()) - bool(incomplete))
    result = CliRunner().invoke(cli, [], prog_name="wfkit", env={
        "_WFKIT_COMPLETE": f"{shell}_complete", "COMP_WORDS": words, "COMP_CWORD": cword})
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    if shell == "zsh":  # type, value, help: three lines a completion
        return result.stdout.splitlines()[1::3]
    return [line.split(",", 1)[1] for line in result.stdout.split()]


def test_schema_names_complete():
    assert complete("wfkit schema ") == schemas.names()
    assert complete("wfkit schema kanji-") == [n for n in schemas.names()
                                               if n.startswith("kanji-")]
    assert complete("wfkit schema pack-m") == ["pack-manifest"]
    assert complete("wfkit schema nothing") == []
    assert complete("wfkit schema cross", "zsh") == ["crossword-board", "crossword-stats"]
    assert complete("wfkit schema cross", "fish") == ["crossword-board", "crossword-stats"]


def test_presets_complete_from_the_bundled_config():
    bundled = list(load_config(None).presets)
    assert bundled == ["easy", "normal", "hard"]
    assert complete("wfkit kanji --preset ") == bundled
    assert complete("wfkit kanji -n 3 --preset h") == ["hard"]
    assert complete("wfkit kanji --preset ", "zsh") == bundled


def test_presets_complete_from_the_config_named(tmp_path):
    config = tmp_path / "kanji.yaml"
    config.write_text("presets:\n  tiny: {base: 2, bring: 3}\n  wide: {bring: 40}\n",
                      encoding="utf-8")
    assert complete(f"wfkit kanji --config {config} --preset ") == ["tiny", "wide"]
    assert complete(f"wfkit kanji --config {config} --preset w") == ["wide"]


def test_a_config_that_cannot_be_read_completes_nothing_and_says_nothing(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("presets: [1, 2\n", encoding="utf-8")
    for path in (broken, tmp_path / "missing.yaml", tmp_path):
        assert complete(f"wfkit kanji --config {path} --preset ") == []
