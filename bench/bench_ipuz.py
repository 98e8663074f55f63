"""What the ipuz render and the batch statistics cost, in CPU seconds, part by part: the
parts of ``wfkit crossword --vocab examples/tech.yaml -n 20000 --min-len 4 --max-len 5
--render ipuz --stats FILE`` that are not generation, run one after another in this process
on the command's boards (each run from a fresh vocabulary, so its caches fill as in a real
run; medians of --runs).

    .venv/bin/python bench/bench_ipuz.py              # 20,000 boards, 5 runs
    .venv/bin/python bench/bench_ipuz.py -n 100000 --style tail --layout strict

Rows: what the command writes now (``ipuz.board_ipuz_line`` from the boards, UTF-8), the path
through records it replaced (``board.record`` + ``ipuz.board_ipuz_json``), and the
statistics (``BatchStats.add`` for every board, then ``summary``). The whole command beside
the anchor is ``bench/bench_crossword.py --whole``.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wordforge_cli.crossword.board import Request  # noqa: E402
from wordforge_cli.crossword.lexicon import prepare  # noqa: E402
from wordforge_cli.crossword.records import record  # noqa: E402
from wordforge_cli.crossword.sets import batch  # noqa: E402
from wordforge_cli.crossword.stats import BatchStats  # noqa: E402
from wordforge_cli.io.vocab import read_vocab  # noqa: E402
from wordforge_cli.render.ipuz import board_ipuz_json, board_ipuz_line  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--vocab", default="tech.yaml")
    parser.add_argument("--style", default="none")
    parser.add_argument("--layout", default="loose")
    args = parser.parse_args()
    gc.set_threshold(100_000, 50, 100)  # as the command runs (commands.crossword)
    rows: dict[str, list[float]] = {k: [] for k in (
        "ipuz from the boards (ipuz.board_ipuz_line, UTF-8: what the command writes)",
        "ipuz through records (board.record + ipuz.board_ipuz_json: the command before)",
        "statistics (BatchStats add + summary)")}
    names = list(rows)
    layouts = 0
    for r in range(args.runs):
        lexicon = prepare(read_vocab(ROOT / "examples" / args.vocab))
        request = Request(4, 5, args.style, args.layout)
        boards = [(i, s, b) for i, s, b in batch(lexicon, request, r, args.n) if b is not None]
        layouts = len({(b.key, b.style) for _i, _s, b in boards})
        hints = {w: h for w, h in zip(lexicon.words, lexicon.hints, strict=True) if h}
        name = lexicon.name
        cache: dict[object, object] = {}
        t = time.process_time()
        new = [board_ipuz_line(b, i, s, hints=hints, cache=cache, title=f"{name} #{i}",
                               language=lexicon.language)
               for i, s, b in boards]
        rows[names[0]].append(time.process_time() - t)
        cache = {}
        t = time.process_time()
        old = []
        for i, s, b in boards:
            rec = record(b, i, s, lexicon)
            old.append(board_ipuz_json(rec, hints=hints, cache=cache, title=f"{name} #{i}",
                                      language=lexicon.language).encode())
        rows[names[1]].append(time.process_time() - t)
        assert new == old, "the two paths disagree"
        t = time.process_time()
        stats = BatchStats(lexicon=lexicon)
        for _i, _s, b in boards:
            stats.add(b)
        stats.summary()
        rows[names[2]].append(time.process_time() - t)
    load = os.getloadavg()
    print(f"## ipuz and statistics, {args.n} boards 4-5 of {args.vocab} ({args.layout}, style "
          f"{args.style}; {layouts} distinct layouts), CPU s, median of {args.runs} "
          f"(load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f})\n")
    print("| part | CPU s |")
    print("|---|---|")
    for part, values in rows.items():
        print(f"| {part} | {statistics.median(values):.3f} |")


if __name__ == "__main__":
    main()
