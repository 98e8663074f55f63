"""Generation alone (``sets.batch``: item seeds, the deck, attempts, finished boards), CPU
seconds in this process, beside another checkout's generation run alternately.

    .venv/bin/python bench/bench_generation.py                       # this checkout only
    .venv/bin/python bench/bench_generation.py --against ../main     # and main's, alternately

Cases: the example vocabularies (20,000 boards) and English vocabularies of 3,000 and 100,000
words from data/english.tsv (3,000 boards; taken as ``bench_crossword.py --scaling`` takes
them). The cycle collector runs at the threshold the command sets for a run
(``commands.crossword``), so the figure is the command's generation.

The whole command's figures are bench_crossword.py's ``--whole`` (its ``costs`` table has the
same generation row); this one isolates the generator, for work on it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# (vocabulary: an example file, or "english:N" for N words of data/english.tsv, band, layout,
# boards)
CASES = (("tech.yaml", 4, 5, "loose", 20000), ("tech.yaml", 3, 6, "strict", 20000),
         ("animals-en.yaml", 4, 5, "loose", 20000), ("english:3000", 4, 5, "loose", 3000),
         ("english:100000", 4, 5, "loose", 3000))
CHILD = """
import gc, json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from wordforge_cli.crossword.board import Request
from wordforge_cli.crossword.lexicon import prepare
from wordforge_cli.crossword.sets import batch
from wordforge_cli.io.vocab import read_vocab
vocab, lo, hi, layout, n, seed = sys.argv[2:8]
lexicon = prepare(read_vocab(Path(sys.argv[1]) / "examples" / vocab if "/" not in vocab
                             else Path(vocab)))
gc.set_threshold(100_000, 50, 100)  # as the command runs (commands.crossword)
t = time.process_time()
made = sum(1 for _i, _s, b in batch(lexicon, Request(int(lo), int(hi), layout=layout),
                                    int(seed), int(n)) if b is not None)
print(json.dumps({"cpu": time.process_time() - t, "made": made}))
"""


def english(size: int, tmp: Path) -> str:
    """A file of ``size`` English words from data/english.tsv (every k-th, as
    ``bench_crossword.py --scaling`` takes them): its path."""
    words = []
    for line in (ROOT / "data" / "english.tsv").read_text(encoding="utf-8").splitlines():
        w = line.split("\t", 1)[0]
        if w.isascii() and w.isalpha() and len(w) >= 3:
            words.append(w)
    path = tmp / f"english-{size}.txt"
    path.write_text("\n".join(words[::max(1, len(words) // size)][:size]) + "\n",
                    encoding="utf-8")
    return str(path)


def run(root: Path, vocab: str, case: tuple[str, int, int, str, int], n: int,
        seed: int) -> float:
    """CPU seconds of one generation of n boards in a fresh process of checkout ``root``."""
    python = root / ".venv" / "bin" / "python"
    out = subprocess.run([str(python if python.exists() else sys.executable), "-c", CHILD,
                          str(root), vocab, *map(str, case[1:4]), str(n), str(seed)],
                         capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout)["cpu"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, help="boards of every case (default: the case's)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another checkout (its .venv if any)")
    args = parser.parse_args()
    roots = {"this": ROOT, **({"other": args.against.resolve()} if args.against else {})}
    load = os.getloadavg()
    print(f"## generation (sets.batch), CPU s, median of {args.runs} alternating runs (load "
          f"average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the start)\n")
    print("| vocabulary | band | layout | boards | " + " | ".join(f"{k} CPU s" for k in roots)
          + (" | other / this |" if args.against else " |"))
    print("|---|---|---|---|" + "---|" * len(roots) + ("---|" if args.against else ""))
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        for case in CASES:
            n = args.n or case[4]
            vocab = (english(int(case[0].split(":")[1]), tmp) if case[0].startswith("english:")
                     else case[0])
            times: dict[str, list[float]] = {k: [] for k in roots}
            for r in range(args.runs):
                for name, root in roots.items():
                    times[name].append(run(root, vocab, case, n, r + 1))
            med = {k: statistics.median(v) for k, v in times.items()}
            row = f"| {case[0]} | {case[1]}-{case[2]} | {case[3]} | {n} | " + " | ".join(
                f"{med[k]:.3f}" for k in roots)
            if args.against:
                row += f" | {med['other'] / med['this']:.2f}x"
            print(row + " |", flush=True)
    load = os.getloadavg()
    print(f"\nload average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
