"""Packs of the real engines: crossword batches, endless and challenge sets, kanji pools and
rarity tables, built from the engines' own code. (The same bytes whatever --jobs or --shard:
test_jobs_same_bytes.py.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES
from test_pack import tree, verify

SMALL = """\
name: small
seed: 11
sections:
  - name: boards
    kind: crossword
    vocab: tech.yaml
    count: 300
    band: [4, 5]
    style: tail
    render: [text, svg, ipuz]
    render_limit: 3
  - name: strict
    kind: crossword
    vocab: animals-en.yaml
    count: 40
    band: 5-6
    layout: strict
    style: alt
  - name: run
    kind: endless
    vocab: tech.yaml
    count: 14
  - name: sets
    kind: challenge
    vocab: animals-en.yaml
    count: 2
  - name: words
    kind: rarity
    vocab: words.yaml
  - name: pools
    kind: kanji
    count: 30
    kanji: 30-50
    max_grade: 7
    render: [svg, text]
    render_limit: 2
  - name: easy
    kind: kanji
    count: 10
    preset: easy
"""


def small_pack(tmp_path: Path, text: str = SMALL) -> Path:
    for name in ("tech.yaml", "animals-en.yaml", "words.yaml"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    config = tmp_path / "pack.yaml"
    config.write_text(text, encoding="utf-8")
    return config


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_pack_calls_the_engines_and_records_what_it_used(tmp_path, run):
    from wordforge_cli.crossword.check import check_record

    config = small_pack(tmp_path)
    out = tmp_path / "out"
    result = run("pack", "build", config, "--out", out, "-j", "1")
    assert result.exit_code == 0, result.output
    manifest = verify(out)
    sections = {s["name"]: s for s in manifest["sections"]}
    boards = lines(out / "boards.jsonl")
    assert [b["id"] for b in boards] == list(range(300))
    assert sections["boards"]["stats"]["made"] == 300
    assert sections["boards"]["stats"]["blank_failure"]["tail"]["of"] == 300
    assert "ms_per_board" not in json.dumps(manifest)  # deterministic statistics only
    for board in boards[:50]:
        assert board["style"] == "tail"
        assert 4 <= len(board["answer"]) <= 5
    assert len(lines(out / "sets.jsonl")) == 20
    assert len({b["answer"] for b in lines(out / "sets.jsonl")[:10]}) == 10
    pools = lines(out / "pools.jsonl")
    assert [p["id"] for p in pools] == list(range(30))
    assert all(30 <= p["kanji_count"] <= 50 for p in pools)
    assert sections["pools"]["stats"]["made"] == 30
    assert sections["pools"]["stats"]["hardest_grade"]["max"] <= 7
    easy = sections["easy"]
    assert easy["options"]["preset"] == "easy" and easy["options"]["max_grade"] == 6
    assert all(25 <= p["kanji_count"] <= 35 for p in lines(out / "easy.jsonl"))  # the preset's
    assert (out / "pools" / "000001.svg").read_text().startswith("<svg")
    assert "pools 1" in (out / "pools.txt").read_text()
    words = lines(out / "words.jsonl")
    assert words[0]["word"] == "cat" and words[0]["rarity"] == "normal"
    assert sum(sections["words"]["stats"]["tiers"].values()) == len(words)
    assert {p.name for p in (out / "boards").iterdir()} == {  # renders of items 0..2
        f"00000{i}.{ext}" for i in range(3) for ext in ("svg", "ipuz")}
    data = {d["file"]: d for d in manifest["data"]}
    assert {"tech.yaml", "animals-en.yaml", "words.yaml", "wfkit:configs/crossword.yaml",
            "wfkit:configs/rarity.yaml", "wfkit:data/english.tsv", "wfkit:data/jukugo.tsv",
            "wfkit:data/kanji_grades.tsv", "wfkit:data/jukugo.md"} <= set(data)
    assert "CC BY-SA" in data["wfkit:data/jukugo.tsv"]["license"]
    assert data["wfkit:data/jukugo.tsv"]["provenance"] == "wfkit:data/jukugo.md"
    assert data["tech.yaml"]["sections"] == ["boards", "run"]
    assert any(d["file"].startswith("wordfreq ") and "CC BY-SA" in d["license"]
               for d in manifest["data"])
    checked = 0
    for name in ("boards", "strict", "run", "sets"):
        layout = "strict" if name == "strict" else "loose"
        for board in lines(out / f"{name}.jsonl"):
            problems = check_record(board, layout=layout)
            assert not problems, (name, board["id"], problems)
            checked += 1
    assert checked > 300


def test_the_pack_board_is_the_crossword_command_board(tmp_path, run):
    """A section is the engine's batch with the section name as scope: same boards."""
    from wordforge_cli.crossword.board import Request
    from wordforge_cli.crossword.lexicon import prepare
    from wordforge_cli.crossword.records import record
    from wordforge_cli.crossword.sets import batch
    from wordforge_cli.io.vocab import read_vocab

    config = small_pack(tmp_path)
    out = tmp_path / "out"
    assert run("pack", "build", config, "--out", out).exit_code == 0
    lexicon = prepare(read_vocab(tmp_path / "tech.yaml"))
    made = [record(b, i, s, lexicon) for i, s, b in batch(lexicon, Request(4, 5, "tail"), 11,
                                                          20, scope=("boards",))]
    assert lines(out / "boards.jsonl")[:20] == made


@pytest.mark.parametrize(("edit", "line", "message"), [
    (("vocab: tech.yaml\n    count: 300", "vocab: nowhere.yaml\n    count: 300"), 6,
     "vocabulary file not found: nowhere.yaml"),
    (("band: [4, 5]", "band: [9, 12]"), 8, "can never succeed: impossible request: no word"),
    (("band: [4, 5]", "band: [6, 4]"), 8, "can never succeed: impossible request: min length"),
    (("style: tail", "style: tale"), 9, "did you mean 'tail'"),
    (("layout: strict", "layuot: strict"), 17, "unknown key 'layuot' (did you mean 'layout'?)"),
    (("render: [text, svg, ipuz]", "render: [text, png]"), 10, "cannot render 'png'"),
    (("kind: rarity\n    vocab: words.yaml", "kind: rarity\n    vocab: words.yaml\n    count: 3"),
     30, "has no 'count'"),
    (("max_grade: 7", "max_grade: 1\n    bring: 5000"), 35,
     "sections[5].bring: can never succeed: base 5 + bring 5000 needs 5005 words"),
    (("kanji: 30-50", "kanji: 50-30"), 33, "need 1 <= low <= high"),
    (("preset: easy", "preset: eazy"), 40, "unknown preset 'eazy' (did you mean 'easy'?)"),
])
def test_engine_config_errors_name_the_pack_file_and_line(tmp_path, run, edit, line, message):
    config = small_pack(tmp_path, SMALL.replace(*edit))
    result = run("pack", "build", config, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"wfkit: error: {config}:{line}: "), result.stderr
    assert message in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_bad_word_in_a_vocabulary_names_the_vocabulary_line(tmp_path, run):
    config = small_pack(tmp_path)
    (tmp_path / "words.yaml").write_text("name: w\nwords:\n  - cat\n  - c4t\n")
    result = run("pack", "build", config, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert f"{tmp_path / 'words.yaml'}:4:" in result.stderr


def test_the_example_pack_builds_and_checks(tmp_path, run):
    out = tmp_path / "pack"
    result = run("pack", "build", EXAMPLES / "pack.yaml", "--out", out)
    assert result.exit_code == 0, result.output
    manifest = verify(out)
    assert {s["kind"] for s in manifest["sections"]} == {"crossword", "endless", "challenge",
                                                          "kanji", "rarity"}
    assert run("pack", "check", EXAMPLES / "pack.yaml", "--out", out).exit_code == 0


def test_the_example_ci_workflow_commands_work(tmp_path, run, monkeypatch):
    """Run the wfkit commands of examples/ci-pack-check.yml in order (shards, merge, check)."""
    import shlex

    import yaml

    workflow = yaml.safe_load((EXAMPLES / "ci-pack-check.yml").read_text(encoding="utf-8"))
    (tmp_path / "examples").symlink_to(EXAMPLES)
    monkeypatch.chdir(tmp_path)
    commands = []
    for name in ("shard", "merge", "check"):
        job = workflow["jobs"][name]
        shards = job.get("strategy", {}).get("matrix", {}).get("shard", [None])
        for shard in shards:
            for step in job["steps"]:
                command = step.get("run", "")
                if command.startswith("wfkit pack"):
                    commands.append(command.replace("${{ matrix.shard }}", str(shard)))
    assert [c.split()[2] for c in commands] == ["build"] * 3 + ["merge", "check", "check"]
    for command in commands:
        result = run(*shlex.split(command)[1:])
        assert result.exit_code == 0, (command, result.stdout[:3000])
    assert tree(tmp_path / "pack") == tree(_single_build(tmp_path, run))


def _single_build(tmp_path: Path, run) -> Path:
    out = tmp_path / "single"
    assert run("pack", "build", EXAMPLES / "pack.yaml", "--out", out).exit_code == 0
    return out


def test_the_bundled_template_lists_every_key_of_every_kind_and_builds(tmp_path, run):
    from conftest import CONFIGS

    from wordforge_cli.batch.context import COMMON_KEYS
    from wordforge_cli.batch.kinds import get_kind, kind_names
    from wordforge_cli.pack.config import TOP_KEYS

    text = (CONFIGS / "pack.yaml").read_text(encoding="utf-8")
    keys = set(TOP_KEYS) | set(COMMON_KEYS)
    for name in kind_names():
        if name != "dice":  # the tests' fake kind
            keys |= set(get_kind(name).keys)
            assert f"kind: {name} " in text, name
    missing = [key for key in sorted(keys) if f" {key}:" not in text and f"\n{key}:" not in text]
    assert not missing
    out = tmp_path / "out"
    assert run("pack", "build", CONFIGS / "pack.yaml", "--out", out).exit_code == 0
    assert run("pack", "check", CONFIGS / "pack.yaml", "--out", out).exit_code == 0
