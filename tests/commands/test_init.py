"""``wfkit init``: the starter project holds what the documentation names, and is never
written over unless asked."""

from __future__ import annotations

import json
import re

import pytest
from conftest import CONFIGS, EXAMPLES
from refusals import Refusal, check

from wordforge_cli.commands.init import WORKFLOW, starter_files


def names(run, directory):
    result = run("init", "--list", directory)
    assert result.exit_code == 0, result.output
    return [line.split("  ")[0] for line in result.stdout.splitlines()]


def test_init_writes_the_configs_examples_and_workflow(run, tmp_path):
    target = tmp_path / "demo"
    listed = names(run, target)
    result = run("init", target)
    assert result.exit_code == 0, result.output
    assert "wrote 16 files" in result.stderr and "cd " in result.stderr  # no wheel: editable
    written = sorted(str(p) for p in target.rglob("*") if p.is_file())
    assert written == sorted(listed)
    for config in CONFIGS.glob("*.yaml"):
        assert (target / "configs" / config.name).read_bytes() == config.read_bytes()
    for name in ("tech.yaml", "animals-en.yaml", "words.yaml", "article-cefr.yaml", "pack.yaml",
                 "kanji-weather.txt", "weather-pool.jsonl", "rarity-retuned.yaml"):
        assert (target / "examples" / name).read_bytes() == (EXAMPLES / name).read_bytes()
    workflow = (target / WORKFLOW).read_text(encoding="utf-8")
    assert "WFKIT: wfkit==" in workflow and "\n  WFKIT: . " not in workflow
    # every examples/ file the copied pack.yaml names is there (its CI example too)
    pack = (target / "examples" / "pack.yaml").read_text(encoding="utf-8")
    for named in re.findall(r"examples/[\w.-]+\.\w+", pack):
        assert (target / named).is_file(), named


def test_the_pack_configs_it_writes_build(run, tmp_path):
    assert run("init", tmp_path).exit_code == 0
    for config in ("examples/pack.yaml", "configs/pack.yaml"):
        result = run("pack", "check", tmp_path / config, "--out", tmp_path / "nothing")
        assert result.exit_code == 1 and "Traceback" not in result.stderr  # configs are valid


def test_init_refuses_to_overwrite_and_writes_nothing(run, tmp_path):
    (tmp_path / "examples").mkdir()
    mine = tmp_path / "examples" / "tech.yaml"
    mine.write_text("words: [my, own]\n", encoding="utf-8")
    result = run("init", tmp_path)
    assert result.exit_code == 1
    assert "tech.yaml already there; nothing written (--force overwrites)" in result.stderr
    assert mine.read_text(encoding="utf-8") == "words: [my, own]\n"
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["tech.yaml"]
    listing = run("init", "--list", tmp_path).stdout
    assert f"{mine}  (exists)" in listing.splitlines()
    assert run("init", tmp_path, "--force").exit_code == 0
    assert mine.read_bytes() == (EXAMPLES / "tech.yaml").read_bytes()


def test_init_into_a_file_or_over_a_directory_is_refused(run, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    assert run("init", afile).exit_code == 2
    (tmp_path / "p" / "configs" / "kanji.yaml").mkdir(parents=True)
    result = run("init", tmp_path / "p", "--force")
    assert result.exit_code == 1 and "is a directory" in result.stderr
    assert not (tmp_path / "p" / "configs" / "crossword.yaml").exists()


def test_init_writes_through_a_symlink_not_over_it(run, tmp_path):
    (tmp_path / "configs").mkdir()
    real = tmp_path / "real.yaml"
    real.write_text("old\n", encoding="utf-8")
    (tmp_path / "configs" / "rarity.yaml").symlink_to(real)
    assert run("init", tmp_path).exit_code == 1
    assert real.read_text(encoding="utf-8") == "old\n"


def test_the_example_pool_is_what_its_command_makes(run):
    """examples/weather-pool.jsonl is real output: the command its help names remakes it."""
    result = run("kanji", "--dict", EXAMPLES / "kanji-weather.txt", "--base", "3", "--bring",
                 "10", "-n", "1", "--seed", "7")
    assert result.exit_code == 0, result.output
    shipped = (EXAMPLES / "weather-pool.jsonl").read_text(encoding="utf-8")
    assert json.loads(result.stdout) == json.loads(shipped), (
        "regenerate: wfkit kanji --dict examples/kanji-weather.txt --base 3 --bring 10 -n 1 "
        "--seed 7 -o examples/weather-pool.jsonl (and check the kanji check help examples)")
    for word, taken in (("熱帯", ""), ("亜熱帯", "熱帯"), ("熱帯", "帯")):
        verdict = run("kanji", "check", word, "--pool", EXAMPLES / "weather-pool.jsonl",
                      "--taken", taken)
        assert verdict.exit_code == 0 and verdict.stdout.startswith("yes"), verdict.output


def test_every_starter_file_exists_in_the_package():
    sources = starter_files()
    assert len(sources) == 16
    assert all(source.is_file() for source, _name in sources)


def test_installed_from_a_wheel_the_workflow_installs_a_copy_of_it(run, tmp_path, monkeypatch):
    from wordforge_cli.commands import init as init_module

    wheel = tmp_path / "wfkit-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"PK\x03\x04 not really a wheel")
    monkeypatch.setattr(init_module, "installed_wheel", lambda: wheel)
    result = run("init", tmp_path / "demo")
    assert result.exit_code == 0 and "wrote 17 files" in result.stderr
    assert (tmp_path / "demo" / "wheels" / wheel.name).read_bytes() == wheel.read_bytes()
    workflow = (tmp_path / "demo" / WORKFLOW).read_text(encoding="utf-8")
    assert f"\n  WFKIT: wheels/{wheel.name}  #" in workflow


REFUSED = [
    Refusal("init proj --force --list --list --force=1 --",
            {},
            2, "Option '--force' does not take a value."),
    Refusal("init proj --list --list --force --force --force extra",
            {},
            2, "Got unexpected extra argument (extra) (see 'wfkit init -h')"),
]


@pytest.mark.parametrize("case", REFUSED)
def test_a_bad_init_command_line_is_one_line(case: Refusal, tmp_path, monkeypatch) -> None:
    check(case, tmp_path, monkeypatch)
    assert not (tmp_path / "case" / "proj").exists()
