"""The article's answer rules for one move: is WORD a legal answer on this board?

1. it is in the dictionary                               (辞書にない熟語です)
2. its kanji are all on the board (our rule: a word cannot be made from tiles that are not there)
3. it takes at least one kanji nobody holds yet           (手つかずな漢字を1字以上選んでください)

Each verdict says why in English (``reason``, what the command line prints) and in the
game's Japanese (``reason_ja``, the article's wording where it has one, for a game client):
:data:`REASONS` is the one table of both.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from wordforge_cli.kanji.dictionary import Dictionary

# each verdict's reason: (English, Japanese); {kanji} stands for the kanji it names
REASONS: dict[str, tuple[str, str]] = {
    "not_in_dictionary": ("not a compound in the dictionary", "辞書にない熟語です"),
    "not_on_board": ("holds kanji that are not on the board: {kanji}",
                     "盤面にない漢字が含まれています: {kanji}"),
    "nothing_new": ("takes no kanji nobody holds yet (a move must take at least one)",
                    "手つかずな漢字を1字以上選んでください"),
    "ok": ("OK: takes the untaken kanji {kanji}", "OK: 手つかずな漢字 {kanji} を取れます"),
}


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str  # why, in English
    new_kanji: tuple[str, ...] = ()   # kanji the answer would take
    missing: tuple[str, ...] = ()     # kanji of the answer that are not on the board
    reason_ja: str = ""  # why, in Japanese (the article's words)


def _verdict(rule: str, kanji: tuple[str, ...] = (), **fields: tuple[str, ...]) -> Verdict:
    english, japanese = (text.format(kanji="".join(kanji)) for text in REASONS[rule])
    return Verdict(rule == "ok", english, reason_ja=japanese, **fields)


def check_answer(word: str, board: Iterable[str], dictionary: Dictionary,
                 taken: Iterable[str] = ()) -> Verdict:
    word = word.strip()
    if word not in dictionary.ids:
        return _verdict("not_in_dictionary")
    on_board = set(board)
    missing = tuple(dict.fromkeys(ch for ch in word if ch not in on_board))
    if missing:
        return _verdict("not_on_board", missing, missing=missing)
    held = set(taken)
    new = tuple(dict.fromkeys(ch for ch in word if ch not in held))
    if not new:
        return _verdict("nothing_new")
    return _verdict("ok", new, new_kanji=new)


# --------------------------------------------------------------------------- pool records

MAX_BOARD = 10_000  # kanji on one board: far above any pool wfkit makes (about 50)
MAX_POOL_ID = 2**63 - 1


def pool_problem(record: object) -> str | None:
    """Why a pool record read back from a file cannot be played, or None when it can.

    A pools file may come from anywhere: every field ``kanji check`` uses is checked for its
    type and range here, so a crafted record is one clear error, never an internal one."""
    if not isinstance(record, dict):
        return "not a pool record (a JSON object with 'id' and 'kanji')"
    if "id" not in record:
        return "pool record has no 'id'"
    pool_id = record["id"]
    if not isinstance(pool_id, int) or isinstance(pool_id, bool) or not (
            0 <= pool_id <= MAX_POOL_ID):
        return "pool 'id' must be a whole number from 0"
    board = record.get("kanji")
    if not isinstance(board, list):
        return "not a pool record (no 'kanji' list)"
    if not board or len(board) > MAX_BOARD:
        return f"pool 'kanji' must list 1 to {MAX_BOARD:,} kanji"
    for ch in board:
        if not isinstance(ch, str) or len(ch) != 1 or not ch.isprintable() or ch.isspace():
            return "pool 'kanji' must be a list of single characters"
    if len(set(board)) != len(board):
        return "pool 'kanji' lists a kanji twice"
    words = record.get("words", [])
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        return "pool 'words' must be a list of words"
    return None
