"""MkDocs hooks: the pages that live outside docs/ join the site at build time.

The data sheets (data/english.md, data/jukugo.md) ship in the wheel beside the data they
describe and the changelog sits at the top of the repository; the site shows them as they are,
read from their own files on every build (never copied into docs/, so they cannot drift). A
relative link in them that names a repository file, not a page, becomes a link to that file
in the repository, so the strict build checks every other link.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
HOMEPAGE = PROJECT["urls"]["Homepage"]
REPOSITORY = HOMEPAGE.rstrip("/") + "/blob/main/"
# page in the site -> file in the repository
OUTSIDE = {
    "data/english.md": "data/english.md",
    "data/jukugo.md": "data/jukugo.md",
    "changelog.md": "CHANGELOG.md",
}
LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s]+)\)")


def on_files(files: Files, config: Any) -> Files:
    for page, source in OUTSIDE.items():
        files.append(File.generated(config, page, abs_src_path=str(ROOT / source)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    source = OUTSIDE.get(page.file.src_uri)
    if source is None:
        return markdown
    folder = Path(source).parent

    def absolute(match: re.Match[str]) -> str:
        target = match.group(1)
        path, _, anchor = target.partition("#")
        resolved = os.path.normpath(folder / path).replace(os.sep, "/")
        return f"]({REPOSITORY}{resolved}{'#' + anchor if anchor else ''})"

    return LINK.sub(absolute, markdown)
