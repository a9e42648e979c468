"""Copies of a running process, forked at chosen moments, that wait until one is told to go on.

The last part of a split render starts at an animation that is known only once the whole scene
has been measured, and getting a fresh scene to that animation means building it and running every
animation before it again. Instead, the measuring run forks before each animation: each copy waits
with the scene exactly as it is at that moment (fork shares the memory until either side writes to
it), and once the ranges are chosen the copy at the start of the last one is woken to render, the
others are ended. A copy never returns into the code that called its parent: it hands its result
over in a file and exits.

Linux and macOS only (``os.fork``). A copy holds no thread but the one that forked it, so it must
not touch anything another thread serves (a Dask client, for one); waiting copies end when their
parent does (a closed pipe, and on Linux the parent-death signal).
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from pathlib import Path

__all__ = ["Snapshots"]


class Snapshots:
    """Forked copies of this process, one per ``number``; results pass through ``folder``."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.waiting: dict[int, tuple[int, int]] = {}  # number → (pid, write end of its pipe)
        self.woken: dict[int, int] = {}  # number → pid
        self.number: int | None = None  # in a copy: the number it was taken at

    @property
    def in_copy(self) -> bool:
        return self.number is not None

    def take(self, number: int) -> int | None:
        """Fork here. The parent gets ``None`` at once; the copy gets the number the parent wakes it
        with (a copy that is never woken exits without returning)."""
        read, write = os.pipe()
        pid = os.fork()
        if pid:
            os.close(read)
            self.waiting[number] = (pid, write)
            return None
        try:
            os.close(write)
            for _, other in self.waiting.values():  # or a sibling would keep a pipe open after the parent died
                os.close(other)
            self.waiting.clear()
            _end_with_parent()
            answered = signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to answer
            message = os.read(read, 16)
            os.close(read)
        except BaseException:  # never run the parent's code as if it were the parent
            os._exit(1)
        if not message:  # ended, or the parent is gone
            os._exit(0)
        signal.signal(signal.SIGINT, answered)
        self.number = number
        return int(message)

    def wake(self, number: int, message: int) -> None:
        """Let the copy taken at ``number`` go on, handing it ``message``; end every other copy
        still waiting."""
        pid, write = self.waiting.pop(number)
        os.write(write, str(message).encode())
        os.close(write)
        self.woken[number] = pid
        self.end_waiting()

    def end(self, numbers) -> None:
        """End the waiting copies taken at ``numbers`` (they hold only memory)."""
        for number in numbers:
            pid, write = self.waiting.pop(number)
            os.close(write)  # the copy reads end-of-file and exits
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass

    def end_waiting(self) -> None:
        """End every copy still waiting."""
        self.end(list(self.waiting))

    def end_all(self) -> None:
        """End every copy, woken ones too (the parent failed or was stopped)."""
        self.end_waiting()
        for pid in self.woken.values():
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        self.woken.clear()

    def hand_over(self, value=None, error: BaseException | None = None) -> None:
        """In a copy: leave ``value`` (or the one line of ``error``) for the parent, and exit."""
        outcome = {"error": f"{type(error).__name__}: {error}".splitlines()[0]} if error else {"value": value}
        try:
            path = self.folder / f"snapshot-{self.number}.pickle"
            temporary = path.with_suffix(".partial")
            temporary.write_bytes(pickle.dumps(outcome))
            temporary.replace(path)
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(1 if error else 0)

    def result(self, number: int):
        """In the parent: wait for the woken copy ``number`` and return its value, or raise
        ``RuntimeError`` with its error (or with how it died)."""
        pid = self.woken.pop(number)
        _, status = os.waitpid(pid, 0)
        path = self.folder / f"snapshot-{number}.pickle"
        if not path.is_file():
            raise RuntimeError(f"the copy taken at animation {number} died ({_describe(status)})")
        outcome = pickle.loads(path.read_bytes())
        path.unlink()
        if "error" in outcome:
            raise RuntimeError(outcome["error"])
        return outcome["value"]


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit status {os.WEXITSTATUS(status)}"


def _end_with_parent() -> None:
    """Linux: have the kernel kill this process when its parent dies (a copy already woken is
    rendering and no longer reads its pipe)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
