"""A board's record: its JSON object, and its JSON line written without building it.

The record's fields and their order are :data:`RECORD_KEYS`; :func:`record` builds the object
(renders and checks read it), :func:`board_line` writes the same bytes straight from the board
for a batch that only streams JSON Lines, with the parts a small vocabulary's layouts repeat
cached per lexicon.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wordforge_cli.crossword.board import MEMO_BOARDS, Board
from wordforge_cli.crossword.lexicon import Lexicon


def record(board: Board, board_id: int | str, seed: int,
           lexicon: Lexicon | None = None) -> dict[str, Any]:
    """The board's JSON object, fields in this order: id, seed, answer, spelling, w, h, words
    (word, spelling, x, y, dir, and hint when the vocabulary gives one), cells, inputs, style,
    label, blanked, attempts, redraws, fallback.

    ``seed`` is the board's own stream seed: ``random.Random(seed)`` makes it again.
    ``spelling`` is the word as the vocabulary gives it (キャッシュ) beside the grid's folded
    letters (キヤツシユ); without ``lexicon`` it is the grid's spelling. ``hint``: the
    vocabulary's clue for the word, so a board carries its clues to every reader (a game, a
    pack's preview or export) without the vocabulary. ``label``: the
    style's name in the game's words (None when the config names none); ``redraws``: boards
    put back because the style blanked nothing; ``fallback``: made by the fallback band.
    """
    parts = None
    if lexicon is not None and board.key is not None:
        # a small vocabulary's layouts repeat: their JSON-ready parts are built once (the
        # lists are shared by the records of one layout and style: treat them as read-only)
        cache = lexicon.cache.record_parts
        ck = (board.key, board.style)
        parts = cache.get(ck)
        if parts is None:
            parts = _parts(board, lexicon)
            if len(cache) < 2 * MEMO_BOARDS:
                cache[ck] = parts
                # known shared: record_json may encode this layout's part once for all
                lexicon.cache.record_shared[id(parts[1])] = (*parts[1:], {})
    else:
        parts = _parts(board, lexicon)
    spelling, words, cells, inputs = parts
    return {
        "id": board_id,
        "seed": seed,
        "answer": board.answer,
        "spelling": spelling,
        "w": board.w,
        "h": board.h,
        "words": words,
        "cells": cells,
        "inputs": inputs,
        "style": board.style,
        "label": board.label,
        "blanked": board.blanked,
        "attempts": board.attempts,
        "redraws": board.redraws,
        "fallback": board.fallback,
    }


def _parts(board: Board, lexicon: Lexicon | None
           ) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """(answer spelling, words, cells, inputs) of a record."""
    cells = [{"x": x, "y": y, "c": c, "n": n} for x, y, c, n in board.cells]
    if lexicon is not None and board.ids:
        spell = lexicon.spellings
        spellings = [spell[i] for i in board.ids]
        hints = [lexicon.hints[i] for i in board.ids[1:]]
    else:
        spellings = [board.answer, *(w[0] for w in board.words)]
        hints = [None] * len(board.words)
    words: list[dict[str, Any]] = []
    for (w, x, y, d), sp, hint in zip(board.words, spellings[1:], hints, strict=True):
        placed: dict[str, Any] = {"word": w, "spelling": sp, "x": x, "y": y, "dir": d}
        if hint:
            placed["hint"] = hint
        words.append(placed)
    return spellings[0], words, cells, [c for c in cells if c["n"] != -2]



RECORD_KEYS = ("id", "seed", "answer", "spelling", "w", "h", "words", "cells", "inputs",
               "style", "label", "blanked", "attempts", "redraws", "fallback")


def record_json(rec: dict[str, Any], lexicon: Lexicon | None = None) -> str:
    """``output.dumps_plain(rec)`` (the same bytes), for a record :func:`record` built.

    A small vocabulary's records share their layout's parts (see :func:`record`): the JSON
    of everything from ``answer`` to ``blanked`` is then encoded once per layout, style and
    label, and a record is that text with its own id, seed, attempts, redraws and fallback
    around it (encoding was a fifth of a batch's time). Any other record, or one changed
    since :func:`record` made it (another key, other lists), is encoded whole.
    """
    shared = lexicon.cache.record_shared if lexicon is not None else None
    if shared and len(rec) == 15:
        words = rec["words"]
        entry = shared.get(id(words))
        if (entry is not None and entry[0] is words and entry[1] is rec["cells"]
                and entry[2] is rec["inputs"] and tuple(rec) == RECORD_KEYS):
            fk = (rec["answer"], rec["spelling"], rec["w"], rec["h"], rec["style"],
                  rec["label"], rec["blanked"])
            middle = entry[3].get(fk)
            if middle is None:
                middle = entry[3][fk] = _json({k: rec[k] for k in RECORD_KEYS[2:12]})[1:-1]
            fallback = rec["fallback"]
            return (f'{{"id":{_json(rec["id"])},"seed":{_json(rec["seed"])},{middle},'
                    f'"attempts":{_json(rec["attempts"])},"redraws":{_json(rec["redraws"])},'
                    f'"fallback":{"true" if fallback is True else _json(fallback)}}}')
    return _json(rec)


FRAGMENTS_MAX = 1 << 16  # cells' and words' JSON kept per vocabulary (a few MB at most)
LINES_MAX = 2 * MEMO_BOARDS  # layouts (and styles) whose record text is kept


def board_line(board: Board, board_id: int | str, seed: int, lexicon: Lexicon) -> bytes:
    """``record_json(record(board, board_id, seed, lexicon))`` in UTF-8 (the same bytes),
    without building the record: what ``wfkit crossword`` and a pack section write when
    nothing else needs the record.

    The text from ``answer`` to ``blanked`` is fixed by the layout, the style and its label,
    so it is kept per layout (small vocabularies repeat theirs), encoded once: a board is then
    its id, seed and counts around those bytes (as text, a record of katakana is two bytes a
    character, joined and then encoded board after board: most of what writing it cost). A
    layout met for the first time (most are: 20,000 boards of tech.yaml have 6,881 layouts,
    4,673 of them once) is joined from the JSON of its cells and words, each kept once per
    vocabulary, since boards share most of their (x, y, letter, n) cells and placed words."""
    key = board.key
    lines = lexicon.cache.record_lines
    lk = (key, board.style, board.label, board.blanked)
    middle = lines.get(lk) if key is not None else None
    if middle is None:
        middle = _middle(board, lexicon)
        if key is not None and len(lines) < LINES_MAX:
            lines[lk] = middle
    fallback = b"true" if board.fallback else b"false"
    if type(board_id) is int and type(seed) is int:
        return (b'{"id":%d,"seed":%d,%b,"attempts":%d,"redraws":%d,"fallback":%b}'
                % (board_id, seed, middle, board.attempts, board.redraws, fallback))
    return (b'{"id":%b,"seed":%b,%b,"attempts":%d,"redraws":%d,"fallback":%b}'
            % (_json(board_id).encode(), _json(seed).encode(), middle, board.attempts,
               board.redraws, fallback))


def _middle(board: Board, lexicon: Lexicon) -> bytes:
    """The record's JSON from ``"answer"`` to ``"blanked"`` (no braces), in UTF-8: joined
    from its cells', words' and strings' JSON, each kept as bytes per vocabulary."""
    cache = lexicon.cache
    cell_text = cache.cell_json
    text = cache.text_json
    get, tget = cell_text.get, text.get
    spell = lexicon.spellings
    ids = board.ids
    cells = [get(c) or _fragment(cell_text, c, _cell_json, text) for c in board.cells]
    if ids:  # a placed word's text holds its spelling and hint, the lexicon's (kept by the
        # word)
        hints = lexicon.hints
        words = [get(w) or _fragment(cell_text, w, _word_json, text, spell[ids[j]],
                                     hints[ids[j]])
                 for j, w in enumerate(board.words, 1)]
        spelling = spell[ids[0]]
    else:  # a board made without the lexicon's ids: its words are their own spelling
        words = [_word_json(w, text, w[0]) for w in board.words]
        spelling = board.answer
    inputs = [t for t, c in zip(cells, board.cells, strict=False) if c[3] != -2]  # (equal)
    return (b'"answer":%b,"spelling":%b,"w":%d,"h":%d,"words":[%b],"cells":[%b],'
            b'"inputs":[%b],"style":%b,"label":%b,"blanked":%d'
            % (tget(board.answer) or _fragment(text, board.answer, _dumps),
               tget(spelling) or _fragment(text, spelling, _dumps), board.w, board.h,
               b",".join(words), b",".join(cells), b",".join(inputs),
               tget(board.style) or _fragment(text, board.style, _dumps),
               tget(board.label) or _fragment(text, board.label, _dumps), board.blanked))


def _fragment(cache: dict[Any, bytes], key: Any, make: Callable[..., bytes],
              *args: Any) -> bytes:
    """``make(key, *args)``, kept in ``cache`` (bounded) for the next board that has it."""
    made = cache.get(key)
    if made is None:
        made = make(key, *args)
        if len(cache) < FRAGMENTS_MAX:
            cache[key] = made
    return made


def _dumps(value: Any) -> bytes:
    """``output.dumps_utf8`` (bound on first use: an import a call cost a microsecond)."""
    global _dumps_utf8
    if _dumps_utf8 is None:
        from wordforge_cli.io.output import dumps_utf8

        _dumps_utf8 = dumps_utf8
    return _dumps_utf8(value)


_dumps_utf8: Callable[[Any], bytes] | None = None


def _cell_json(cell: tuple[int, int, str, int], text: dict[str | None, bytes]) -> bytes:
    x, y, c, n = cell
    return b'{"x":%d,"y":%d,"c":%b,"n":%d}' % (x, y, text.get(c) or _fragment(text, c, _dumps),
                                              n)


def _word_json(word: tuple[str, int, int, str], text: dict[str | None, bytes],
               spelling: str, hint: str | None = None) -> bytes:
    w, x, y, d = word
    return (b'{"word":%b,"spelling":%b,"x":%d,"y":%d,"dir":%b%b}'
            % (text.get(w) or _fragment(text, w, _dumps),
               text.get(spelling) or _fragment(text, spelling, _dumps), x, y,
               text.get(d) or _fragment(text, d, _dumps),
               b',"hint":' + _dumps(hint) if hint else b""))


def _json(value: Any) -> str:
    """``output.dumps_plain(value)``, a whole number or ``false`` without the call."""
    if type(value) is int:
        return str(value)
    if value is False:
        return "false"
    from wordforge_cli.io.output import dumps_plain

    return dumps_plain(value)
