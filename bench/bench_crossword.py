"""Crossword benchmark: boards/s beside the Node anchor (same run, same words, same bands),
the time to refuse an impossible request, peak memory streaming many boards, and the
blank-failure table of both vocabularies and both layouts.

    /work/venv/bin/python bench/bench_crossword.py                 # speed, refusal, table
    /work/venv/bin/python bench/bench_crossword.py --million        # + 1,000,000-board stream

Ratios are medians of --runs runs; the machine is shared, so only ratios measured in the same
run mean anything.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wordforge_cli.crossword.board import Request, check_request  # noqa: E402
from wordforge_cli.crossword.lexicon import prepare  # noqa: E402
from wordforge_cli.crossword.sets import batch  # noqa: E402
from wordforge_cli.crossword.stats import BatchStats  # noqa: E402
from wordforge_cli.errors import UsageError  # noqa: E402
from wordforge_cli.vocab import read_vocab  # noqa: E402

ANCHOR = Path("/work/shared/anchors/seedgen.js")
BANDS = ((3, 3), (4, 4), (4, 5), (5, 5), (5, 6))
VOCABS = ("tech.yaml", "animals-en.yaml")
WFKIT = [sys.executable, "-m", "wordforge_cli"]


def ours_ms(lexicon, band, layout, n, seed) -> float:
    request = Request(band[0], band[1], layout=layout)
    start = time.perf_counter()
    made = sum(1 for _i, _s, b in batch(lexicon, request, seed, n) if b is not None)
    elapsed = time.perf_counter() - start
    assert made == n, f"{n - made} boards failed"
    return 1000 * elapsed / n


def anchor(vocab_txt: Path, band, n) -> dict:
    out = subprocess.run(["node", str(ANCHOR), str(vocab_txt), str(n), str(band[0]),
                          str(band[1])], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def speed(args, lexicon, vocab_txt: Path) -> None:
    print(f"## boards per second, one process, {args.n} boards per run, median of "
          f"{args.runs} runs (tech.yaml, 50 words)\n")
    print("| band | anchor ms/board | wfkit loose ms/board | loose x anchor | "
          "wfkit strict ms/board | strict x anchor |")
    print("|---|---|---|---|---|---|")
    for band in BANDS:
        a, lo, st = [], [], []
        for r in range(args.runs):
            a.append(anchor(vocab_txt, band, args.n)["ms_per_board"])
            lo.append(ours_ms(lexicon, band, "loose", args.n, r))
            st.append(ours_ms(lexicon, band, "strict", args.n, r))
        ma, ml, ms = statistics.median(a), statistics.median(lo), statistics.median(st)
        print(f"| {band[0]}-{band[1]} | {ma:.4f} | {ml:.4f} | {ma / ml:.2f}x | {ms:.4f} | "
              f"{ma / ms:.2f}x |", flush=True)
    print()


def refusal(lexicon) -> None:
    print("## impossible request (answer 9-10 letters from tech.yaml)\n")
    core = []
    for _ in range(20):
        fresh = prepare(read_vocab(ROOT / "examples" / "tech.yaml"))
        start = time.perf_counter()
        try:
            check_request(fresh, Request(9, 10))
        except UsageError:
            core.append(1000 * (time.perf_counter() - start))
        else:
            raise AssertionError("the impossible request was not refused")
    whole = []
    for _ in range(5):
        start = time.perf_counter()
        out = subprocess.run([*WFKIT, "crossword", "--vocab", "examples/tech.yaml",
                              "--min-len", "9", "--max-len", "10"], cwd=ROOT,
                             capture_output=True, text=True)
        whole.append(1000 * (time.perf_counter() - start))
        assert out.returncode == 2, out.stderr
    starts = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([*WFKIT, "--version"], cwd=ROOT, capture_output=True, check=True)
        starts.append(1000 * (time.perf_counter() - start))
    startup = statistics.median(starts)
    print(f"- core (`check_request` on a fresh lexicon): median {statistics.median(core):.3f} ms")
    print(f"- whole command (`python -m wordforge_cli crossword ... --min-len 9 --max-len 10`,"
          f" exit 2): median {statistics.median(whole):.0f} ms "
          f"(start-up alone, `wfkit --version`, median of 5: {startup:.0f} ms)\n")


def blank_table(n: int) -> None:
    print(f"## blank-failure rate per style ({n} boards each, answers 4-5 letters, seed 1)\n")
    print("| vocabulary | layout | tail | head | alt | most | attempts median/worst |")
    print("|---|---|---|---|---|---|---|")
    for name in VOCABS:
        lex = prepare(read_vocab(ROOT / "examples" / name))
        for layout in ("loose", "strict"):
            stats = BatchStats(lexicon=lex)
            for _i, _s, board in batch(lex, Request(4, 5, layout=layout), 1, n):
                if board is None:
                    stats.fail()
                else:
                    stats.add(board)
            s = stats.summary()
            cells = [f"{v['rate']}% ({v['boards']}/{v['of']})"
                     for k, v in s["blank_failure"].items() if k != "none"]
            print(f"| {name} | {layout} | {' | '.join(cells)} | "
                  f"{s['attempts']['median']}/{s['attempts']['worst']} |", flush=True)
    print()


def million(count: int) -> None:
    print(f"## {count:,} boards streamed to JSON Lines\n")
    tmp = Path(tempfile.mkdtemp())
    out = tmp / "boards.jsonl"
    # a fresh wrapper process, so getrusage(RUSAGE_CHILDREN) sees only the wfkit child
    # (this process has also waited for node anchors, whose RSS would otherwise count)
    wrapper = ("import resource, subprocess, sys\n"
               "p = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE, text=True)\n"
               "sys.stderr.write(p.stderr)\n"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
               "sys.exit(p.returncode)\n")
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", wrapper, *WFKIT, "crossword", "--vocab",
                           "examples/tech.yaml", "-n", str(count), "--seed", "1", "-o",
                           str(out)], cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr
    rss_mb = int(proc.stdout.strip()) / 1024
    lines = sum(1 for _ in out.open("rb"))
    size = out.stat().st_size
    shutil.rmtree(tmp)
    print(f"- `wfkit crossword --vocab examples/tech.yaml -n {count} --seed 1 -o boards.jsonl`: "
          f"{lines:,} lines, {size / 1e6:.0f} MB, {elapsed:.0f} s, peak RSS {rss_mb:.0f} MB "
          "(getrusage of the child)")
    print("- " + proc.stderr.strip().splitlines()[0].removeprefix("wfkit: "))
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20000, help="boards per run and band")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--table", type=int, default=10000, help="boards per table row")
    parser.add_argument("--million", action="store_true", help="also stream 1,000,000 boards")
    parser.add_argument("--only-million", action="store_true", help="only the stream")
    args = parser.parse_args()
    os.chdir(ROOT)
    if args.only_million:
        million(1_000_000)
        return
    lexicon = prepare(read_vocab(ROOT / "examples" / "tech.yaml"))
    with tempfile.TemporaryDirectory() as tmp:
        vocab_txt = Path(tmp) / "tech.txt"
        vocab_txt.write_text("\n".join(lexicon.words) + "\n", encoding="utf-8")
        if shutil.which("node") and ANCHOR.exists():
            speed(args, lexicon, vocab_txt)
            print("anchor blank failure on the same words, 4-5:",
                  anchor(vocab_txt, (4, 5), args.table)["blank_fail"], "\n")
        else:
            print("(node or the anchor is missing: no speed ratios)\n")
    refusal(lexicon)
    blank_table(args.table)
    if args.million:
        million(1_000_000)


if __name__ == "__main__":
    main()
