"""How well a player knows each word of a crossword vocabulary: its Zipf frequency from
wordfreq's list of the vocabulary's language, or for English its CEFR level where the bundled
word table gives one (the crossword engine turns these into probabilities and reads no list
itself: ``crossword.difficulty.known_probability``).

- English: the word's level in ``data/english.tsv`` (or its lemma's, as the rarity rule looks
  them up) counts at that level's median Zipf (``difficulty.LEVEL_ZIPF``); a word without a
  level has wordfreq's English Zipf.
- Another language wordfreq lists (``ja`` among them): the Zipf of the word as the vocabulary
  spells it (キャッシュ), else of its grid letters. wordfreq lists Japanese as its tokenizer
  cut it, so a compound it never saw whole (タイムアウト) counts as two listed words written
  together, with wordfreq's own rule for a phrase (1 / f = 1 / f1 + 1 / f2).
- A word a list lacks has Zipf 0 (rarer than any listed word). A language wordfreq does not
  list: no figures (None), and every word counts as known.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wordforge_cli.batch.kinds import DataFile
    from wordforge_cli.crossword.lexicon import Lexicon

SPLIT_LANGUAGES = ("ja", "zh")  # written without spaces: a word may be two listed ones
SPLIT_MIN = 2  # letters of each part of such a split
SPLIT_LONGEST = 32  # letters of the longest word tried as two (its cuts are looked up)


def word_zipfs(lexicon: Lexicon, *, levels: bool = True
               ) -> tuple[tuple[float | None, ...], str]:
    """Each lexicon word's Zipf for familiarity (None: no list for the language) and where
    the figures come from (``wordfreq:en+cefr``, ``wordfreq:ja``, ``none``); ``levels``
    False: wordfreq's Zipf alone, CEFR levels aside."""
    from wordfreq import available_languages, get_frequency_list

    from wordforge_cli.crossword.difficulty import LEVEL_ZIPF

    lang = lexicon.language or ""
    if lang not in available_languages("best"):
        return (None,) * len(lexicon.words), "none"
    forms = [(s, w) for s, w in zip(lexicon.spellings, lexicon.words, strict=True)]
    wanted = {form for pair in forms for form in pair}
    split = lang in SPLIT_LANGUAGES
    if split:  # both parts of every cut of every word short enough to be tried as two
        wanted |= {part for w in lexicon.words if len(w) <= SPLIT_LONGEST
                   for cut in range(SPLIT_MIN, len(w) - SPLIT_MIN + 1)
                   for part in (w[:cut], w[cut:])}
    zipf = _listed_zipfs(get_frequency_list(lang, "best"), wanted)
    cefr = levels and lang == "en"
    found: Sequence[str | None] = _levels(lexicon.words) if cefr else [None] * len(forms)
    out: list[float | None] = []
    for (spelling, word), level in zip(forms, found, strict=True):
        if level is not None:
            out.append(LEVEL_ZIPF[level])
            continue
        value = zipf.get(spelling)
        if value is None:
            value = zipf.get(word)
        if value is None and split and len(word) <= SPLIT_LONGEST:
            value = _split_zipf(word, zipf)
        out.append(0.0 if value is None else value)
    return tuple(out), f"wordfreq:{lang}" + ("+cefr" if cefr else "")


def _listed_zipfs(bands: list[list[str]], wanted: set[str]) -> dict[str, float]:
    """The Zipf of each wanted form wordfreq lists (its first band: the most frequent)."""
    from wordforge_cli.wordforge.english import band_zipf

    found: dict[str, float] = {}
    for index, band in enumerate(bands):
        for form in wanted.intersection(band):
            found.setdefault(form, band_zipf(index))
    return found


def _split_zipf(word: str, zipf: dict[str, float]) -> float | None:
    """The Zipf of ``word`` as two listed words written together (the split giving the
    highest frequency), by wordfreq's rule for several tokens; None when no split is listed."""
    import math

    best = None
    for cut in range(SPLIT_MIN, len(word) - SPLIT_MIN + 1):
        head, tail = zipf.get(word[:cut]), zipf.get(word[cut:])
        if head is None or tail is None:
            continue
        freq = 1.0 / (10.0 ** (9 - head) + 10.0 ** (9 - tail))  # 1 / (1/f1 + 1/f2)
        value = round(math.log10(freq) + 9.0, 2)
        best = value if best is None else max(best, value)
    return best


def _levels(words: Sequence[str]) -> list[str | None]:
    """Each English word's CEFR level in the bundled word table, or its lemma's."""
    from wordforge_cli.wordforge.english import open_words

    table = open_words(whole=len(words) > 20_000)
    out: list[str | None] = []
    for word in words:
        info = table.get(word)
        level = info[1] if info is not None else None
        if not level and info is not None and info[2]:
            lemma = table.get(info[2])
            level = lemma[1] if lemma is not None else None
        out.append(level or None)
    return out


def familiarity_files(language: str | None) -> list[DataFile]:
    """The data the figures are read from, for a pack's manifest: wordfreq's list of the
    language (and for English the bundled word table)."""
    from importlib import metadata

    from wordfreq import available_languages

    from wordforge_cli.batch.kinds import DataFile, bundled_file

    lang = language or ""
    listed = available_languages("best").get(lang)
    if listed is None:
        return []
    path = Path(listed)
    files = [DataFile(f"wordfreq {metadata.version('wordfreq')}:data/{path.name}", path,
                      f"wordfreq (PyPI; Robyn Speer et al.), '{lang}' 'best' word list",
                      "wordfreq data: CC BY-SA 4.0; code: Apache-2.0")]
    if lang == "en":
        files.append(bundled_file("data", "english.tsv"))
    return files
