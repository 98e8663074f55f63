"""What a folding rule for playable words would add, measured before deciding (not shipped).

    python bench/fold_spellings.py --cache /tmp/wfkit-build     # counts and a sample of 30

The rule measured: a curated list's hyphenated or internally capitalised spelling (en_GB
hunspell's `Wi-Fi`, SCOWL's `WiFi`), folded to lowercase a-z, counts as that list listing the
folded word (`wifi`), which then is playable with a second source as any word is. It prints
how many words en_GB's folded spellings add that the table lacks, how many of them have a
second source (web2, WikDict, ECDICT, or a folded spelling of SCOWL's name lists), and 30 of
those drawn with random.Random(30), to judge one by one
(data/quality/trial-fold-spellings-seed30.tsv). Needs the build extras.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "data" / "build"))

import english as build  # noqa: E402  (data/build/english.py)

FOLDABLE = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+|[A-Za-z]+[a-z][A-Z][A-Za-z]*")


def fold(word: str) -> str:
    return word.replace("-", "").lower()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "wfkit-build")
    args = parser.parse_args(argv)
    table = {line.split("\t")[0] for line in
             (ROOT / "data" / "english.tsv").read_text(encoding="utf-8").splitlines()}
    files = build.deb_files(build.debian_deb(args.cache, build.SCOWL), build.SCOWL_DIR)
    names: set[str] = set()
    for path, data in sorted(files.items()):
        found = re.fullmatch(r"([a-z_0-9]+)-([a-z-]+)\.(\d+)", path[len(build.SCOWL_DIR):])
        if found and found[1] in build.SCOWL_SPELLINGS and found[2] in ("upper", "proper-names"):
            names |= {fold(w) for w in data.decode("utf-8", "replace").split("\n")
                      if FOLDABLE.fullmatch(w)}
    gb = build.deb_members(build.debian_deb(args.cache, build.HUNSPELL_GB),
                           (build.HUNSPELL_GB_AFF, build.HUNSPELL_GB_DIC))
    spelt: dict[str, str] = {}
    for line in gb[build.HUNSPELL_GB_DIC].decode("utf-8").splitlines()[1:]:
        entry = line.split("\t")[0].split("/")[0]
        if FOLDABLE.fullmatch(entry):
            spelt.setdefault(fold(entry), entry)
    ecdict, _forms = build.ecdict_rows(build.studyforge_wheel(args.cache))
    wikdict, _names = build.wikdict_headwords(args.cache)
    second = {"web2": build.base_words()[0], "WikDict": wikdict,
              "ECDICT": {w for w in ecdict if build.WORD.fullmatch(w)}, "SCOWL names": names}
    new = sorted(set(spelt) - table)
    added = {w: [k for k, v in second.items() if w in v] for w in new}
    added = {w: v for w, v in added.items() if v}
    print(f"en_GB folded spellings: {len(spelt)}, not in the table: {len(new)}, "
          f"with a second source: {len(added)}")
    print(dict(Counter(", ".join(v) for v in added.values()).most_common()))
    for word in sorted(random.Random(30).sample(sorted(added), min(30, len(added)))):
        print(f"{word}\t{spelt[word]}\t{', '.join(added[word])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
