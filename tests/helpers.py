"""Small helpers shared by tests in several folders."""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """In a child before exec: SIGINT to its default, so that Python turns it into
    KeyboardInterrupt as when a terminal sends it (a suite run as a background job of a
    non-interactive shell has SIGINT ignored, and children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
