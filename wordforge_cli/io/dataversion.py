"""The version of the bundled data: one short hash over every shipped data file's bytes.

``wfkit --version`` prints it beside the code's version and every pack manifest records it
(``data_version``), so a pack built on other data is reported stale by ``wfkit pack check``
even where a data file is not listed among its sections' inputs.

For the data builders (data/build/*.py): there is nothing to bump. Any file directly in
``data/`` whose name ends in one of ``DATA_SUFFIXES`` (``english.tsv``, ``jukugo.tsv``,
``kanji_grades.tsv``, ...) is covered, by its name and its bytes, so rebuilding a file with
different content changes the version, and a byte-identical rebuild keeps it. The provenance
notes (``*.md``) are documentation and left out.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

# the package-data patterns of pyproject.toml, less the notes
DATA_SUFFIXES = (".tsv", ".txt", ".json", ".gz")
LENGTH = 12  # hex digits shown: short enough to read, long enough never to collide by chance


def _file_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@cache
def data_version() -> str:
    """sha256 of the sorted ``name<TAB>sha256-of-bytes`` lines of the data files, shortened."""
    from wordforge_cli.io.paths import resource_dir

    folder = resource_dir("data")
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith(DATA_SUFFIXES))
    listing = "".join(f"{p.name}\t{_file_sha256(p)}\n" for p in files)
    return hashlib.sha256(listing.encode("utf-8")).hexdigest()[:LENGTH]
