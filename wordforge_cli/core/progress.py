"""Progress bars on stderr, only when stderr is a terminal (CI logs stay clean)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from wordforge_cli.core.messages import quiet

T = TypeVar("T")


def progress(iterable: Iterable[T], *, total: int | None = None, desc: str | None = None,
             unit: str = "it") -> Iterator[T]:
    """Wrap ``iterable`` in a tqdm bar when stderr is a TTY (and the run is not ``--quiet``);
    otherwise return it untouched."""
    if not (sys.stderr is not None and sys.stderr.isatty() and not quiet()):
        return iter(iterable)
    from tqdm import tqdm  # imported only when a bar is really drawn

    return iter(tqdm(iterable, total=total, desc=desc, unit=unit, file=sys.stderr,
                     leave=False, dynamic_ncols=True))


@contextlib.contextmanager
def counting(*, total: int | None = None, desc: str | None = None,
             unit: str = "it") -> Iterator[Callable[[int], object]]:
    """A bar advanced by hand (``update(n)``: n more done, e.g. a chunk of items a worker
    process finished), drawn only when stderr is a TTY, as :func:`progress`'s."""
    if not (sys.stderr is not None and sys.stderr.isatty() and not quiet()):
        yield lambda n: None
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False,
              dynamic_ncols=True) as bar:
        yield bar.update
