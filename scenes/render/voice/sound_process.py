"""Talking to the sound process (:mod:`.sound_child`): one per process, started by :func:`sound_process`
(before Manim loads, by :mod:`.early_start`, when the CLI renders in its own process) and kept to
the process's end; a forked copy (a split render's worker) starts its own. Requests go in order on one
thread: a clip placed on a track (:meth:`SoundTrack.place`) is sent without the scene waiting, a
clip to normalize or a track to finish waits for its answer. A child that dies, answers nonsense or
takes more than :func:`~.choice.speech_timeout` seconds over one request fails that render only
(:class:`~.clip.SpeechError`); the next request starts a new child."""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np

from scenes.render.voice.child_process import end_child, exit_status, read_exactly, start_child, watchdog
from scenes.render.voice.choice import speech_timeout
from scenes.render.voice.clip import Clip, SpeechError

__all__ = ["SoundProcess", "SoundTrack", "sound_process", "close_sound_process"]


class SoundProcess:
    """The sound process of this process (``command`` is ``python -m scenes.render.voice.sound_child``)."""

    def __init__(self, command: Sequence[str] | None = None, timeout: float | None = None):
        self.command = list(command or [sys.executable, "-m", "scenes.render.voice.sound_child"])
        self._timeout = timeout
        self._child: subprocess.Popen | None = None
        self._requests = ThreadPoolExecutor(max_workers=1, thread_name_prefix="normgeo-sound")

    @property
    def child_pid(self) -> int | None:
        return None if self._child is None else self._child.pid

    @property
    def timeout(self) -> float:
        """Seconds one request may take: as given, else :func:`~.choice.speech_timeout` read now (the
        process outlives the settings of the render that started it)."""
        return speech_timeout() if self._timeout is None else self._timeout

    def start(self) -> None:
        """Start the child now (it loads while the caller goes on), unless it runs."""
        self._requests.submit(self._running_child).result()

    def normalized(self, clip: Clip) -> Clip:
        """``clip`` at −16 LUFS with its true peak ≤ −1 dBTP (:func:`~.loudness.normalize_loudness`)."""
        _, samples = self.send({"op": "normalize", "rate": clip.rate}, clip.samples).result()
        if samples is None or len(samples) != len(clip.samples):
            raise SpeechError("the sound process gave a clip of another length")
        return clip.with_samples(samples)

    def track(self, suffix: str | None = None) -> SoundTrack:
        """A new track, for a video of ``suffix`` (then encoded as far as it is final while the video renders)."""
        return SoundTrack(self, suffix)

    def send(self, request: dict, samples: np.ndarray | None = None) -> Future:
        """The answer to ``request`` (after every request sent before it): (its JSON, its samples or None)."""
        return self._requests.submit(self._exchange, request, samples)

    def _exchange(self, request: dict, samples: np.ndarray | None) -> tuple[dict, np.ndarray | None]:
        child, timeout = self._running_child(), self.timeout
        data = b"" if samples is None else np.ascontiguousarray(samples, dtype="<f4").tobytes()
        with watchdog(child, timeout) as timed_out:
            try:
                child.stdin.write(json.dumps({**request, "samples": len(data) // 4}).encode() + b"\n" + data)
                child.stdin.flush()
                reply = json.loads(child.stdout.readline() or b"null")
                if not isinstance(reply, dict):
                    raise EOFError
                count = int(reply.get("samples", 0))
                payload = read_exactly(child.stdout, 4 * count)
            except (OSError, EOFError, ValueError, TypeError) as error:
                self._end_child()
                if timed_out.is_set():
                    raise SpeechError(f"the sound process gave no answer to {request['op']!r} within {timeout:g} s "
                                      "and was stopped (NORMGEO_SPEECH_TIMEOUT sets the limit)") from None
                status = exit_status(child) or error
                raise SpeechError(f"the sound process died over {request['op']!r}: {status}") from None
        if "error" in reply:
            raise (SpeechError if reply.get("speech") else RuntimeError)(str(reply["error"]))
        return reply, (np.frombuffer(payload, dtype="<f4").astype(np.float32) if count else None)

    def close(self, wait: bool = True) -> None:
        """End the child (its input closes) once the requests sent are answered; ``wait``: for it to
        exit too (see :func:`~.child_process.end_child`)."""
        self._requests.shutdown(wait=True)
        self._end_child(wait)

    def _end_child(self, wait: bool = True) -> None:
        if self._child is not None:
            child, self._child = self._child, None
            end_child(child, wait)

    def _running_child(self) -> subprocess.Popen:
        if self._child is None or self._child.poll() is not None:
            self._end_child()
            self._child = start_child(self.command)
        return self._child


class SoundTrack:
    """One sound track being built in the sound process: clips placed as the scene says them (not
    waited for), then :meth:`finish` writes the video with it; ``placed`` is (start, clip) in order."""

    def __init__(self, process: SoundProcess, suffix: str | None = None):
        self.process, self.name, self.suffix = process, uuid.uuid4().hex, suffix
        self.placed: list[tuple[float, Clip]] = []
        self._sent: list[Future] = []

    def place(self, start: float, clip: Clip) -> None:
        """Lay ``clip`` at ``start`` seconds (it is limited in the sound process meanwhile)."""
        self.placed.append((start, clip))
        self._sent.append(self.process.send({"op": "place", "track": self.name, "suffix": self.suffix,
                                             "start": start, "rate": clip.rate}, clip.samples))

    def finish(self, video: Path, seconds: float, target: Path) -> tuple[float, float]:
        """Write ``video`` (``seconds`` long) with this track to ``target``: (its true peak read back in
        dBTP, the gain in dB that took), as :func:`~.peak_checked.add_checked_sound_track` gives."""
        try:
            for sent in self._sent:
                sent.result()
        except BaseException:
            self.drop()
            raise
        reply, _ = self.process.send({"op": "finish", "track": self.name, "seconds": seconds, "video": str(video),
                                      "target": str(target)}).result()
        return float(reply["peak"]), float(reply["gain"])

    def drop(self) -> None:
        """Forget this track in the sound process (not waited for)."""
        self.process.send({"op": "drop", "track": self.name})


_process: SoundProcess | None = None
_made = threading.Lock()


def sound_process() -> SoundProcess:
    """This process's sound process (made, not started, on first use)."""
    global _process
    with _made:
        if _process is None:
            _process = SoundProcess()
        return _process


def close_sound_process(wait: bool = True) -> None:
    """End this process's sound process (at exit: not waiting for it to exit)."""
    global _process
    with _made:
        process, _process = _process, None
    if process is not None:
        process.close(wait)


def _forget_after_fork() -> None:
    """A forked copy forgets its parent's sound process without touching its pipes or its thread."""
    global _process, _made
    _process, _made = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)
atexit.register(close_sound_process, wait=False)
