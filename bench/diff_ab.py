"""Differential run of the user's commands between two installs of wfkit: this tree and another.

Every case (a few hundred: each command with its renders, --stats, --jobs 1 and 2, refusals of
bad values and bad config files, pack build, check, shards and merge, preview and export) runs
with both ``wfkit`` executables in the same empty folder, one side after the other, and the
two must agree on everything the user sees: each step's exit status, stdout, stderr (timings
masked) and every file left in the folder (a statistics file's ``timing`` taken out).

    python bench/diff_ab.py --other /path/to/other/.venv/bin/wfkit
    python bench/diff_ab.py --other OTHER --only pack --show 3

The refusal cases are the frozen refusals' command lines with the small files they read
(``tests/frozen_refusals.json``); the rest are written below.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = str(Path(sys.executable).parent / "wfkit")
TIMING = re.compile(r"\d[\d,.]*\s?(?:[a-z]+/s|ms|s)\b")
EX = "{EX}"

PACK = """\
name: diff
seed: 7
sections:
  - name: boards
    kind: crossword
    vocab: {EX}/tech.yaml
    count: 600
    band: [4, 5]
    style: tail
    render: [svg, text, ipuz, sheet]
    render_limit: 3
    difficulty: true
  - name: strict
    kind: crossword
    vocab: {EX}/animals-en.yaml
    count: 40
    band: [5, 6]
    layout: strict
    unique: true
    render: [ipuz]
  - name: run
    kind: endless
    vocab: {EX}/tech.yaml
    count: 30
  - name: ramp
    kind: challenge
    vocab: {EX}/animals-en.yaml
    count: 2
    order_by_difficulty: true
  - name: pools
    kind: kanji
    count: 20
    preset: easy
    render: [svg, text]
    render_limit: 2
  - name: played
    kind: kanji
    count: 4
    preset: normal
    self_play: true
  - name: words
    kind: rarity
    vocab: {EX}/words.yaml
    cefr: {EX}/article-cefr.yaml
    overrides: {EX}/article-overrides.yaml
  - name: duel
    kind: balance
    count: 12
    players: [B1, C2]
    turns: 5
"""


def step(*argv: str, stdin: str | None = None) -> dict[str, Any]:
    return {"argv": list(argv), "stdin": stdin}


def case(name: str, *steps: dict[str, Any], files: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "steps": list(steps), "files": files or {}}


def one(name: str, *argv: str, files: dict[str, Any] | None = None,
        stdin: str | None = None) -> dict[str, Any]:
    return case(name, step(*argv, stdin=stdin), files=files)


def written_cases() -> list[dict[str, Any]]:
    tech, animals, words = f"{EX}/tech.yaml", f"{EX}/animals-en.yaml", f"{EX}/words.yaml"
    cefr, over = f"{EX}/article-cefr.yaml", f"{EX}/article-overrides.yaml"
    cases: list[dict[str, Any]] = [one("version", "--version"), one("help", "--help")]
    for command in ("rarity", "score", "tiles", "balance", "crossword", "crossword endless",
                    "crossword challenge", "crossword plan", "kanji", "kanji check",
                    "kanji play", "pack", "pack build", "pack check", "pack merge",
                    "pack preview", "pack export", "schema", "init"):
        cases.append(one(f"help {command}", *command.split(), "--help"))
    # rarity
    for render in ("table", "csv", "json", "md"):
        cases.append(one(f"rarity vocab {render}", "rarity", "--vocab", words, "--render", render))
        cases.append(one(f"rarity vocab {render} -o", "rarity", "--vocab", tech, "--render",
                         render, "-o", "out.txt", "--stats", "s.json"))
    cases += [
        one("rarity word", "rarity", "labyrinth"),
        one("rarity words json", "rarity", "cat", "pizza", "serendipity", "--cefr", cefr,
            "--json"),
        one("rarity overrides", "rarity", "cats", "dog", "--overrides", over, "--no-lemma"),
        one("rarity gold rush", "rarity", "--vocab", words, "--gold-rush", "--json"),
        one("rarity compare", "rarity", "--vocab", words, "--compare",
            f"{EX}/rarity-retuned.yaml"),
        one("rarity compare json", "rarity", "--vocab", words, "--compare",
            f"{EX}/rarity-no-short-cap.yaml", "--json"),
        one("rarity stdin", "rarity", "--vocab", "-", stdin="cat\ndog\nlabyrinth\n"),
        one("rarity stdin yaml", "rarity", "--vocab", "-", "--json",
            stdin="words:\n  - cat\n  - quaff\n"),
        one("rarity quiet", "rarity", "--vocab", words, "-q", "--json"),
        one("rarity bad render", "rarity", "cat", "--render", "xml"),
        one("rarity format old", "rarity", "cat", "--format", "csv"),
        one("rarity no words", "rarity"),
        one("rarity missing vocab", "rarity", "--vocab", "nope.yaml"),
        one("rarity bad cefr", "rarity", "cat", "--cefr", "c.yaml", files={"c.yaml": "cat: Z9\n"}),
        one("rarity bad config", "rarity", "cat", "--config", "r.yaml",
            files={"r.yaml": "tiers: 3\n"}),
    ]
    # score
    cases += [
        one("score", "score", "quaff", "--cefr", cefr),
        one("score json", "score", "xylophone", "--combo", "2", "--double", "--json"),
        one("score turns", "score", "--turns", "cat,cats,castle,clam"),
        one("score turns json", "score", "--turns", "cat,cats,castle,clam", "--json"),
        one("score all", "score", "labyrinth", "--link", "--overdrive", "--gold-rush",
            "--fortress", "--wild", "1,3", "--json"),
        one("score no battle", "score", "serendipity", "--no-battle"),
        one("score unplayable", "score", "zzzzqx"),
        one("score bad wild", "score", "cat", "--wild", "9"),
        one("score bad combo", "score", "cat", "--combo", "-1"),
        one("score no word", "score"),
    ]
    # tiles
    cases += [
        one("tiles", "tiles", "--players", "4", "--seed", "7"),
        one("tiles deals", "tiles", "--players", "2", "-n", "100", "--seed", "1", "--json",
            "--stats", "d.json"),
        one("tiles deals text", "tiles", "--players", "3", "-n", "20", "--seed", "2"),
        one("tiles word", "tiles", "--hand", "QUAFFE?TRS", "--word", "quaff"),
        one("tiles word json", "tiles", "--hand", "QUAFFE?TRS", "--word", "quaff", "--json"),
        one("tiles cannot", "tiles", "--hand", "AAAAAAAAAA", "--word", "quaff"),
        one("tiles best", "tiles", "--hand", "QUAFFE?TRS", "--best", "-k", "5"),
        one("tiles best json", "tiles", "--hand", "ETAOINSHRD", "--best", "--json"),
        one("tiles bad hand", "tiles", "--hand", "12", "--word", "ab"),
        one("tiles bad players", "tiles", "--players", "9"),
        one("tiles word alone", "tiles", "--word", "cat"),
    ]
    # balance
    cases += [
        one("balance", "balance", "-n", "30", "--seed", "1"),
        one("balance json", "balance", "-n", "30", "--seed", "1", "--json"),
        one("balance players", "balance", "-n", "20", "--player", "B1", "--player", "C2",
            "--seed", "1"),
        one("balance three", "balance", "-n", "10", "--players", "3", "--turns", "4",
            "--seed", "2", "--json"),
        one("balance compare", "balance", "-n", "20", "--seed", "1", "--compare",
            f"{EX}/rarity-no-short-cap.yaml", "--json"),
        one("balance compare text", "balance", "-n", "20", "--seed", "1", "--compare",
            f"{EX}/rarity-retuned.yaml"),
        one("balance round robin", "balance", "-n", "8", "--round-robin", "--player", "B1",
            "--player", "B2", "--player", "C2", "--seed", "1"),
        one("balance round robin json", "balance", "-n", "8", "--round-robin", "--player",
            "B1", "--player", "zipf:4", "--seed", "1", "--json"),
        one("balance no powerups", "balance", "-n", "20", "--no-powerups", "--use-at", "0",
            "--seed", "3", "-o", "r.txt"),
        one("balance bad player", "balance", "-n", "2", "--player", "Z9"),
        one("balance bad players", "balance", "-n", "2", "--players", "0"),
        one("balance robin one", "balance", "-n", "2", "--round-robin", "--player", "B1"),
    ]
    # crossword
    base = ["--vocab", tech, "--seed", "1"]
    for render in ("json", "text", "svg", "ipuz", "sheet"):
        for style in ("none", "tail", "head", "alt", "most"):
            cases.append(one(f"crossword {render} {style}", "crossword", *base, "-n", "6",
                             "--style", style, "--render", render))
        cases.append(one(f"crossword {render} -o stats", "crossword", "--vocab", animals,
                         "-n", "8", "--seed", "2", "--min-len", "5", "--max-len", "6",
                         "--layout", "strict", "--render", render, "-o", "out", "--stats",
                         "s.json"))
        for form in ("endless", "challenge"):
            cases.append(one(f"crossword {form} {render}", "crossword", form, "--vocab", tech,
                             "--count", "3", "--seed", "4", "--render", render))
    for jobs in ("1", "2"):
        cases.append(one(f"crossword jobs {jobs}", "crossword", *base, "-n", "5000",
                         "--jobs", jobs, "-o", "b.jsonl", "--stats", "s.json"))
        cases.append(one(f"crossword jobs {jobs} stdout ipuz", "crossword", *base, "-n",
                         "4200", "--jobs", jobs, "--render", "ipuz", "--style", "alt"))
        cases.append(one(f"crossword jobs {jobs} difficulty", "crossword", *base, "-n",
                         "4500", "--jobs", jobs, "--difficulty", "--style", "tail", "-o",
                         "b.jsonl", "--stats", "s.json"))
        cases.append(one(f"crossword endless jobs {jobs}", "crossword", "endless", *base,
                         "--count", "4400", "--jobs", jobs, "-o", "e.jsonl", "--stats",
                         "s.json"))
        cases.append(one(f"kanji jobs {jobs}", "kanji", "-n", "300", "--seed", "1", "--jobs",
                         jobs, "-o", "p.jsonl", "--stats", "s.json"))
        cases.append(one(f"kanji self-play jobs {jobs}", "kanji", "-n", "6", "--seed", "1",
                         "--self-play", "--jobs", jobs, "--stats", "s.json"))
    cases += [
        one("crossword unique", "crossword", "--vocab", animals, "--layout", "strict",
            "--style", "tail", "--unique", "-n", "5", "--seed", "1"),
        one("crossword difficulty", "crossword", *base, "-n", "20", "--difficulty",
            "--stats", "s.json"),
        one("crossword width", "crossword", *base, "-n", "20", "--max-width", "6",
            "--max-height", "7", "--json"),
        one("crossword keep small", "crossword", *base, "-n", "20", "--keep-small",
            "--styles", "tail,head", "--stats", "s.json"),
        one("crossword no redraw", "crossword", *base, "-n", "20", "--style", "most",
            "--no-redraw", "--redraws", "3"),
        one("crossword budget", "crossword", *base, "-n", "30", "--budget", "3",
            "--min-len", "6", "--max-len", "7"),
        one("crossword require all", "crossword", *base, "-n", "30", "--budget", "2",
            "--require-all", "-o", "b.jsonl"),
        one("crossword zero", "crossword", *base, "-n", "0", "--stats", "s.json"),
        one("crossword quiet", "crossword", *base, "-n", "40", "-q", "-o", "b.jsonl"),
        one("crossword json flag", "crossword", *base, "-n", "3", "--json"),
        one("crossword stdin", "crossword", "--vocab", "-", "-n", "3", "--seed", "1",
            stdin="words:\n  - ねこ\n  - いぬ\n  - さかな\n  - うさぎ\n  - きつね\n"),
        one("crossword config", "crossword", "--config", f"{EX}/../configs/crossword.yaml",
            *base, "-n", "5"),
        one("crossword endless start", "crossword", "endless", *base, "--start", "6",
            "--count", "2", "--render", "text"),
        one("crossword endless stats", "crossword", "endless", *base, "--count", "40",
            "--difficulty", "--stats", "s.json"),
        one("crossword challenge stats", "crossword", "challenge", "--vocab", animals,
            "--count", "2", "--seed", "3", "--stats", "s.json", "-o", "c.jsonl"),
        one("crossword plan", "crossword", "plan", "6"),
        one("crossword plan json", "crossword", "plan", "40", "--json", "--language", "en"),
        one("crossword bad style", "crossword", *base, "--style", "bogus"),
        one("crossword bad band", "crossword", *base, "--min-len", "9", "--max-len", "3"),
        one("crossword huge band", "crossword", *base, "--min-len", "30", "--max-len", "30"),
        one("crossword bad width", "crossword", *base, "--max-width", "2"),
        one("crossword no vocab", "crossword", "-n", "2"),
        one("crossword missing vocab", "crossword", "--vocab", "nope.yaml"),
        one("crossword bad vocab", "crossword", "--vocab", "v.yaml", "-n", "2",
            files={"v.yaml": "words: [1, {a: b}]\n"}),
        one("crossword strict vocab", "crossword", "--vocab", "v.yaml", "-n", "2",
            "--strict-vocab", files={"v.yaml": "words:\n  - cat\n  - '123'\n  - dog\n"}),
        one("crossword skip vocab", "crossword", "--vocab", "v.yaml", "-n", "2", "--seed",
            "1", files={"v.yaml": "words:\n  - cat\n  - '123'\n  - dog\n  - bird\n"
                        "  - fish\n  - mouse\n  - horse\n"}),
        one("crossword bad render", "crossword", *base, "--render", "pdf"),
        one("crossword old render", "crossword", *base, "--render", "jsonl", "-n", "2"),
        one("crossword bad jobs", "crossword", *base, "--jobs", "-1"),
        one("crossword bad config", "crossword", "--config", "c.yaml", *base,
            files={"c.yaml": "budget: lots\n"}),
        one("crossword unknown key", "crossword", "--config", "c.yaml", *base,
            files={"c.yaml": "budgett: 3\n"}),
        one("crossword bad styles", "crossword", *base, "--styles", "tail,nope"),
        one("crossword plan bad", "crossword", "plan", "-1"),
    ]
    # kanji
    cases += [
        one("kanji", "kanji", "-n", "5", "--seed", "1"),
        one("kanji text reveal", "kanji", "--preset", "easy", "-n", "2", "--render", "text",
            "--reveal", "--seed", "1"),
        one("kanji svg", "kanji", "-n", "2", "--render", "svg", "-o", "board.svg", "--seed",
            "1"),
        one("kanji svg reveal", "kanji", "-n", "1", "--render", "svg", "--reveal", "--seed",
            "3"),
        one("kanji range", "kanji", "--kanji", "30-40", "--max-grade", "7", "--min-zipf", "3",
            "-n", "30", "--stats", "s.json", "--seed", "1"),
        one("kanji hard", "kanji", "--preset", "hard", "-n", "10", "--seed", "2", "--json"),
        one("kanji base", "kanji", "-n", "10", "--base", "3", "--bring", "10",
            "--base-max-grade", "4", "--hidden-examples", "2", "--seed", "5"),
        one("kanji balanced", "kanji", "-n", "3", "--preset", "normal", "--balanced",
            "--seed", "1", "-o", "fair.jsonl", "--stats", "s.json"),
        one("kanji self-play lookahead", "kanji", "-n", "2", "--self-play", "--player",
            "lookahead", "--player", "greedy@3", "--games", "2", "--seed", "1"),
        one("kanji self-play hidden", "kanji", "-n", "2", "--self-play", "--hidden-words",
            "--limit", "0", "--seed", "1", "--stats", "s.json"),
        one("kanji dict", "kanji", "--dict", f"{EX}/kanji-weather.txt", "--base", "3",
            "--bring", "10", "-n", "1", "--seed", "7"),
        one("kanji check", "kanji", "check", "熱帯", "--pool", f"{EX}/weather-pool.jsonl"),
        one("kanji check json", "kanji", "check", "熱帯", "--pool",
            f"{EX}/weather-pool.jsonl", "--taken", "帯", "--json"),
        one("kanji check no", "kanji", "check", "亜熱帯", "--pool", f"{EX}/weather-pool.jsonl",
            "--id", "0", "--taken", "熱帯"),
        one("kanji check unknown", "kanji", "check", "猫犬", "--pool",
            f"{EX}/weather-pool.jsonl", "--json"),
        one("kanji play", "kanji", "play", "--pool", f"{EX}/weather-pool.jsonl", "--id", "0",
            "--seed", "1"),
        one("kanji play players", "kanji", "play", "--pool", f"{EX}/weather-pool.jsonl",
            "--player", "lookahead", "--player", "greedy@3", "--seed", "2", "--json"),
        one("kanji zero", "kanji", "-n", "0", "--seed", "1", "--stats", "s.json"),
        one("kanji require all", "kanji", "-n", "3", "--kanji", "200-300", "--attempts", "2",
            "--require-all", "--seed", "1"),
        one("kanji out of budget", "kanji", "-n", "3", "--kanji", "200-300", "--attempts",
            "2", "--seed", "1"),
        one("kanji bad preset", "kanji", "--preset", "nope"),
        one("kanji bad range", "kanji", "--kanji", "40-30"),
        one("kanji bad render", "kanji", "--render", "ipuz"),
        one("kanji old render", "kanji", "-n", "1", "--seed", "1", "--render", "jsonl"),
        one("kanji bad player", "kanji", "--self-play", "--player", "psychic"),
        one("kanji bad dict", "kanji", "--dict", "d.txt", "-n", "1", "--strict-vocab",
            files={"d.txt": "猫\nabc\n"}),
        one("kanji bad config", "kanji", "--config", "k.yaml", "-n", "1",
            files={"k.yaml": "presets: 3\n"}),
        one("kanji check bad pool", "kanji", "check", "熱帯", "--pool", "p.jsonl",
            files={"p.jsonl": "{not json\n"}),
    ]
    # schema, init
    for name in ("balance", "balance-game", "crossword-board", "crossword-stats",
                 "kanji-check", "kanji-play", "kanji-pool", "kanji-stats", "pack-manifest",
                 "rarity-compare", "rarity-row", "rarity-stats", "score", "stats-file",
                 "tiles", "tiles-stats"):
        cases.append(one(f"schema {name}", "schema", name))
    cases += [
        one("schema list", "schema", "--list"),
        one("schema bad", "schema", "crossword-bored"),
        one("init list", "init", "--list"),
        case("init twice", step("init", "demo"), step("init", "demo"),
             step("init", "demo", "--force")),
    ]
    # packs
    pack = {"p.yaml": PACK}
    cases += [
        case("pack build check", step("pack", "build", "p.yaml", "--out", "out", "--jobs", "1"),
             step("pack", "check", "p.yaml", "--out", "out"), files=pack),
        case("pack build jobs 2", step("pack", "build", "p.yaml", "--out", "out", "--jobs",
                                       "2"), files=pack),
        case("pack shards merge",
             step("pack", "build", "p.yaml", "--out", "s1", "--shard", "1/2", "--jobs", "1"),
             step("pack", "build", "p.yaml", "--out", "s2", "--shard", "2/2", "--jobs", "1"),
             step("pack", "merge", "p.yaml", "s1", "s2", "--out", "out"),
             step("pack", "check", "p.yaml", "--out", "out"), files=pack),
        case("pack preview export",
             step("pack", "build", "p.yaml", "--out", "out", "-q"),
             step("pack", "preview", "out", "-o", "preview.html"),
             step("pack", "export", "out", "--format", "sqlite", "-o", "pack.sqlite"),
             step("pack", "export", "out", "--format", "json", "-o", "pack.json"),
             step("pack", "export", "out", "--format", "csv", "-o", "pack-csv"), files=pack),
        case("pack stale", step("pack", "build", "p.yaml", "--out", "out", "-q"),
             step("sh:rm", "out/words.jsonl"),
             step("pack", "check", "p.yaml", "--out", "out"),
             step("pack", "export", "out", "--format", "json", "-o", "x.json"),
             step("pack", "build", "p.yaml", "--out", "out"),
             step("pack", "build", "p.yaml", "--out", "out", "--force"), files=pack),
        case("pack example", step("pack", "build", f"{EX}/pack.yaml", "--out", "out"),
             step("pack", "preview", "out", "-o", "p.html")),
        one("pack missing", "pack", "build", "nope.yaml", "--out", "out"),
        one("pack bad shard", "pack", "build", "p.yaml", "--out", "out", "--shard", "3/2",
            files=pack),
        one("pack check missing out", "pack", "check", "p.yaml", "--out", "out", files=pack),
        one("pack preview missing", "pack", "preview", "nowhere", "-o", "p.html"),
        one("pack export bad format", "pack", "export", "nowhere", "--format", "xml"),
        one("pack merge one", "pack", "merge", "p.yaml", "s1", "--out", "out", files=pack),
    ]
    for kind, body in (
            ("crossword", "vocab: {EX}/tech.yaml\n    count: 5\n    render: [sheet]"),
            ("crossword", "vocab: {EX}/tech.yaml\n    count: 5\n    style: bogus"),
            ("crossword", "vocab: {EX}/tech.yaml\n    count: -1"),
            ("crossword", "vocab: {EX}/tech.yaml\n    count: 5\n    band: [9, 3]"),
            ("crossword", "count: 5"),
            ("endless", "vocab: {EX}/tech.yaml\n    count: 5\n    band: [4, 5]"),
            ("challenge", "vocab: {EX}/animals-en.yaml\n    count: 1\n    budget: 0"),
            ("kanji", "count: 5\n    preset: nope"),
            ("kanji", "count: 5\n    kanji: 50-40"),
            ("kanji", "count: 3\n    balanced: true\n    players: [greedy, lookahead]"),
            ("kanji", "count: 2\n    self_play: true\n    players: [nope]"),
            ("rarity", "vocab: {EX}/words.yaml\n    count: 3"),
            ("rarity", "vocab: {EX}/words.yaml\n    gold_rush: true\n    lemma: false"),
            ("balance", "count: 4\n    players: [all, Z9]"),
            ("balance", "count: 4\n    players: [A1, A2, B1]\n    powerups: false"),
            ("balance", "count: 4\n    turns: 0"),
            ("dice", "count: 4"),
            ("crossword", "vocab: {EX}/tech.yaml\n    count: 5\n    colour: red"),
    ):
        text = f"name: t\nseed: 1\nsections:\n  - name: s\n    kind: {kind}\n    {body}\n"
        cases.append(case(f"pack section {kind} {len(cases)}",
                          step("pack", "build", "p.yaml", "--out", "out", "--jobs", "1"),
                          files={"p.yaml": text}))
    for bad in ("seed: -1\nsections: []\n", "name: x\n", "[1, 2]\n", "seed: 1\nsections:\n"
                "  - name: a\n    kind: rarity\n    vocab: {EX}/words.yaml\n"
                "  - name: a\n    kind: rarity\n    vocab: {EX}/words.yaml\n",
                "seed: 1\nsections: [{name: 'A B', kind: rarity, vocab: x.yaml}]\n",
                "\tseed: 1\n", "seed: 1\nsections:\n  - kind: kanji\n    count: 1\n"):
        cases.append(case(f"pack config {len(cases)}",
                          step("pack", "build", "p.yaml", "--out", "out"),
                          files={"p.yaml": bad}))
    return cases


def frozen_cases() -> list[dict[str, Any]]:
    path = ROOT / "tests" / "frozen_refusals.json"
    if not path.exists():  # (the refusals became tests of their subjects: none frozen)
        return []
    frozen = json.loads(path.read_text(encoding="utf-8"))
    return [case(f"refusal {i} {c['area']} {c['argv'][0]}", step(*c["argv"]), files=c["files"])
            for i, c in enumerate(frozen)]


def materialise(files: dict[str, Any], work: Path, examples: str) -> None:
    for rel, content in files.items():
        path = work / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict) and "link" in content:
            path.symlink_to(content["link"].replace(EX, examples))
        elif isinstance(content, dict):
            path.write_bytes(base64.b64decode(content["b64"]))
        else:
            path.write_text(content.replace(EX, examples), encoding="utf-8")


def snapshot(work: Path) -> dict[str, str]:
    """Every file in the folder, by digest (a statistics file's ``timing`` taken out)."""
    files = {}
    for path in sorted(work.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        if path.suffix == ".json":
            try:
                doc = json.loads(data)
            except ValueError:
                doc = None
            if isinstance(doc, dict) and "timing" in doc:
                doc.pop("timing")
                data = json.dumps(doc, sort_keys=True).encode()
        files[str(path.relative_to(work))] = hashlib.sha256(data).hexdigest()
    return files


def run_side(exe: str, item: dict[str, Any], work: Path, examples: str) -> dict[str, Any]:
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    materialise(item["files"], work, examples)
    steps = []
    for s in item["steps"]:
        argv = [a.replace(EX, examples) for a in s["argv"]]
        if argv[0].startswith("sh:"):
            subprocess.run([argv[0][3:], *argv[1:]], cwd=work, check=True)
            continue
        done = subprocess.run([exe, *argv], cwd=work, capture_output=True, timeout=600,
                              input=(s["stdin"] or "").encode())
        steps.append({"rc": done.returncode,
                      "stdout": done.stdout.decode("utf-8", "replace"),
                      "stderr": TIMING.sub("T", done.stderr.decode("utf-8", "replace"))})
    return {"steps": steps, "files": snapshot(work)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", required=True, help="the other side's wfkit executable (B)")
    parser.add_argument("--only", default="", help="run the cases whose name holds this")
    parser.add_argument("--work", default="", help="the folder to run in (default: a temp one)")
    parser.add_argument("--show", type=int, default=5, help="differences printed in full")
    args = parser.parse_args()
    examples = str(ROOT / "examples")
    work = Path(args.work or f"/tmp/wfkit-diff-{Path(HERE).parent.parent.name}") / "case"
    cases = [c for c in written_cases() + frozen_cases() if args.only in c["name"]]
    same, differ, start = 0, [], time.monotonic()
    for i, item in enumerate(cases):
        a = run_side(HERE, item, work, examples)
        b = run_side(args.other, item, work, examples)
        if a == b:
            same += 1
        else:
            differ.append(item["name"])
            if len(differ) <= args.show:
                print(f"DIFFERS: {item['name']}\n A: {json.dumps(a, ensure_ascii=False)[:3000]}"
                      f"\n B: {json.dumps(b, ensure_ascii=False)[:3000]}", flush=True)
        if (i + 1) % 25 == 0:
            print(f"{i + 1}/{len(cases)} ({time.monotonic() - start:.0f} s)", flush=True)
    shutil.rmtree(work.parent, ignore_errors=True)
    steps = sum(len(c["steps"]) for c in cases)
    print(f"{same} of {len(cases)} cases identical ({steps} commands a side)"
          + (f"; differ: {', '.join(differ)}" if differ else ""))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
