"""Where render jobs run: one interface, two implementations.

An executor runs top-level functions with plain-data arguments and hands back their results as they
finish, each with the name of the worker that ran it. :class:`LocalExecutor` is the process pool of
``--jobs N`` (or the calling process itself for one job at a time); :class:`~.dask.DaskExecutor` sends the
same calls to a Dask distributed scheduler (``--scheduler tcp://HOST:PORT``), whose workers need
only normgeo installed: results come back as bytes plus metadata, so no shared file system is needed.
Each also gives the calls of one split job a hand-off for small values they pass each other while
running (:mod:`.handoff`: files in a folder here, Dask ``Variable`` objects there); the Dask one is in
:mod:`.dask`.

>>> with LocalExecutor(1) as executor:
...     executor.submit("a", pow, 2, 10)
...     [(outcome.key, outcome.value) for outcome in executor.outcomes()]
[('a', 1024)]
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from scenes.render.running.handoff import FolderHandoff, Handoff
from scenes.render.running.worker import JobFailed, worker_name

__all__ = ["Outcome", "Executor", "LocalExecutor", "reason_of", "value_and_worker"]


@dataclass
class Outcome:
    """One finished call: its key, its value or a one-line error, and the worker that ran it."""

    key: object
    value: object = None
    error: str | None = None
    worker: str = ""


def reason_of(error: BaseException) -> str:
    if isinstance(error, JobFailed):
        return error.reason
    text = str(error)
    if text.startswith("JobFailed(") and text.endswith(")"):  # Dask could not ship the exception itself
        return text[len("JobFailed("):-1].strip("'\"")
    return f"{type(error).__name__}: {text}".splitlines()[0]


def value_and_worker(value) -> tuple[object, str]:
    """Job functions may return a result with a ``worker`` (shown by the progress display)."""
    worker = getattr(value, "worker", "")
    return value, worker


class Executor:
    """Runs ``fn(*args)`` calls somewhere and yields an :class:`Outcome` for each as it finishes."""

    name = "executor"
    retries = 0

    def on_start(self, key) -> None:
        """Called when the call ``key`` is handed to a worker (the batch sets it)."""

    def submit(self, key, fn: Callable, *args) -> None:
        raise NotImplementedError

    def outcomes(self, tick: Callable[[], None] | None = None) -> Iterator[Outcome]:
        """Every submitted call's outcome, in the order they finish; calls submitted while iterating
        are included. ``tick`` is called now and then while waiting."""
        raise NotImplementedError

    def running(self) -> dict[str, int]:
        """Calls running now, per worker (empty when the executor cannot tell)."""
        return {}

    def workers(self) -> list[str]:
        return []

    def handoff(self, name: str) -> Handoff:
        """A place where running calls and the client pass each other small values (see
        :mod:`.handoff`), named ``name`` within this executor."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Cancel every call not finished yet (Ctrl-C)."""

    def close(self) -> None:
        """Release the processes or the connection."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _quiet_on_interrupt() -> None:
    """A pool process ends on SIGINT (the terminal's Ctrl-C, or the client passing one on) as a
    plain exit: its scratch folder is cleaned up on the way out and no traceback is printed (the
    client prints the one line). An exception raised inside a finalizer (a ``__del__``, such as a
    progress bar's) is swallowed there by Python, which prints "Exception ignored" and goes on; so
    an interrupt that lands in one is raised 50 ms later (SIGALRM), once the finalizer has returned."""

    def leave(signum, frame):
        if _in_finalizer(frame):
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            return
        raise SystemExit(128 + signal.SIGINT)

    signal.signal(signal.SIGINT, leave)
    signal.signal(signal.SIGALRM, leave)


def _in_finalizer(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


class LocalExecutor(Executor):
    """``workers`` forked processes on this machine; with ``workers == 1`` the calls run one after
    another in this very process (nothing to start, and a debugger or a monkeypatch sees them).
    Calls are handed to the pool as processes free up, so ``on_start`` means "running now"."""

    name = "local"

    def __init__(self, workers: int = 1, on_start: Callable[[object], None] | None = None):
        self.size = max(1, workers)
        if on_start is not None:
            self.on_start = on_start
        self.pool: ProcessPoolExecutor | None = None
        self.queued: list[tuple[object, Callable, tuple]] = []
        self.futures: dict = {}
        self.handoffs: Path | None = None

    def handoff(self, name: str) -> FolderHandoff:
        if self.handoffs is None:
            self.handoffs = Path(tempfile.mkdtemp(prefix="normgeo-handoff-"))
        folder = self.handoffs / name
        folder.mkdir()
        return FolderHandoff(folder)

    def submit(self, key, fn, *args) -> None:
        self.queued.append((key, fn, args))

    def _top_up(self) -> None:
        while self.queued and len(self.futures) < self.size:
            if self.pool is None:
                self.pool = ProcessPoolExecutor(max_workers=self.size, mp_context=multiprocessing.get_context("fork"),
                                                initializer=_quiet_on_interrupt)
            key, fn, args = self.queued.pop(0)
            self.futures[self.pool.submit(fn, *args)] = key
            self.on_start(key)

    def outcomes(self, tick=None) -> Iterator[Outcome]:
        if self.size == 1:
            while self.queued:
                key, fn, args = self.queued.pop(0)
                self.on_start(key)
                try:
                    value, worker = value_and_worker(fn(*args))
                    yield Outcome(key, value, worker=worker)
                except KeyboardInterrupt:
                    raise
                except Exception as error:
                    yield Outcome(key, error=reason_of(error), worker=worker_name())
            return
        self._top_up()
        while self.futures:
            done, _ = wait(list(self.futures), timeout=0.5, return_when=FIRST_COMPLETED)
            if tick:
                tick()
            for future in done:
                key = self.futures.pop(future)
                try:
                    value, worker = value_and_worker(future.result())
                    outcome = Outcome(key, value, worker=worker)
                except KeyboardInterrupt:
                    raise
                except Exception as error:  # a failed job, or a worker process that died
                    outcome = Outcome(key, error=reason_of(error))
                yield outcome  # the caller may submit more calls here
                self._top_up()

    def cancel(self) -> None:
        """Cancel what has not started and interrupt what runs: a SIGINT sent to this process alone
        (not its group) reaches the pool's processes too, so no render runs on to its end."""
        for future in self.futures:
            future.cancel()
        self.queued.clear()
        if self.pool is not None:
            for child in multiprocessing.active_children():
                try:
                    os.kill(child.pid, signal.SIGINT)
                except (ProcessLookupError, TypeError):  # gone already, or not started
                    pass

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
        if self.handoffs is not None:
            shutil.rmtree(self.handoffs, ignore_errors=True)
            self.handoffs = None
