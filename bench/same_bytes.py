"""Differential check: the play commands of two installs of wfkit give the same bytes.

Runs each command below with both ``wfkit`` executables (``--before``, the anchor, and
``--after``, this tree's by default), each side in a work folder of its own that holds a copy
of ``examples/`` and the inputs made here, with the same relative paths, so every message
reads alike. Compared per command: the exit status, stdout, stderr (durations and rates
masked), and every file the command wrote (a statistics file's ``timing`` field left out).
A speed change that alters what the play engines choose fails here.

    python bench/same_bytes.py --before /path/to/anchor/.venv/bin/wfkit
    python bench/same_bytes.py --before OTHER --only balance   # the names starting so

Exit status 1 when any command differs.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = str(Path(sys.executable).parent / "wfkit")

# a user's word table (sorted TSV) with a wild tile in the bag: the paths a bundled run skips
TABLE = ["\t".join((w, c, "", "", "")) for w, c in sorted({
    "bee": "A1", "bees": "A2", "beet": "", "eel": "B1", "lee": "", "tee": "A1", "teen": "B2",
    "ten": "A1", "net": "A1", "nest": "B1", "rest": "A2", "tree": "A1", "street": "A2",
    "steer": "C1", "enter": "A2", "renter": "C2", "tenet": "", "terse": "C1", "reset": "B2",
    "zest": "C2", "quiz": "B1", "quest": "B2", "queen": "A2", "sequester": "",
    "a": "A1", "at": "A1", "eat": "A1", "tea": "A1", "seat": "A2", "east": "A2",
}.items())]
WILD_RULES = """\
tiles:
  hand_size: 7
  letters:
    A: [1, 6]
    B: [3, 2]
    E: [1, 12]
    L: [1, 4]
    N: [1, 6]
    Q: [10, 1]
    R: [1, 6]
    S: [1, 6]
    T: [1, 6]
    U: [1, 3]
    Z: [10, 1]
    "?": [0, 2]
"""
PACK = """\
name: same-bytes
seed: 5
sections:
  - name: games
    kind: balance
    count: 150
    players: [all, B1, zipf:3]
  - name: short-games
    kind: balance
    count: 100
    turns: 4
    powerups: false
  - name: played-pools
    kind: kanji
    count: 8
    preset: normal
    self_play: true
    games: 6
    players: [lookahead, greedy@3]
  - name: fair-pools
    kind: kanji
    count: 5
    preset: easy
    balanced: true
"""


def cases() -> dict[str, list[str]]:
    """name -> argv after the executable (paths relative to the side's work folder)."""
    bal = ["balance", "--seed", "1"]
    out: dict[str, list[str]] = {
        "balance-text": [*bal, "-n", "400"],
        "balance-json": [*bal, "-n", "400", "--json"],
        "balance-file": [*bal, "-n", "300", "-o", "out/report.txt"],
        "balance-models": ["balance", "-n", "300", "--seed", "2", "--player", "B1",
                           "--player", "C2"],
        "balance-zipf-json": ["balance", "-n", "300", "--seed", "3", "--player", "zipf:3.5",
                              "--json"],
        "balance-A1": ["balance", "-n", "300", "--seed", "8", "--player", "A1", "--json"],
        "balance-3-seats": ["balance", "-n", "200", "--seed", "4", "--players", "3"],
        "balance-4-seats-json": ["balance", "-n", "100", "--seed", "5", "--players", "4",
                                 "--turns", "15", "--json"],
        "balance-8-seats": ["balance", "-n", "20", "--seed", "13", "--players", "8",
                            "--turns", "3", "--player", "all", "--json"],
        "balance-1-seat": ["balance", "-n", "150", "--seed", "12", "--players", "1"],
        "balance-1-turn": ["balance", "-n", "300", "--seed", "14", "--turns", "1", "--json"],
        "balance-no-powerups": ["balance", "-n", "300", "--seed", "6", "--no-powerups"],
        "balance-use-at-0": ["balance", "-n", "300", "--seed", "7", "--use-at", "0", "--json"],
        "balance-compare": [*bal, "-n", "300", "--compare", "examples/rarity-no-short-cap.yaml"],
        "balance-compare-json": [*bal, "-n", "200", "--compare",
                                 "examples/rarity-retuned.yaml", "--json"],
        "balance-round-robin": ["balance", "-n", "100", "--round-robin", "--player", "B1",
                                "--player", "B2", "--player", "C2", "--seed", "1"],
        "balance-round-robin-json": ["balance", "-n", "80", "--round-robin", "--player", "A2",
                                     "--player", "all", "--player", "zipf:4", "--seed", "2",
                                     "--json"],
        "balance-tables": ["balance", "-n", "150", "--seed", "9", "--cefr",
                           "examples/article-cefr.yaml", "--overrides",
                           "examples/article-overrides.yaml", "--json"],
        "balance-no-lemma": ["balance", "-n", "150", "--seed", "10", "--no-lemma"],
        "balance-own-table-wild": ["balance", "-n", "300", "--seed", "11", "--data",
                                   "words.tsv", "--config", "wild.yaml", "--json"],
        "balance-retuned-3": ["balance", "-n", "150", "--seed", "15", "--config",
                              "examples/rarity-retuned.yaml", "--players", "3",
                              "--player", "A2", "--player", "B2", "--player", "all"],
        "balance-refused-seats": ["balance", "-n", "10", "--players", "9"],
        "balance-refused-player": ["balance", "-n", "10", "--player", "nobody"],
        "balance-quiet": ["balance", "-n", "5", "--turns", "2", "--seed", "99", "-q"],
    }
    for n, (hand, extra) in enumerate((
            ("QUAFFE?TRS", ["-k", "5"]), ("ABCDEFGHIJ", []), ("??EEE", ["-k", "20", "--json"]),
            ("ZZQQXXJJKK", []), ("aeinrstlop", ["-k", "50"]), ("??????????", ["-k", "3"]),
            ("RETAINS?", ["-k", "30", "--config", "examples/rarity-retuned.yaml"]),
            ("STREET?", ["-k", "8", "--data", "words.tsv"]),
            ("ETAOINSHRD", ["-k", "100", "--json", "--cefr", "examples/article-cefr.yaml"]))):
        out[f"tiles-best-{n}"] = ["tiles", "--hand", hand, "--best", *extra]
    out["tiles-deals"] = ["tiles", "--players", "4", "-n", "300", "--seed", "7", "--json",
                          "-o", "out/deals.jsonl", "--stats", "out/deals-stats.json"]
    kan = ["kanji", "-q"]
    out.update({
        "kanji-self-play": [*kan, "-n", "20", "--self-play", "--seed", "1"],
        "kanji-self-play-stats": ["kanji", "-n", "20", "--self-play", "--games", "10",
                                  "--seed", "2", "-o", "out/pools.jsonl",
                                  "--stats", "out/stats.json"],
        "kanji-self-play-jobs-1": [*kan, "-n", "12", "--self-play", "--seed", "2",
                                   "--jobs", "1"],
        "kanji-balanced-easy": ["kanji", "-n", "10", "--preset", "easy", "--balanced",
                                "--seed", "1"],
        "kanji-balanced-hard": [*kan, "-n", "8", "--preset", "hard", "--balanced",
                                "--seed", "3", "--band", "0.05", "--json"],
        "kanji-lookahead": [*kan, "-n", "10", "--self-play", "--player", "lookahead",
                            "--player", "greedy", "--seed", "4"],
        "kanji-floors": [*kan, "-n", "10", "--self-play", "--player", "greedy@3.5",
                         "--player", "lookahead@shown", "--seed", "5"],
        "kanji-no-limit": [*kan, "-n", "10", "--self-play", "--limit", "0", "--seed", "6",
                           "--games", "6"],
        "kanji-hidden-words": [*kan, "-n", "10", "--self-play", "--hidden-words",
                               "--player", "greedy@3", "--seed", "7"],
        "kanji-text": [*kan, "-n", "4", "--self-play", "--render", "text", "--reveal",
                       "--seed", "8"],
        "kanji-make-pools": [*kan, "-n", "6", "--preset", "hard", "--seed", "9",
                             "-o", "out/hard.jsonl"],
        "kanji-play": ["kanji", "play", "--pool", "examples/weather-pool.jsonl", "--id", "0",
                       "--seed", "1"],
        "kanji-play-lookahead": ["kanji", "play", "--pool", "examples/weather-pool.jsonl",
                                 "--player", "lookahead", "--player", "greedy@3", "--seed",
                                 "2", "--json"],
        "kanji-play-hard": ["kanji", "play", "--pool", "out/hard.jsonl", "--id", "3",
                            "--player", "lookahead", "--player", "lookahead", "--limit", "0",
                            "--seed", "3"],
        "kanji-play-hidden": ["kanji", "play", "--pool", "out/hard.jsonl", "--id", "5",
                              "--hidden-words", "--player", "greedy@2.5", "--seed", "4",
                              "--json"],
        "pack-play": ["pack", "build", "pack.yaml", "--out", "out/pack", "--jobs", "2"],
    })
    return out


TIMING = [
    (re.compile(rb"[0-9][0-9,]*(\.[0-9]+)? ?(s|ms|/s)\b"), b"<time>"),
    (re.compile(rb"[0-9][0-9,]*(\.[0-9]+)? (pools|boards|games|words|items)/s"),
     b"<rate>"),
]
STATS_TIMING = re.compile(rb',?"timing":\{[^{}]*\}')


def _mask(data: bytes) -> bytes:
    for pattern, repl in TIMING:
        data = pattern.sub(repl, data)
    return data


def _prepare(work: Path) -> None:
    shutil.copytree(ROOT / "examples", work / "examples")
    (work / "out").mkdir()
    (work / "words.tsv").write_text("\n".join(TABLE) + "\n", encoding="utf-8")
    (work / "wild.yaml").write_text(WILD_RULES, encoding="utf-8")
    (work / "pack.yaml").write_text(PACK, encoding="utf-8")


def _files(work: Path) -> dict[str, str]:
    """Every file under out/: its sha256 (a stats file's timing left out)."""
    seen = {}
    for path in sorted((work / "out").rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if path.suffix == ".json":
                data = STATS_TIMING.sub(b"", data)
            seen[str(path.relative_to(work))] = hashlib.sha256(data).hexdigest()
    return seen


def run(exe: str, work: Path, argv: list[str]) -> tuple[int, bytes, bytes, dict[str, str]]:
    """Exit status, stdout, stderr (masked) and the files this command wrote or changed."""
    env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache"), "COLUMNS": "100"}
    before = _files(work)
    done = subprocess.run([exe, *argv], cwd=work, capture_output=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=900)
    wrote = {k: v for k, v in _files(work).items() if before.get(k) != v}
    return done.returncode, done.stdout, _mask(done.stderr), wrote


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the anchor's wfkit")
    parser.add_argument("--after", default=HERE, help="this tree's wfkit (default)")
    parser.add_argument("--only", default="", help="only the commands whose name starts so")
    parser.add_argument("--keep", help="keep both work folders under this folder")
    a = parser.parse_args()
    chosen = {k: v for k, v in cases().items() if k.startswith(a.only)}
    tmp = Path(a.keep or tempfile.mkdtemp(prefix="same-bytes-"))
    sides = {"before": tmp / "before", "after": tmp / "after"}
    for work in sides.values():
        if work.exists():
            shutil.rmtree(work)
        work.mkdir(parents=True)
        _prepare(work)
    same = 0
    for name, argv in chosen.items():
        before = run(a.before, sides["before"], argv)
        after = run(a.after, sides["after"], argv)
        what = [part for part, x, y in zip(("exit status", "stdout", "stderr", "files"),
                                           before, after, strict=True) if x != y]
        files = len(after[3])
        if what:
            print(f"DIFFERS  {name}: {', '.join(what)}  (wfkit {' '.join(argv)})")
        else:
            same += 1
            print(f"same     {name}: exit {after[0]}, {len(after[1]):,} bytes out, "
                  f"{files} files written")
    print(f"{same} of {len(chosen)} commands byte-identical (exit status, stdout, stderr "
          "without durations, files)")
    if not a.keep:
        shutil.rmtree(tmp)
    sys.exit(0 if same == len(chosen) else 1)


if __name__ == "__main__":
    main()
