"""Render jobs on a Dask distributed cluster: the executor, and what a worker must share with the client.

Workers render best started by ``normgeo worker`` (:mod:`.dask_worker`), which sets Dask's
configuration for rendering: no statistical profiler, and glibc's allocator left to keep frames.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass

import normgeo
from scenes.kit.languages import REQUIRED_SYSTEM_FONTS
from scenes.kit.registry import LECTURE_ORDER
from scenes.render.checks import check_fonts
from scenes.render.errors import InputError
from scenes.render.manim_door import manim_version
from scenes.render.running.cache import RENDER_DIR, source_files
from scenes.render.running.executor import Executor, Outcome, reason_of, value_and_worker
from scenes.render.running.handoff import DaskHandoff

__all__ = ["DaskExecutor", "CodeIdentity", "code_identity", "INSTALL_HINT", "SCHEDULER_ENV"]

INSTALL_HINT = "pip install 'normgeo[cluster]'"
SCHEDULER_ENV = "NORMGEO_SCHEDULER"


@dataclass(frozen=True)
class CodeIdentity:
    """What a worker must share with the client: the versions of normgeo and manim, and a digest of
    the sources a render depends on (so that a worker never records another version's output); and
    the fonts it lacks, language → font."""

    normgeo: str
    manim: str
    sources: str
    missing_fonts: dict[str, str]


def code_identity() -> CodeIdentity:
    """This machine's :class:`CodeIdentity` (the client asks each worker for its own)."""
    digest = hashlib.sha256()
    paths = {path for scene_id in LECTURE_ORDER for path in source_files(scene_id)}
    for path in sorted(paths):
        digest.update(str(path.relative_to(RENDER_DIR.parents[1])).encode())
        digest.update(path.read_bytes())
    return CodeIdentity(normgeo.__version__, manim_version(), digest.hexdigest()[:12], _missing_fonts())


def _missing_fonts() -> dict[str, str]:
    """Language → system font it needs that this machine lacks (Chinese needs Noto Sans CJK)."""
    missing = {}
    for lang, font in REQUIRED_SYSTEM_FONTS.items():
        try:
            check_fonts(lang)
        except InputError:
            missing[lang] = font
    return missing


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
                             f"with `normgeo worker {self.address}`") from None
        mine = code_identity()
        # a worker dying meanwhile is not asked (its jobs go to the others, as for any dead worker)
        theirs = self.client.run(code_identity, on_error="ignore")
        for address, identity in sorted(theirs.items()):
            if (identity.normgeo, identity.manim) != (mine.normgeo, mine.manim):
                raise InputError(f"worker {address} has normgeo {identity.normgeo} and manim {identity.manim}, "
                                 f"this client normgeo {mine.normgeo} and manim {mine.manim}: install the same "
                                 "versions on every worker")
            for lang in self.languages:
                if lang in identity.missing_fonts:
                    raise InputError(f"worker {address} lacks the font {identity.missing_fonts[lang]!r} for "
                                     f"--lang {lang}: apt-get install fonts-noto-cjk there")
            if identity.sources != mine.sources:
                raise InputError(f"worker {address} runs other normgeo sources (digest {identity.sources}, here "
                                 f"{mine.sources}): install the same commit on every worker")
        for address, info in sorted(self.client.scheduler_info(n_workers=-1)["workers"].items()):
            if info.get("nthreads", 1) > 1:
                raise InputError(f"worker {address} has {info['nthreads']} threads; Manim renders one scene per "
                                 f"process, so start workers with `normgeo worker {self.address} "
                                 "--nworkers N`")

    def workers(self) -> list[str]:
        return sorted(self.client.scheduler_info(n_workers=-1)["workers"])

    def handoff(self, name: str) -> DaskHandoff:
        return DaskHandoff(f"normgeo-{self.client.id}-{name}", self.client)

    def submit(self, key, fn, *args) -> None:
        future = self.client.submit(fn, *args, pure=False, retries=self.retries)
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
                    value, worker = value_and_worker(future.result())
                    yield Outcome(key, value, worker=worker)
                else:
                    try:
                        error = future.exception()
                    except Exception as problem:  # cancelled
                        error = problem
                    yield Outcome(key, error=reason_of(error))

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
