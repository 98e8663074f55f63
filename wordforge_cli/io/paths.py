"""Where bundled data and configs live, in a checkout and in an installed wheel alike."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # wordforge_cli/


@cache
def resource_dir(name: str) -> Path:
    """``data`` or ``configs``: the package copy in a wheel, the top-level folder in a checkout."""
    installed = _PACKAGE / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def data_file(name: str) -> Path:
    return resource_dir("data") / name
