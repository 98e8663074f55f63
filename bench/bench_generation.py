"""Generation alone (``sets.batch``: item seeds, the deck, attempts, finished boards), CPU
seconds in this process, beside another checkout's generation run alternately.

    .venv/bin/python bench/bench_generation.py                       # this checkout only
    .venv/bin/python bench/bench_generation.py --against ../main     # and main's, alternately

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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = (("tech.yaml", 4, 5, "loose"), ("tech.yaml", 3, 6, "strict"),
         ("animals-en.yaml", 4, 5, "loose"))
CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from wordforge_cli.crossword.board import Request
from wordforge_cli.crossword.lexicon import prepare
from wordforge_cli.crossword.sets import batch
from wordforge_cli.vocab import read_vocab
vocab, lo, hi, layout, n, seed = sys.argv[2:8]
lexicon = prepare(read_vocab(Path(sys.argv[1]) / "examples" / vocab))
t = time.process_time()
made = sum(1 for _i, _s, b in batch(lexicon, Request(int(lo), int(hi), layout=layout),
                                    int(seed), int(n)) if b is not None)
print(json.dumps({"cpu": time.process_time() - t, "made": made}))
"""


def run(root: Path, case: tuple[str, int, int, str], n: int, seed: int) -> float:
    """CPU seconds of one generation of n boards in a fresh process of checkout ``root``."""
    python = root / ".venv" / "bin" / "python"
    out = subprocess.run([str(python if python.exists() else sys.executable), "-c", CHILD,
                          str(root), *map(str, case), str(n), str(seed)],
                         capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout)["cpu"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another checkout (its .venv if any)")
    args = parser.parse_args()
    roots = {"this": ROOT, **({"other": args.against.resolve()} if args.against else {})}
    print(f"## generation of {args.n} boards (sets.batch), CPU s, median of {args.runs} "
          "alternating runs\n")
    print("| vocabulary | band | layout | " + " | ".join(f"{k} CPU s" for k in roots)
          + (" | other / this |" if args.against else " |"))
    print("|---|---|---|" + "---|" * len(roots) + ("---|" if args.against else ""))
    for case in CASES:
        times: dict[str, list[float]] = {k: [] for k in roots}
        for r in range(args.runs):
            for name, root in roots.items():
                times[name].append(run(root, case, args.n, r + 1))
        med = {k: statistics.median(v) for k, v in times.items()}
        row = f"| {case[0]} | {case[1]}-{case[2]} | {case[3]} | " + " | ".join(
            f"{med[k]:.3f}" for k in roots)
        if args.against:
            row += f" | {med['other'] / med['this']:.2f}x"
        print(row + " |", flush=True)
    load = os.getloadavg()
    print(f"\nload average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
