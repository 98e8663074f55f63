"""The article's answer rules for one move: is WORD a legal answer on this board?

1. it is in the dictionary                               (辞書にない熟語です)
2. its kanji are all on the board (our rule: a word cannot be made from tiles that are not there)
3. it takes at least one kanji nobody holds yet           (手つかずな漢字を1字以上選んでください)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from wordforge_cli.kanji.dictionary import Dictionary

NOT_IN_DICTIONARY = "辞書にない熟語です"
NOT_ON_BOARD = "盤面にない漢字が含まれています"
NOTHING_NEW = "手つかずな漢字を1字以上選んでください"


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str
    new_kanji: tuple[str, ...] = ()   # kanji the answer would take
    missing: tuple[str, ...] = ()     # kanji of the answer that are not on the board


def check_answer(word: str, board: Iterable[str], dictionary: Dictionary,
                 taken: Iterable[str] = ()) -> Verdict:
    word = word.strip()
    if word not in dictionary.ids:
        return Verdict(False, NOT_IN_DICTIONARY)
    on_board = set(board)
    missing = tuple(dict.fromkeys(ch for ch in word if ch not in on_board))
    if missing:
        return Verdict(False, f"{NOT_ON_BOARD}: {''.join(missing)}", missing=missing)
    held = set(taken)
    new = tuple(dict.fromkeys(ch for ch in word if ch not in held))
    if not new:
        return Verdict(False, NOTHING_NEW)
    return Verdict(True, f"OK: 手つかずな漢字 {''.join(new)} を取れます", new_kanji=new)
