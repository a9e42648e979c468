"""Where render jobs run: one interface, two implementations.

An executor runs top-level functions with plain-data arguments and hands back their results as they
finish, each with the name of the worker that ran it. :class:`LocalExecutor` is the process pool of
``--jobs N`` (or the calling process itself for one job at a time); :class:`DaskExecutor` sends the
same calls to a Dask distributed scheduler (``--scheduler tcp://HOST:PORT``), whose workers need
only normgeo installed: results come back as bytes plus metadata, so no shared file system is needed.
Each also gives the calls of one split job a hand-off for small values they pass each other while
running (:mod:`scenes.render.handoff`: files in a folder here, Dask ``Variable`` objects there).

>>> with LocalExecutor(1) as executor:
...     executor.submit("a", pow, 2, 10)
...     [(outcome.key, outcome.value) for outcome in executor.outcomes()]
[('a', 1024)]
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from scenes.render.errors import InputError
from scenes.render.handoff import DaskHandoff, FolderHandoff, Handoff

__all__ = ["Outcome", "Executor", "LocalExecutor", "DaskExecutor", "JobFailed", "worker_name", "code_identity",
           "failure_reason", "worker_scratch",
           "INSTALL_HINT", "SCHEDULER_ENV"]

INSTALL_HINT = "pip install 'normgeo[cluster]'"
SCHEDULER_ENV = "NORMGEO_SCHEDULER"


class JobFailed(Exception):
    """A job failed for a reason worth one line (raised on the worker, so that Dask may retry it)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def failure_reason(error: BaseException) -> str:
    """One line for the summary."""
    return f"{type(error).__name__}: {error}".splitlines()[0]


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


@dataclass
class Outcome:
    """One finished call: its key, its value or a one-line error, and the worker that ran it."""

    key: object
    value: object = None
    error: str | None = None
    worker: str = ""


def worker_name() -> str:
    """The Dask worker's address inside a Dask worker, else ``host:pid``."""
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return f"{socket.gethostname()}:{os.getpid()}"


def _reason(error: BaseException) -> str:
    if isinstance(error, JobFailed):
        return error.reason
    text = str(error)
    if text.startswith("JobFailed(") and text.endswith(")"):  # Dask could not ship the exception itself
        return text[len("JobFailed("):-1].strip("'\"")
    return f"{type(error).__name__}: {text}".splitlines()[0]


def _value_and_worker(value) -> tuple[object, str]:
    """Job functions may return ``{"worker": …, …}``; the worker is shown by the progress display."""
    worker = value.get("worker", "") if isinstance(value, dict) else ""
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
        :mod:`scenes.render.handoff`), named ``name`` within this executor."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Cancel every call not finished yet (Ctrl-C)."""

    def close(self) -> None:
        """Release the processes or the connection."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


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
                self.pool = ProcessPoolExecutor(max_workers=self.size, mp_context=multiprocessing.get_context("fork"))
            key, fn, args = self.queued.pop(0)
            self.futures[self.pool.submit(fn, *args)] = key
            self.on_start(key)

    def outcomes(self, tick=None) -> Iterator[Outcome]:
        if self.size == 1:
            while self.queued:
                key, fn, args = self.queued.pop(0)
                self.on_start(key)
                try:
                    value, worker = _value_and_worker(fn(*args))
                    yield Outcome(key, value, worker=worker)
                except KeyboardInterrupt:
                    raise
                except Exception as error:
                    yield Outcome(key, error=_reason(error), worker=worker_name())
            return
        self._top_up()
        while self.futures:
            done, _ = wait(list(self.futures), timeout=0.5, return_when=FIRST_COMPLETED)
            if tick:
                tick()
            for future in done:
                key = self.futures.pop(future)
                try:
                    value, worker = _value_and_worker(future.result())
                    outcome = Outcome(key, value, worker=worker)
                except KeyboardInterrupt:
                    raise
                except Exception as error:  # a failed job, or a worker process that died
                    outcome = Outcome(key, error=_reason(error))
                yield outcome  # the caller may submit more calls here
                self._top_up()

    def cancel(self) -> None:
        for future in self.futures:
            future.cancel()
        self.queued.clear()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
        if self.handoffs is not None:
            shutil.rmtree(self.handoffs, ignore_errors=True)
            self.handoffs = None


def code_identity() -> dict:
    """What a worker must share with the client: the versions of normgeo and manim, and a digest of
    the sources a render depends on (so that a worker never records another version's output)."""
    import hashlib

    import manim

    import normgeo
    from scenes.kit.registry import LECTURE_ORDER
    from scenes.render.jobs import source_files

    digest = hashlib.sha256()
    paths = {path for scene_id in LECTURE_ORDER for path in source_files(scene_id)}
    for path in sorted(paths):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return {"normgeo": normgeo.__version__, "manim": manim.__version__, "sources": digest.hexdigest()[:12],
            "missing_fonts": _missing_fonts()}


def _missing_fonts() -> dict[str, str]:
    """Language → system font it needs that this machine lacks (Chinese needs Noto Sans CJK)."""
    from scenes.render.checks import check_fonts
    from scenes.kit.languages import REQUIRED_SYSTEM_FONTS

    missing = {}
    for lang, font in REQUIRED_SYSTEM_FONTS.items():
        try:
            check_fonts(lang)
        except InputError:
            missing[lang] = font
    return missing


def run_on_dask_worker(fn, *args):
    """``fn(*args)`` on a Dask worker, tuned for rendering first (once per worker process):

    * its statistical profiler is stopped: it samples the running task's Python stack every 10 ms,
      and a Manim render's stack is deep;
    * glibc keeps freed memory: Dask's nanny starts workers with ``MALLOC_TRIM_THRESHOLD_=65536``,
      which also fixes the mmap threshold, so every frame-sized array (1.6 MB at 480p) is mapped,
      zeroed and unmapped again; ``mallopt`` puts such arrays back on the heap.

    With both as Dask leaves them every job took 15–22 % longer than in the local pool
    (bench/cluster.py, 18 scenes at 480p15)."""
    from distributed import get_worker

    worker = get_worker()
    callbacks = [worker.periodic_callbacks.pop(name, None) for name in ("profile", "profile-cycle")]
    callbacks = [callback for callback in callbacks if callback is not None]
    if callbacks:  # periodic callbacks belong to the worker's event loop: stop them there
        worker.loop.add_callback(lambda: [callback.stop() for callback in callbacks])
    _keep_freed_memory()
    return fn(*args)


_MALLOC_TUNED = False


def _keep_freed_memory() -> None:
    """Large mmap and trim thresholds for this process (glibc's ``mallopt``; elsewhere nothing)."""
    global _MALLOC_TUNED
    if _MALLOC_TUNED:
        return
    _MALLOC_TUNED = True
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    libc.mallopt(m_mmap_threshold, 32 * 1024 * 1024)  # glibc's largest allowed value
    libc.mallopt(m_trim_threshold, 256 * 1024 * 1024)


class DaskExecutor(Executor):
    """Calls sent to a Dask distributed scheduler (``tcp://HOST:PORT``), ``retries`` extra tries each
    (a worker that dies mid-job has its jobs re-run elsewhere).

    Connecting refuses, with one line each: Dask not installed, a scheduler that does not answer
    within ``connect_timeout`` seconds, no worker within ``worker_timeout`` seconds, a worker with
    another normgeo or manim version (or other sources), and a worker with more than one thread
    (Manim's configuration is global to a process, so one render per process).
    """

    name = "dask"

    def __init__(self, address: str, retries: int = 2, connect_timeout: float = 5.0, worker_timeout: float = 30.0,
                 languages: tuple[str, ...] = ()):
        try:
            import distributed
        except ImportError:
            raise InputError(f"--scheduler needs Dask distributed, which is not installed: {INSTALL_HINT}") from None
        self.distributed = distributed
        self.address = address
        self.retries = retries
        self.languages = languages
        self.futures: dict = {}
        self.keys: dict = {}  # Dask's key → ours
        self.announced: set = set()
        self.completed = None
        try:
            self.client = distributed.Client(address, timeout=f"{connect_timeout}s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise InputError(f"cannot reach the Dask scheduler at {address} ({reason}); "
                             "is `dask scheduler` running there?") from None
        try:
            self._check_workers(worker_timeout)
        except BaseException:
            self.client.close()
            raise

    def _check_workers(self, timeout: float) -> None:
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (TimeoutError, OSError):
            raise InputError(f"no Dask worker joined the scheduler at {self.address} within {timeout:g} s; start one "
                             f"with `dask worker {self.address} --nthreads 1`") from None
        mine = code_identity()
        # a worker dying meanwhile is not asked (its jobs go to the others, as for any dead worker)
        theirs = self.client.run(code_identity, on_error="ignore")
        for address, identity in sorted(theirs.items()):
            if (identity["normgeo"], identity["manim"]) != (mine["normgeo"], mine["manim"]):
                raise InputError(f"worker {address} has normgeo {identity['normgeo']} and manim {identity['manim']}, "
                                 f"this client normgeo {mine['normgeo']} and manim {mine['manim']}: install the same "
                                 "versions on every worker")
            for lang in self.languages:
                if lang in identity.get("missing_fonts", {}):
                    raise InputError(f"worker {address} lacks the font {identity['missing_fonts'][lang]!r} for "
                                     f"--lang {lang}: apt-get install fonts-noto-cjk there")
            if identity["sources"] != mine["sources"]:
                raise InputError(f"worker {address} runs other normgeo sources (digest {identity['sources']}, here "
                                 f"{mine['sources']}): install the same commit on every worker")
        for address, info in sorted(self.client.scheduler_info(n_workers=-1)["workers"].items()):
            if info.get("nthreads", 1) > 1:
                raise InputError(f"worker {address} has {info['nthreads']} threads; Manim renders one scene per "
                                 f"process, so start workers with `dask worker {self.address} --nthreads 1 "
                                 "--nworkers N`")

    def workers(self) -> list[str]:
        return sorted(self.client.scheduler_info(n_workers=-1)["workers"])

    def handoff(self, name: str) -> DaskHandoff:
        return DaskHandoff(f"normgeo-{self.client.id}-{name}", self.client)

    def submit(self, key, fn, *args) -> None:
        future = self.client.submit(run_on_dask_worker, fn, *args, pure=False, retries=self.retries)
        self.futures[future] = key
        self.keys[future.key] = key
        if self.completed is None:
            self.completed = self.distributed.as_completed([future], loop=self.client.loop)
        else:
            self.completed.add(future)

    def running(self) -> dict[str, int]:
        """Calls running per worker, as the scheduler says now; each call seen running for the
        first time is announced through ``on_start`` (queued calls are not "started")."""
        try:
            processing = self.client.processing()
        except Exception:  # the display must not fail a batch
            return {}
        for dask_keys in processing.values():
            for dask_key in dask_keys:
                if dask_key in self.keys and dask_key not in self.announced:
                    self.announced.add(dask_key)
                    self.on_start(self.keys[dask_key])
        return {worker: len(keys) for worker, keys in processing.items()}

    def outcomes(self, tick=None) -> Iterator[Outcome]:
        while self.completed is not None and not self.completed.is_empty():
            if not self.completed.has_ready():
                if tick:
                    tick()
                time.sleep(0.2)
                continue
            for future in self.completed.next_batch(block=False):
                key = self.futures.pop(future)
                if future.status == "finished":
                    value, worker = _value_and_worker(future.result())
                    yield Outcome(key, value, worker=worker)
                else:
                    try:
                        error = future.exception()
                    except Exception as problem:  # cancelled
                        error = problem
                    yield Outcome(key, error=_reason(error))

    def cancel(self) -> None:
        if self.futures:
            try:
                self.client.cancel(list(self.futures), force=True)
            except Exception:  # the connection may be gone already; nothing left to cancel then
                pass
        self.futures.clear()

    def close(self) -> None:
        try:
            self.client.close(timeout=5)
        except Exception:
            pass
