"""A task on a worker: its name, its scratch folder, and the one line it fails with."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from contextlib import contextmanager
from pathlib import Path

from scenes.render.errors import InputError

__all__ = ["JobFailed", "failure_reason", "worker_scratch", "worker_name"]


class JobFailed(Exception):
    """A job failed for a reason worth one line (raised on the worker, so that Dask may retry it)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def failure_reason(error: BaseException) -> str:
    """One line for the summary: a refused setting's own message, else the error's class and message.

    >>> failure_reason(InputError("--max-size 2,000 bytes cannot be met")), failure_reason(OSError("disk full"))
    ('--max-size 2,000 bytes cannot be met', 'OSError: disk full')
    """
    text = str(error) if isinstance(error, InputError) else f"{type(error).__name__}: {error}"
    return (text.splitlines() or [type(error).__name__])[0]


@contextmanager
def worker_scratch(prefix: str):
    """A scratch folder for one task on a worker, removed when the task ends. A failure inside
    becomes :class:`JobFailed` with one line (so that Dask may try it again elsewhere, and a failing
    scene does not stop the others), without the scene's traceback; Ctrl-C passes through."""
    scratch = Path(tempfile.mkdtemp(prefix=prefix))
    reason = None
    try:
        yield scratch
    except (KeyboardInterrupt, JobFailed):
        raise
    except Exception as error:
        reason = failure_reason(error)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if reason is not None:
        raise JobFailed(reason) from None




def worker_name() -> str:
    """The Dask worker's address inside a Dask worker, else ``host:pid``."""
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return f"{socket.gethostname()}:{os.getpid()}"
