"""``workers.ordered`` starts its workers when called (the caller prepares the rest of its run
meanwhile) and ends them when closed: unread, half read or read to the end, no worker is left
running once ``close()`` returns, and the results are in task order whatever the timing."""

from __future__ import annotations

import os
import sys
import time

import pytest
from test_pack_hostile_signals import alive, children

from wordforge_cli.batch import workers

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="/proc")


def _slow_square(n: int) -> int:
    time.sleep(0.05 if n % 3 else 0.2)  # (the 0s, 3s, ... finish last: order from the pool)
    return n * n


def _started() -> set[int]:
    return children(os.getpid())


@pytest.mark.parametrize("read", [0, 1, 5])
def test_closing_ends_the_workers_at_once(read: int) -> None:
    before = _started()
    results = workers.ordered(_slow_square, iter(range(10_000)), 2)
    forked = _started() - before
    assert len(forked) == 2  # forked by the call, before any result was asked for
    assert [next(results) for _ in range(read)] == [n * n for n in range(read)]
    results.close()
    assert not any(map(alive, forked)), "a worker outlived close()"


def test_every_result_in_task_order_and_the_workers_gone() -> None:
    before = _started()
    results = workers.ordered(_slow_square, range(40), 3)
    forked = _started() - before
    assert list(results) == [n * n for n in range(40)]
    for pid in forked:  # (they exit on their own once the last result is in)
        for _ in range(100):
            if not alive(pid):
                break
            time.sleep(0.05)
        assert not alive(pid)


def test_no_task_forks_nothing() -> None:
    before = _started()
    results = workers.ordered(_slow_square, [], 2)
    assert _started() == before and list(results) == []
