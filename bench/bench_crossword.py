"""Crossword benchmark: boards/s beside the Node anchor (same run, same words, same bands),
the user's whole command beside the anchor's whole process, the time to refuse an impossible
request, the worst case of the attempt budget on near-impossible vocabularies, growth from
1,000 to 100,000 words, peak memory streaming many boards (JSON Lines and SVG), and the
blank-failure table of both vocabularies and both layouts.

    .venv/bin/python bench/bench_crossword.py                 # core speed, refusal, table
    .venv/bin/python bench/bench_crossword.py --whole         # whole commands vs the anchor
    .venv/bin/python bench/bench_crossword.py --hard          # the budget's worst case
    .venv/bin/python bench/bench_crossword.py --scaling       # 1,000 .. 100,000 words
    .venv/bin/python bench/bench_crossword.py --svg 100000    # SVG stream, peak RSS
    .venv/bin/python bench/bench_crossword.py --million       # + 1,000,000-board stream

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
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import perf_page  # noqa: E402

from wordforge_cli.core.errors import UsageError  # noqa: E402
from wordforge_cli.crossword.board import Request, check_request  # noqa: E402
from wordforge_cli.crossword.lexicon import prepare  # noqa: E402
from wordforge_cli.crossword.sets import batch  # noqa: E402
from wordforge_cli.crossword.stats import BatchStats  # noqa: E402
from wordforge_cli.io.vocab import read_vocab  # noqa: E402

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
    perf_page.record("crossword: an impossible request refused, in the core", "< 50 ms",
                     f"{statistics.median(core):.3f} ms", "python bench/bench_crossword.py")


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
    if count == 1_000_000:
        perf_page.record("crossword: 1,000,000 boards streamed to JSON Lines, the largest "
                         "process", "< 200 MB", f"{rss_mb:.0f} MB",
                         "python bench/bench_crossword.py --million")


def _compiled() -> None:
    """The package's bytecode written, as ``pip install`` writes it (and an editable install's
    first run): a shell with PYTHONDONTWRITEBYTECODE=1, as this workplace's tools have, would
    otherwise make every timed run compile the modules changed since the last bytecode (0.04 s
    of a whole command's 1.0 s, measured at 21 modules), which no installed wfkit pays."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "wordforge_cli")],
                   check=True, stdout=subprocess.DEVNULL)


def _timed(argv: list[str], cwd: Path = ROOT) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child: user + sys) of one whole process."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def whole(args, vocab_txt: Path) -> None:
    """The user's commands, whole process (start to file written), beside the anchor's whole
    process on the same words and band, run alternately; medians. Each wfkit command runs with
    the default --jobs (every core) and with --jobs 1."""
    n = args.n
    _compiled()
    tmp = Path(tempfile.mkdtemp())
    pack = tmp / "pack.yaml"
    pack.write_text(f"name: bench\nseed: 1\nsections:\n  - name: boards\n    kind: crossword\n"
                    f"    vocab: {ROOT / 'examples' / 'tech.yaml'}\n    count: {n}\n"
                    "    band: [4, 5]\n", encoding="utf-8")
    wfkit = str(Path(sys.executable).parent / "wfkit")
    base = [wfkit, "crossword", "--vocab", "examples/tech.yaml", "-n", str(n), "--min-len",
            "4", "--max-len", "5"]
    commands: dict[str, list[str]] = {
        "anchor": ["node", str(ANCHOR), str(vocab_txt), str(n), "4", "5"]}
    for jobs in ("default", "1"):
        extra = [] if jobs == "default" else ["--jobs", jobs]
        commands[f"json {jobs}"] = [*base, "-o", str(tmp / "b.jsonl"), "--stats",
                                    str(tmp / "s.json"), *extra]
        commands[f"ipuz {jobs}"] = [*base, "--render", "ipuz", "-o", str(tmp / "b.ipuz"),
                                    "--stats", str(tmp / "s2.json"), *extra]
        commands[f"pack {jobs}"] = [wfkit, "pack", "build", str(pack), "--out",
                                    str(tmp / "out"), "--force", *extra]
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
    loads = [os.getloadavg()[0]]
    for r in range(args.runs):
        for name, argv in commands.items():
            if name != "anchor" and not name.startswith("pack"):
                argv = [*argv, "--seed", str(r)]
            times[name].append(_timed(argv))
        loads.append(os.getloadavg()[0])
    load = os.getloadavg()
    print(f"## whole commands, {n} boards, 4-5 letters, tech.yaml (50 words), median of "
          f"{args.runs} alternating runs; load average {load[0]:.1f} {load[1]:.1f} "
          f"{load[2]:.1f} at the end (1-minute load {min(loads):.1f}-{max(loads):.1f} while "
          f"running) on {os.cpu_count()} cores\n")
    print("| command | --jobs | wall s | CPU s | anchor wall / ours | anchor CPU / ours |")
    print("|---|---|---|---|---|---|")
    aw = statistics.median(t[0] for t in times["anchor"])
    ac = statistics.median(t[1] for t in times["anchor"])
    labels = {"anchor": f"node seedgen.js tech.txt {n} 4 5",
              "json": f"wfkit crossword ... -n {n} --min-len 4 --max-len 5 -o FILE --stats F",
              "ipuz": "the same with --render ipuz",
              "pack": f"wfkit pack build (one crossword section of {n}, band 4-5)"}
    for name in commands:
        w = statistics.median(t[0] for t in times[name])
        c = statistics.median(t[1] for t in times[name])
        what, _, jobs = name.partition(" ")
        jobs = {"default": f"default ({os.cpu_count()})", "": "-"}.get(jobs, jobs)
        print(f"| `{labels[what]}` | {jobs} | {w:.2f} | {c:.2f} | {aw / w:.2f}x | "
              f"{ac / c:.2f}x |")
    print()
    figures = {"json": "crossword: 20,000 boards 4-5, JSON Lines + statistics, vs "
                       "`node seedgen.js`",
               "ipuz": "crossword: the same with `--render ipuz`",
               "pack": "crossword: the same as a pack section"}
    if n == 20_000:
        for what, figure in figures.items():
            w = statistics.median(t[0] for t in times[f"{what} default"])
            perf_page.record(figure, ">= 3x", f"{aw / w:.2f}x",
                             f"python bench/bench_crossword.py --whole --runs {args.runs}")
    shutil.rmtree(tmp)


def costs(args) -> None:
    """What each part of the JSON Lines command costs: its stages run one after another in
    this process on the command's 20,000 boards (CPU seconds, ``process_time``, medians; each
    run starts from a fresh vocabulary, so its caches fill as in a real run), and start-up as
    the whole process of ``wfkit --version``."""
    from wordforge_cli.crossword.records import board_line, record
    from wordforge_cli.render.ipuz import board_ipuz_line

    n = args.n
    stages: dict[str, list[float]] = {k: [] for k in (
        "start-up (wfkit --version, whole process)", "reading and preparing the vocabulary",
        "generation (sets.batch: seeds, deck, attempts)",
        "JSON Lines (board.board_line: what the command writes)",
        "records (board.record: what the text and SVG renders read)",
        "ipuz documents (ipuz.board_ipuz_line, from the boards: what --render ipuz writes)",
        "statistics (BatchStats add + summary)")}
    names = list(stages)
    wfkit = str(Path(sys.executable).parent / "wfkit")
    for r in range(args.runs):
        stages[names[0]].append(_timed([wfkit, "--version"])[1])
        t = time.process_time()
        lexicon = prepare(read_vocab(ROOT / "examples" / "tech.yaml"))
        stages[names[1]].append(time.process_time() - t)
        t = time.process_time()
        boards = list(batch(lexicon, Request(4, 5), r, n))
        stages[names[2]].append(time.process_time() - t)
        t = time.process_time()
        for i, s, b in boards:
            board_line(b, i, s, lexicon)
        stages[names[3]].append(time.process_time() - t)
        t = time.process_time()
        for i, s, b in boards:
            record(b, i, s, lexicon)
        stages[names[4]].append(time.process_time() - t)
        hints = {w: h for w, h in zip(lexicon.words, lexicon.hints, strict=True) if h}
        cache: dict = {}
        t = time.process_time()
        for i, s, b in boards:
            board_ipuz_line(b, i, s, hints=hints, cache=cache, title=f"tech #{i}",
                            language=lexicon.language)
        stages[names[5]].append(time.process_time() - t)
        t = time.process_time()
        stats = BatchStats(lexicon=lexicon)
        for _i, _s, b in boards:
            stats.add(b)
        stats.summary()
        stages[names[6]].append(time.process_time() - t)
    load = os.getloadavg()
    print(f"## what each part costs, {n} boards 4-5 of tech.yaml, CPU s, median of {args.runs} "
          f"(load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f})\n")
    print("| part | CPU s |")
    print("|---|---|")
    for name, values in stages.items():
        print(f"| {name} | {statistics.median(values):.3f} |")
    print()


def _letters() -> Iterator[str]:
    """Distinct letters (Unicode category Lo), enough for 75,000 cells."""
    for lo, hi in ((0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0x20000, 0x2A6DF)):
        for cp in range(lo, hi + 1):
            yield chr(cp)


def _hard_vocab(path: Path, n: int, alphabet: str, lo: int, hi: int, seed: int) -> None:
    import random

    rng = random.Random(seed)
    words: set[str] = set()
    if alphabet.startswith("only-a"):  # words cross only at their a's, which are answer cells
        many = int(alphabet.split(":")[1])
        fresh = _letters()
        words.update(("aaaa", "aaaaa"))
        while len(words) < n:
            cells = [next(fresh) for _ in range(rng.randint(lo, hi))]
            for p in rng.sample(range(len(cells)), min(many, len(cells))):
                cells[p] = "a"
            words.add("".join(cells))
        path.write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
        return
    while len(words) < n:
        length = rng.choice((4, 5)) if rng.random() < 0.03 else rng.randint(lo, hi)
        words.add("".join(rng.choice(alphabet) for _ in range(length)))
    path.write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")


HARD_RUNS = (("loose", "none"), ("loose", "most"), ("strict", "none"), ("strict", "most"))


def _budget_cpu(vocab: Path, layout: str, style: str, seed: int) -> tuple[float, float, bool]:
    """In the core: (CPU s reading and preparing the vocabulary, CPU s of one board at the
    default budget after that, made?), the board on a lexicon of its own (no cache shared)."""
    import random

    from wordforge_cli.crossword.board import make_board

    start = time.process_time()
    lexicon = prepare(read_vocab(vocab))
    intake = time.process_time() - start
    start = time.process_time()
    try:
        board = make_board(lexicon, Request(layout=layout, style=style), random.Random(seed))
    except UsageError:
        board = None
    return intake, time.process_time() - start, board is not None


def hard(args) -> None:
    """Near-impossible vocabularies: thousands of long words over few letters (every pair
    crosses in many places, little fits), over many letters (few pairs cross at all), words of
    thousands of letters (two letters, two kana, two kanji, 3,000 kanji), and long words that
    do make boards. One board at the default budget, loose and strict, styles none and most:
    the whole process's CPU, and in the core the CPU of reading the vocabulary and of the
    budget after it. The worsts are the performance page's figures."""
    import resource

    print("## the attempt budget's worst case: one board at the default budget (3000)\n")
    print("| vocabulary | layout | style | result | whole process CPU s (wall s) "
          "| reading CPU s | budget CPU s |")
    print("|---|---|---|---|---|---|---|")
    tmp = Path(tempfile.mkdtemp())
    wfkit = str(Path(sys.executable).parent / "wfkit")
    cjk = "".join(chr(0x4E00 + i) for i in range(3000))
    cases = [("3002 words of 10-14 letters sharing only one a (the answers aaaa, aaaaa)", 3002,
              "only-a:1", 10, 14),
             ("3002 words of 20-24 letters sharing only their six a's", 3002, "only-a:6", 20, 24),
             ("1502 words of 40-48 letters sharing only their 20 a's", 1502, "only-a:20", 40, 48),
             ("18002 words of 3-4 letters sharing only one a", 18002, "only-a:1", 3, 4),
             ("3081 words, 15-40 letters of a-b", 3081, "ab", 15, 40),
             ("3081 words, 20-30 letters of a-f", 3081, "abcdef", 20, 30),
             ("2900 words, 30-60 letters of a-c", 2900, "abc", 30, 60),
             ("3081 words, 10-16 letters of 3000 kanji", 3081, cjk, 10, 16),
             ("20000 words, 12-20 letters of a-d", 20000, "abcd", 12, 20),
             ("3000 words of 3000 letters of a-b (9 million letters)", 3000, "ab", 3000, 3000),
             ("3000 words of 3000 kana of ア and イ", 3000, "アイ", 3000, 3000),
             ("3000 words of 3000 kanji of 一 and 丁", 3000, cjk[:2], 3000, 3000),
             ("3000 words of 3000 letters of 3000 kanji", 3000, cjk, 3000, 3000),
             ("3000 words of 200-1500 letters of 400 kanji (boards made)", 3000, cjk[:400],
              200, 1500)]
    if args.quick:
        cases = cases[-5:]
    worst_whole = worst_budget = (0.0, "")
    for label, n, alphabet, lo, hi in cases:
        vocab = tmp / "hard.txt"
        _hard_vocab(vocab, n, alphabet, lo, hi, 7)
        for layout, style in HARD_RUNS:
            worst = (0.0, 0.0)
            outcome = ""
            for seed in range(args.runs):
                start = time.perf_counter()
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                proc = subprocess.run([wfkit, "crossword", "--vocab", str(vocab), "-n", "1",
                                       "--seed", str(seed), "--layout", layout, "--style",
                                       style, "-o", str(tmp / "o.jsonl")],
                                      capture_output=True, text=True)
                wall = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                if cpu > worst[1]:
                    worst = (wall, cpu)
                    outcome = ("made" if proc.returncode == 0 else
                               "refused at once" if proc.returncode == 2 else "budget ran out")
            core = [_budget_cpu(vocab, layout, style, seed) for seed in range(args.runs)]
            intake = max(c[0] for c in core)
            budget = max(c[1] for c in core)
            print(f"| {label} | {layout} | {style} | {outcome} | {worst[1]:.2f} "
                  f"({worst[0]:.2f}) | {intake:.2f} | {budget:.2f} |", flush=True)
            where = f"{label}, {layout}, {style}"
            worst_whole = max(worst_whole, (worst[1], where))
            worst_budget = max(worst_budget, (budget, where))
    print()
    print(f"- worst budget after reading: {worst_budget[0]:.2f} s CPU ({worst_budget[1]})")
    print(f"- worst whole process: {worst_whole[0]:.2f} s CPU ({worst_whole[1]})\n")
    if not args.quick:
        perf_page.record("crossword: the default budget on near-impossible vocabularies, worst "
                         "case, after reading the vocabulary", "about 1 s",
                         f"{worst_budget[0]:.2f} s CPU",
                         f"python bench/bench_crossword.py --hard --runs {args.runs}")
        perf_page.record("crossword: the same, whole process (reading up to 9 million letters "
                         "included)", "-", f"{worst_whole[0]:.2f} s CPU",
                         f"python bench/bench_crossword.py --hard --runs {args.runs}")
    shutil.rmtree(tmp)


def scaling(args) -> None:
    """Time to the first board (whole process, -n 1) and boards/s (the command's own figure,
    -n 2000) for English vocabularies of 1,000 to 100,000 words from data/english.tsv."""
    words = []
    for line in (ROOT / "data" / "english.tsv").read_text(encoding="utf-8").splitlines():
        w = line.split("\t", 1)[0]
        if w.isascii() and w.isalpha() and len(w) >= 3:
            words.append(w)
    print("## growth with the vocabulary (English words from data/english.tsv, every k-th; "
          "answers 4-5 letters)\n")
    print("| words | first board, whole process (s) | boards/s (-n 2000, in the command) |")
    print("|---|---|---|")
    tmp = Path(tempfile.mkdtemp())
    wfkit = str(Path(sys.executable).parent / "wfkit")
    for size in (1_000, 3_000, 10_000, 30_000, 100_000):
        step = max(1, len(words) // size)
        vocab = tmp / f"v{size}.txt"
        vocab.write_text("\n".join(words[::step][:size]) + "\n", encoding="utf-8")
        firsts = []
        for seed in range(args.runs):
            firsts.append(_timed([wfkit, "crossword", "--vocab", str(vocab), "-n", "1",
                                  "--seed", str(seed), "-o", str(tmp / "o.jsonl")])[0])
        rates = []
        for seed in range(max(1, args.runs // 2)):
            stats = tmp / "s.json"
            subprocess.run([wfkit, "crossword", "--vocab", str(vocab), "-n", "2000", "--seed",
                            str(seed), "-o", str(tmp / "o.jsonl"), "--stats", str(stats)],
                           check=True, capture_output=True)
            rates.append(json.loads(stats.read_text())["timing"]["boards_per_second"])
        print(f"| {size:,} | {statistics.median(firsts):.2f} | {statistics.median(rates):,.0f} |",
              flush=True)
    print()
    shutil.rmtree(tmp)


def svg_stream(count: int) -> None:
    print(f"## {count:,} boards rendered to one SVG\n")
    tmp = Path(tempfile.mkdtemp())
    out = tmp / "boards.svg"
    wrapper = ("import resource, subprocess, sys\n"
               "p = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE, text=True)\n"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
               "sys.exit(p.returncode)\n")
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", wrapper, *WFKIT, "crossword", "--vocab",
                           "examples/tech.yaml", "-n", str(count), "--seed", "1", "--render",
                           "svg", "-o", str(out)], cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr
    rss_mb = int(proc.stdout.strip()) / 1024
    size = out.stat().st_size
    shutil.rmtree(tmp)
    print(f"- `wfkit crossword --vocab examples/tech.yaml -n {count} --seed 1 --render svg "
          f"-o boards.svg`: {size / 1e6:.0f} MB, {elapsed:.0f} s, peak RSS {rss_mb:.0f} MB\n")
    if count == 100_000:
        perf_page.record("crossword `--render svg`, 100,000 boards, peak memory", "< 200 MB",
                         f"{rss_mb:.0f} MB", "python bench/bench_crossword.py --svg 100000")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20000, help="boards per run and band")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--table", type=int, default=10000, help="boards per table row")
    parser.add_argument("--million", action="store_true", help="also stream 1,000,000 boards")
    parser.add_argument("--only-million", action="store_true", help="only the stream")
    parser.add_argument("--whole", action="store_true", help="only the whole commands")
    parser.add_argument("--hard", action="store_true", help="only the budget's worst case")
    parser.add_argument("--quick", action="store_true",
                        help="--hard: only the vocabularies of the longest words, no page rows")
    parser.add_argument("--scaling", action="store_true", help="only 1,000..100,000 words")
    parser.add_argument("--svg", type=int, default=0, help="only an SVG stream of N boards")
    args = parser.parse_args()
    os.chdir(ROOT)
    if args.only_million:
        million(1_000_000)
        return
    if args.svg:
        svg_stream(args.svg)
        return
    if args.hard:
        hard(args)
        return
    if args.scaling:
        scaling(args)
        return
    if args.whole:
        lexicon = prepare(read_vocab(ROOT / "examples" / "tech.yaml"))
        with tempfile.TemporaryDirectory() as tmp:
            vocab_txt = Path(tmp) / "tech.txt"
            vocab_txt.write_text("\n".join(lexicon.words) + "\n", encoding="utf-8")
            whole(args, vocab_txt)
        costs(args)
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
