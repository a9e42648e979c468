"""The pipe-fed child processes of the voice wing (Piper's, :mod:`.piper_speaker`; the sound
process, :mod:`.sound_process`): started in a session of their own from the project's root, ended
by closing their input (killed with whatever they started if they do not end), described in one
phrase when they die."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

__all__ = ["start_child", "end_child", "stop_child", "watchdog", "read_exactly", "exit_status"]

ROOT = Path(__file__).resolve().parents[3]


def start_child(command: Sequence[str]) -> subprocess.Popen:
    """``command`` running with pipes for its input and output (its errors dropped)."""
    return subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            cwd=ROOT, start_new_session=True)


def end_child(child: subprocess.Popen, wait: bool = True) -> None:
    """Close the child's pipes and wait for it (5 s, then it is killed). Without ``wait`` (a process
    about to exit, every request answered) the child reads the end of its input and leaves by
    itself: its own exit (0.15 s for the sound process's imports) no longer holds up the render's."""
    for stream in (child.stdin, child.stdout):
        try:
            stream.close()
        except OSError:
            pass
    if not wait:
        return
    try:
        child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        stop_child(child)
        child.wait()


def stop_child(child: subprocess.Popen, timed_out: threading.Event | None = None) -> None:
    """Kill the child and whatever it started (its own session), so that no process keeps its pipes
    open; ``timed_out`` is set first (a watchdog's call)."""
    if timed_out is not None:
        timed_out.set()
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@contextmanager
def watchdog(child: subprocess.Popen, timeout: float) -> Iterator[threading.Event]:
    """While the body talks to ``child``: if it takes more than ``timeout`` seconds, the child is
    killed (which ends the body's reads with an error) and the event yielded is set."""
    timed_out = threading.Event()
    timer = threading.Timer(timeout, stop_child, (child, timed_out))
    timer.daemon = True
    timer.start()
    try:
        yield timed_out
    finally:
        timer.cancel()


def read_exactly(stream, count: int) -> bytes:
    """``count`` bytes from ``stream``; fewer (the child ended) is an EOFError."""
    data = stream.read(count) if count else b""
    if len(data) != count:
        raise EOFError(f"{len(data)} of {count} bytes")
    return data


def exit_status(child: subprocess.Popen) -> str:
    """How the child ended ("exit status 3", "killed by signal 9"), or "" while it runs."""
    code = child.poll()
    if code is None:
        return ""
    return f"killed by signal {-code}" if code < 0 else f"exit status {code}"
