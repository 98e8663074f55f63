"""What the machine gives this process: the cores it may run on (``--jobs``' default)."""

from __future__ import annotations

import os


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
