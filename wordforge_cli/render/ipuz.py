"""Boards as ipuz v2 crossword JSON (http://ipuz.org/crossword#1), for ipuz-aware tools.

An ipuz app derives a puzzle's entries from its grid: every run of 2+ cells across or down
is an entry, numbered in standard order (row by row, a number on each cell that starts a
run). So the entries here are the grid's runs, never the placed words: in the strict layout
each run is one placed word and its clue is that word's hint; in the loose layout (the
article's, where words may touch) a run can join several words, or be letters of words that
cross it lying side by side, and its clue says which words it is made of, with their hints.
Every puzzle is consistent in both layouts (the tests' ``check_ipuz``, written apart).

``#`` marks a square with no cell; given letters are pre-filled (``value``); answer cells are
circled (``shapebg: circle``) and the hidden answer word is in ``answer``. Solutions and
given letters are capitals where the script has them (crossword files carry them so).
A vocabulary without hints gets clues that say so, never a bare ``(4)``. The clues wfkit
writes itself (no hint, what a run joins) are in the vocabulary's language as the style labels
are (:data:`CLUE_WORDS`: Japanese for a Japanese vocabulary, English for any other).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from wordforge_cli.crossword.blanks import LANGUAGES, label_language
from wordforge_cli.io.output import dumps_plain, dumps_utf8

if TYPE_CHECKING:
    from wordforge_cli.crossword.board import Board


@lru_cache(maxsize=4096)
def capital(letter: str) -> str:
    """The letter as a crossword grid prints it: upper case where that is one letter."""
    up = letter.upper()
    return up if len(up) == 1 else letter


@dataclass(frozen=True, slots=True)
class ClueWords:
    """The clues wfkit writes itself, in one language (``str.format`` templates): a run that
    is one word without a hint (``no_hint``), a run that joins several words or letters of
    words (``joining`` of its ``parts``, each a word by its hint (``hinted``) or, without
    one, its length (``word``), or a letter ``i`` of a word crossing it (``letter_of_entry``
    by the entry's number and direction, else ``letter_of_word``), put together by ``plus``),
    the directions as a clue names them, and the clue lists' headings."""

    no_hint: str
    joining: str
    plus: str
    hinted: str
    word: str
    letter_of_entry: str
    letter_of_word: str
    directions: Mapping[str, str]
    headings: Mapping[str, str]

    def says_length(self, clue: str, length: int) -> bool:
        """Whether ``clue`` is one of these that says the run's length already (no hint, a
        run joining words): a sheet then adds no ``(4)`` after it."""
        if clue == self.no_hint.format(n=length):
            return True
        head, _, tail = self.joining.partition("{parts}")
        head, tail = head.format(n=length), tail.format(n=length)
        return len(clue) > len(head) + len(tail) and clue.startswith(head) and clue.endswith(
            tail)


# a language of blanks.LANGUAGES -> its clue words; a board shows its vocabulary's
# (blanks.label_language: English for a language the table has no words in)
CLUE_WORDS: dict[str, ClueWords] = {
    "ja": ClueWords(no_hint="語彙にヒントなし（{n}文字）", joining="{parts}をつなぐ{n}文字",
                    plus="＋", hinted="「{hint}」", word="{n}文字の語",
                    letter_of_entry="{direction}{number}の{i}文字目",
                    letter_of_word="{word}の{i}文字目",
                    directions={"across": "ヨコ", "down": "タテ"},
                    headings={"across": "ヨコのカギ", "down": "タテのカギ"}),
    "en": ClueWords(no_hint="no hint in the vocabulary ({n} letters)",
                    joining="{n} letters joining {parts}", plus=" + ", hinted="«{hint}»",
                    word="a {n}-letter word", letter_of_entry="letter {i} of {number}-{direction}",
                    letter_of_word="letter {i} of {word}",
                    directions={"across": "Across", "down": "Down"},
                    headings={"across": "across", "down": "down"}),
}
assert tuple(CLUE_WORDS) == LANGUAGES  # (every language the style labels have)


def clue_words(language: str | None) -> ClueWords:
    """The clue words of a board of a ``language`` vocabulary (``ja``, ``ja-JP``: Japanese;
    any other or none: English), picked as its style labels are."""
    return CLUE_WORDS[label_language(language)]


Placed = tuple[str, int, int, str]  # a placed word: word, x, y, dir
Cell = tuple[int, int, str, int]  # x, y, letter, n (as a board's cells)
Run = tuple[int, int, str, int]  # x, y, dir, length
Grid = list[list[Any]]  # ipuz rows: "#", a number, or a cell object
Clues = dict[str, list[list[Any]]]  # "Across"/"Down" -> [number, clue]
Found = list[tuple[int, int, int, str, int, str]]  # entries: number, x, y, dir, length, clue
# a layout and style -> its (puzzle, solution, clues, answer), shared by the boards that repeat it
IpuzCache = dict[tuple[object, ...], tuple[Grid, Grid, Clues, str]]

# per direction, by cell (y * stride + x): the first placed word lying that way over it
Maps = dict[str, dict[int, Placed]]


def html_text(text: str) -> str:
    """A text for an ipuz text field: the ipuz spec makes every one HTML (``<b>``, ``<i>``,
    ``&amp;``), so a title or hint holding ``<``, ``>`` or ``&`` is escaped, never markup a
    solver's app would run or a bare ``&`` it would misread."""
    if "&" in text or "<" in text or ">" in text:
        import html  # (here: its entity tables cost every ipuz run's start 8M instructions)

        return html.escape(text, quote=False)
    return text


def _hint(hints: Mapping[str, str | None], word: str) -> str | None:
    hint = hints.get(word)
    return html_text(hint) if hint else hint


@lru_cache(maxsize=4096)
def _fill(template: str, n: int = 0, i: int = 0, number: int = 0, direction: str = "") -> str:
    """A template of :data:`CLUE_WORDS` that holds no hint, filled (kept: a batch repeats
    each many times, and parsing a template took more than the rest of its clue)."""
    return template.format(n=n, i=i, number=number, direction=direction)


def _named(w: Placed, hints: Mapping[str, str | None], words: ClueWords) -> str:
    hint = _hint(hints, w[0])
    return words.hinted.format(hint=hint) if hint else _fill(words.word, len(w[0]))


def _maps(words: Sequence[Placed], stride: int) -> Maps:
    """Per direction: cell -> the first placed word lying that way over it (a run's own
    words along it, and the words crossing a run the other way)."""
    across: dict[int, Placed] = {}
    down: dict[int, Placed] = {}
    for w in reversed(words):  # (the first placed is written last: it is the one kept)
        k = w[2] * stride + w[1]
        if w[3] == "across":
            for c in range(k, k + len(w[0])):
                across[c] = w
        else:
            for c in range(k, k + len(w[0]) * stride, stride):
                down[c] = w
    return {"across": across, "down": down}


def run_clue(run: Run, words: list[dict[str, Any]], hints: Mapping[str, str | None],
             entries: Mapping[Run, int] | None = None, language: str | None = None) -> str:
    """The clue of one run: the hint of the word that is the whole run, else what the run
    joins, in order: each word lying along it (by its hint) and each letter of a word that
    crosses it (by that word's entry number when it has one, else its hint). Words are
    never spelled out: the clue must not give the solution away.

    ``entries``: (x, y, dir, length) of the runs -> their numbers; ``language``: the
    vocabulary's (:func:`clue_words`)."""
    placed = [(w["word"], w["x"], w["y"], w["dir"]) for w in words]
    stride = max([run[0] + run[3], *(x + len(wd) for wd, x, _y, _d in placed)]) + 1
    return _run_clue(run, _maps(placed, stride), stride, hints, entries or {},
                     clue_words(language))


def _run_clue(run: Run, maps: Maps, stride: int, hints: Mapping[str, str | None],
              entries: Mapping[Run, int], words: ClueWords) -> str:
    x, y, d, n = run
    along, crossing = (maps["across"], maps["down"]) if d == "across" else (maps["down"],
                                                                             maps["across"])
    k = y * stride + x
    first = along.get(k)
    if first is not None and len(first[0]) == n and first[1] == x and first[2] == y:
        return _hint(hints, first[0]) or _fill(words.no_hint, n)
    step = 1 if d == "across" else stride
    parts: list[str] = []
    last = None
    for s in range(k, k + n * step, step):
        w = along.get(s)
        if w is not None:
            if w is not last:
                parts.append(_named(w, hints, words))
            last = w
            continue
        last = None
        cw = crossing[s]
        i = y - cw[2] if d == "across" else x - cw[1]  # (the letter's index in that word)
        num = entries.get((cw[1], cw[2], cw[3], len(cw[0])))
        parts.append(_fill(words.letter_of_entry, 0, i + 1, num, words.directions[cw[3]])
                     if num else
                     words.letter_of_word.format(i=i + 1, word=_named(cw, hints, words)))
    return words.joining.format(n=n, parts=words.plus.join(parts))


@dataclass(frozen=True, slots=True)
class GridRun:
    """One entry of a board: a run of the grid, its standard number and its clue."""

    number: int
    x: int
    y: int
    dir: str  # "across" or "down"
    length: int
    clue: str


def entries(rec: dict[str, Any], hints: Mapping[str, str | None],
            language: str | None = None) -> list[GridRun]:
    """The board's entries in standard order: every run of 2+ cells, numbered, clued (in the
    ``language`` vocabulary's clue words), the clues as plain text for people's renders (an
    ipuz clue is HTML: a hint's ``&`` is ``&amp;`` there, which a page or a terminal would
    show escaped twice)."""
    from html import unescape  # (here, as in html_text)
    words, cells = _tuples(rec)
    width = max([c[0] for c in cells], default=0) + 1
    return [GridRun(*e[:5], unescape(e[5]))
            for e in _entries(words, cells, width, hints, clue_words(language))[0]]


def _tuples(rec: dict[str, Any]) -> tuple[list[Placed], list[Cell]]:
    """A record's words and cells as a board holds them (cells row by row)."""
    words = [(w["word"], w["x"], w["y"], w["dir"]) for w in rec["words"]]
    cells = [(c["x"], c["y"], c["c"], c["n"]) for c in rec["cells"]]
    if any((a[1], a[0]) >= (b[1], b[0]) for a, b in zip(cells, cells[1:], strict=False)):
        # (not a board's own order: the last cell given at a square is the one shown)
        cells = sorted({(c[0], c[1]): c for c in cells}.values(), key=lambda c: (c[1], c[0]))
    return words, cells


def _entries(words: Sequence[Placed], cells: Sequence[Cell], width: int,
             hints: Mapping[str, str | None], clue: ClueWords) -> tuple[Found, dict[int, int]]:
    """:func:`entries` as plain tuples (number, x, y, dir, length, clue) of a board's words
    and its cells (row by row, ``width`` cells wide), and each start cell's number by
    ``y * (width + 1) + x``.

    The runs are found here, the grid's own (every run of 2+ cells across or down, in
    standard order: by start cell, row by row, across first), as a crossword app derives
    them; the tests' ``check_ipuz`` derives them apart. A cell is the number ``y * (w + 1) + x``,
    with a column left empty at the end of each row, so a neighbour test is one lookup
    (any coordinates a record holds; a made board's text finds the same runs by bit masks,
    :func:`_layout_text`, and the tests hold the two equal)."""
    stride = width + 1
    occupied = {c[1] * stride + c[0] for c in cells}
    runs: list[Run] = []
    keys: dict[Run, int] = {}
    numbers: dict[int, int] = {}
    for x, y, _c, _n in cells:
        k = y * stride + x
        label = 0
        if k + 1 in occupied and k - 1 not in occupied:
            m = 2
            while k + m in occupied:
                m += 1
            label = numbers[k] = len(numbers) + 1
            run = (x, y, "across", m)
            runs.append(run)
            keys[run] = label
        if k + stride in occupied and k - stride not in occupied:
            m = 2
            e = k + 2 * stride
            while e in occupied:
                m += 1
                e += stride
            if not label:
                label = numbers[k] = len(numbers) + 1
            run = (x, y, "down", m)
            runs.append(run)
            keys[run] = label
    return _clued(words, runs, keys, stride, hints, clue), numbers


def _clued(words: Sequence[Placed], runs: list[Run], keys: dict[Run, int], stride: int,
           hints: Mapping[str, str | None], clue_in: ClueWords) -> Found:
    """The entries of a board's runs (in standard order, ``keys``: their numbers), clued:
    a run that is one placed word by its hint, any other by what it joins (in
    ``clue_in``'s words)."""
    placed = {(x, y, d, len(wd)): i for i, (wd, x, y, d) in enumerate(words)}
    # a word can lie over another's start only where some placed word is not a whole run
    overlaid = len(placed) != len(words) or not placed.keys() <= keys.keys()
    maps = None  # (built for the first run that joins words)
    found: Found = []
    for run in runs:
        i = placed.get(run)
        if i is not None and not (overlaid and _overlaid(words, i)):
            # the run is this word
            clue = _hint(hints, words[i][0]) or _fill(clue_in.no_hint, run[3])
        else:
            if maps is None:
                maps = _maps(words, stride)
            clue = _run_clue(run, maps, stride, hints, keys, clue_in)
        found.append((keys[run], *run, clue))
    return found


def _overlaid(words: Sequence[Placed], i: int) -> bool:
    """Whether a word placed before word ``i`` lies along its first cell: the run then
    joins that word too (a shorter word laid over the start of a longer one), and
    :func:`run_clue` names both."""
    _w, x, y, d = words[i]
    for v, vx, vy, vd in words[:i]:
        if vd == d and (vy == y and vx <= x < vx + len(v) if d == "across"
                        else vx == x and vy <= y < vy + len(v)):
            return True
    return False


_CAPITALS: dict[str, str] = {}


def _layout(answer: str, w: int, h: int, words: Sequence[Placed], cells: Sequence[Cell],
            hints: Mapping[str, str | None], clue: ClueWords) -> tuple[Grid, Grid, Clues, str]:
    """The (puzzle, solution, clues, answer) of a board: what a layout and style fix."""
    found, numbers = _entries(words, cells, w, hints, clue)
    stride = w + 1
    puzzle: Grid = [["#"] * w for _ in range(h)]
    solution: Grid = [["#"] * w for _ in range(h)]
    caps = _CAPITALS
    get = numbers.get
    for x, y, c, n in cells:
        label = get(y * stride + x, 0)
        letter = caps.get(c)
        if letter is None:
            letter = capital(c)
            if len(caps) < 4096:
                caps[c] = letter
        puzzle[y][x] = ({"cell": label, "value": letter} if n == -2 else
                        {"cell": label, "style": {"shapebg": "circle"}} if n >= 0 else label)
        solution[y][x] = letter
    across: list[list[Any]] = []
    down: list[list[Any]] = []
    for num, _x, _y, d, _n, text in found:
        (across if d == "across" else down).append([num, text])
    return puzzle, solution, {"Across": across, "Down": down}, "".join(
        [capital(ch) for ch in answer])


def board_ipuz(rec: dict[str, Any], *, hints: Mapping[str, str | None] | None = None,
               title: str | None = None, cache: IpuzCache | None = None,
               language: str | None = None) -> dict[str, Any]:
    """The ipuz document of one board record, the clues wfkit writes in the ``language``
    vocabulary's words (:func:`clue_words`).

    ``cache``: a dict the caller keeps for one vocabulary and one set of hints; boards of
    the same layout and style then share their grid and clues (a small vocabulary repeats
    its layouts thousands of times in a batch). The shared lists are read-only."""
    hints = hints or {}
    shown = label_language(language)
    clue = CLUE_WORDS[shown]
    key: tuple[object, ...] = ()  # read only with a cache
    if cache is not None:
        key = (shown, rec["style"], rec["answer"],
               *((wd["word"], wd["x"], wd["y"], wd["dir"]) for wd in rec["words"]),
               *((c["x"], c["y"], c["n"]) for c in rec["cells"] if c["n"] != -2))
        made = cache.get(key)
        if made is not None:
            return _document(rec, title, *made)
    words, cells = _tuples(rec)
    made = _layout(rec["answer"], rec["w"], rec["h"], words, cells, hints, clue)
    if cache is not None and len(cache) < 16384:
        cache[key] = made
    return _document(rec, title, *made)


def _document(rec: dict[str, Any], title: str | None, puzzle: Grid, solution: Grid, clues: Clues,
              answer: str) -> dict[str, Any]:
    w, h = rec["w"], rec["h"]
    return {
        "version": _HEAD_VALUES["version"],
        "kind": list(_HEAD_VALUES["kind"]),
        "title": html_text(title) if title else f"wfkit crossword #{rec['id']}",
        "origin": f"wfkit crossword, seed {rec['seed']}",
        "block": "#",
        "empty": 0,
        "dimensions": {"width": w, "height": h},
        "puzzle": puzzle,
        "solution": solution,
        "clues": clues,
        "answer": answer,
    }


_HEAD = ("version", "kind")
_TAIL = ("block", "empty", "dimensions", "puzzle", "solution", "clues", "answer")


def board_ipuz_json(rec: dict[str, Any], *, hints: Mapping[str, str | None] | None = None,
                    title: str | None = None, cache: dict[Any, Any] | None = None,
                    language: str | None = None) -> str:
    """``output.dumps_plain(board_ipuz(rec, ...))``: the same bytes, faster.

    ``cache``: a dict the caller keeps for one vocabulary and one set of hints, and records
    whose lists it does not change while the cache lives (``wfkit crossword`` writing its
    records). A record whose words and cells are the very lists of one seen before (a small
    vocabulary's records share their layout's lists) is then its title and origin around
    the JSON of that layout's grid and clues, encoded once (the ipuz JSON was a third of an
    ipuz batch's time)."""
    if cache is None:
        return dumps_plain(board_ipuz(rec, hints=hints, title=title, language=language))
    words, cells = rec["words"], rec["cells"]
    ck = ("json", id(words), id(cells), rec["answer"], rec["w"], rec["h"],
          label_language(language))
    entry = cache.get(ck)
    if entry is None or entry[0] is not words or entry[1] is not cells:
        doc = board_ipuz(rec, hints=hints, title=title, language=language)
        entry = (words, cells, dumps_plain({k: doc[k] for k in _HEAD})[:-1],
                 dumps_plain({k: doc[k] for k in _TAIL})[1:])
        if len(cache) < 16384:  # the lists are kept with their text: their ids stay theirs
            cache[ck] = entry
    title = html_text(title) if title else f"wfkit crossword #{rec['id']}"
    origin = f"wfkit crossword, seed {rec['seed']}"
    return f'{entry[2]},"title":{dumps_plain(title)},"origin":{dumps_plain(origin)},{entry[3]}'


LAYOUT_TEXTS = 8192  # layouts (and styles) whose ipuz text a cache keeps (~23 MB as UTF-8)


def board_ipuz_line(board: Board, board_id: int | str, seed: int, *,
                    hints: Mapping[str, str | None], title: str | None,
                    cache: dict[Any, Any], language: str | None = None) -> bytes:
    """``dumps_plain(board_ipuz(record(board, board_id, seed), hints=hints, title=title,
    language=language))`` in UTF-8 (the same bytes) straight from a made board, without its
    record: what ``wfkit crossword --render ipuz`` writes.

    ``cache``: a dict the caller keeps for one vocabulary and one set of hints. A board's
    layout and style (``board.key``, a small vocabulary's) fix everything but its title and
    origin, so that text is made once per layout and style, from the board's own tuples (a
    record, then a document of lists and dicts, then their JSON, cost a tenth of a
    millisecond a board), and kept, encoded, for :data:`LAYOUT_TEXTS` of them: a board is
    then its title and origin around bytes made once (text of katakana is two bytes a
    character, so joining and encoding each board's ~2,700 characters cost more than
    making them)."""
    key = board.key
    shown = label_language(language)
    ck = ("board", key, board.style, shown)
    tail = cache.get(ck) if key is not None else None
    if tail is None:
        tail = _layout_line(board.answer, board.w, board.h, board.words, board.cells, hints,
                            CLUE_WORDS[shown])
        if key is not None and len(cache) < LAYOUT_TEXTS:
            cache[ck] = tail
    try:
        name = dumps_utf8(html_text(title) if title else f"wfkit crossword #{board_id}")
        origin = (b'"wfkit crossword, seed %d"' % seed if type(seed) is int
                  else dumps_utf8(f"wfkit crossword, seed {seed}"))
    except UnicodeEncodeError:  # (a title from a file name's undecodable bytes): the
        # error the whole line's text gives, at its place in the line, as before
        shown = html_text(title) if title else f"wfkit crossword #{board_id}"
        return (f'{_HEAD_TEXT},"title":{dumps_plain(shown)},'
                f'"origin":{dumps_plain(f"wfkit crossword, seed {seed}")},'
                f'{tail.decode()}').encode()
    return b"%s,\"title\":%s,\"origin\":%s,%s" % (_HEAD_BYTES, name, origin, tail)


def _layout_line(answer: str, w: int, h: int, words: Sequence[Placed], cells: Sequence[Cell],
                 hints: Mapping[str, str | None], clue: ClueWords) -> bytes:
    """The JSON of :func:`_layout`'s document from ``"block"`` to its end in UTF-8, written
    as orjson writes it (the same bytes: the tests hold them equal) but from each letter's and
    cell's JSON, kept per letter, instead of a list and a dict per cell encoded after (and as
    bytes throughout: text holding katakana is two bytes a character, then encoded).

    One pass over a made board's cells (each inside its ``w`` x ``h`` grid) writes both
    grids into a copy of the empty grid's squares (one per cell ``y * (w + 1) + x``, the
    last column holding the row break) and sets the cell's bit; the runs' start cells are
    then a few masks (a cell occupied with its right or lower neighbour and not its left or
    upper one), in standard order by their bits (row by row, across first): the runs
    :func:`_entries` finds cell by cell, at a fraction of the cost."""
    stride = w + 1
    empty = _GRIDS.get((w, h))
    if empty is None:
        empty = _empty_grid(w, h)
    puzzle = empty.copy()
    solution = empty.copy()
    size = len(solution)
    block = _BLOCK
    letters = _LETTER_TEXT
    occupied = 0
    for x, y, c, n in cells:
        k = y * stride + x
        occupied |= 1 << k
        made = letters.get(c)
        if made is None:
            made = _letter_text(c)
        solution[k] = made[0]
        puzzle[k] = made[1] if n == -2 else _CIRCLED if n >= 0 else _CROSSING
    across = occupied & (occupied >> 1) & ~(occupied << 1)
    down = occupied & (occupied >> stride) & ~(occupied << stride)
    starts = across | down
    runs: list[Run] = []
    keys: dict[Run, int] = {}
    label = 0
    while starts:
        bit = starts & -starts
        starts ^= bit
        k = bit.bit_length() - 1
        y, x = divmod(k, stride)
        label += 1
        if across & bit:
            rest = occupied >> k  # (its trailing ones: the run's cells)
            run = (x, y, "across", (rest ^ (rest + 1)).bit_length() - 1)
            runs.append(run)
            keys[run] = label
        if down & bit:
            e = k + 2 * stride
            while e < size and solution[e] is not block:  # (a cell's square: its letter)
                e += stride
            run = (x, y, "down", (e - k) // stride)
            runs.append(run)
            keys[run] = label
        if label >= len(_LABELS):
            _more_labels(label)
        shown = puzzle[k]
        puzzle[k] = (_LABELS[label][0] if shown is _CROSSING else
                     _LABELS[label][1] if shown is _CIRCLED
                     else _LABELS[label][2] + solution[k] + b"}")
    across_clues: list[list[Any]] = []
    down_clues: list[list[Any]] = []
    for num, _x, _y, d, _n, text in _clued(words, runs, keys, stride, hints, clue):
        (across_clues if d == "across" else down_clues).append([num, text])
    return (b'"block":"#","empty":0,"dimensions":{"width":%d,"height":%d},"puzzle":[[%b]],'
            b'"solution":[[%b]],"clues":%b,"answer":%b}'
            % (w, h, b",".join(puzzle).replace(_ROW_BREAK, b"],["),
               b",".join(solution).replace(_ROW_BREAK, b"],["),
               dumps_utf8({"Across": across_clues, "Down": down_clues}),
               dumps_utf8("".join([capital(ch) for ch in answer]))))


_ROW_END = b"\x00"  # the last square of a grid row's squares: no JSON text holds it raw
_ROW_BREAK = b",\x00,"  # a row break in the grid's squares joined by commas
_GRIDS: dict[tuple[int, int], list[bytes]] = {}  # (w, h) -> an empty grid's squares


def _empty_grid(w: int, h: int) -> list[bytes]:
    """A ``w`` x ``h`` grid's squares with no cell, row by row, each row but the last
    closed by a row end (so square ``y * (w + 1) + x`` is the one at x, y)."""
    grid = ([_BLOCK] * w + [_ROW_END]) * h
    del grid[-1]
    if len(_GRIDS) < 1024:
        _GRIDS[(w, h)] = grid
    return grid


_BLOCK = b'"#"'  # a square with no cell (one object: a square is tested by identity)
_CIRCLED = b'{"cell":0,"style":{"shapebg":"circle"}}'  # an unnumbered answer cell
_CROSSING = b"0"  # an unnumbered crossing
# each number's crossing, circled answer cell and the head of its given letter's cell
_LABELS: list[tuple[bytes, bytes, bytes]] = []


def _more_labels(label: int) -> None:
    _LABELS.extend((b"%d" % n, b'{"cell":%d,"style":{"shapebg":"circle"}}' % n,
                    b'{"cell":%d,"value":' % n) for n in range(len(_LABELS), 2 * label + 64))
_LETTER_TEXT: dict[str, tuple[bytes, bytes]] = {}  # letter -> its solution's, given cell's JSON



def _letter_text(c: str) -> tuple[bytes, bytes]:
    letter = dumps_utf8(capital(c))
    made = (letter, b'{"cell":0,"value":%b}' % letter)
    if len(_LETTER_TEXT) < 4096:
        _LETTER_TEXT[c] = made
    return made


_HEAD_VALUES = {"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/crossword#1"]}
_HEAD_TEXT = '{"version":"http://ipuz.org/v2","kind":["http://ipuz.org/crossword#1"]'  # (its JSON)
_HEAD_BYTES = _HEAD_TEXT.encode()
