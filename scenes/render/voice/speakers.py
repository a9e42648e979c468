"""This process's Piper speakers, one per voice, kept from first use to the process's end: every
narrator in the process borrows its voice's speaker, so a batch or a lecture rendered in one process
loads each voice once, not once per scene, and a speaker started before the render
(:mod:`.early_start`) is the one its narrator uses. A forked copy of the process (a split render's
worker) starts speakers of its own: the parent's pipes are the parent's. The children end with the
process (their input closes)."""

from __future__ import annotations

import atexit
import os

from pathlib import Path

from scenes.render.voice.choice import PiperVoiceFile
from scenes.render.voice.piper_speaker import PiperSpeaker

__all__ = ["piper_speaker", "close_speakers"]

_speakers: dict[tuple[str, Path], PiperSpeaker] = {}
_owner = os.getpid()


def piper_speaker(voice: PiperVoiceFile, model_folder: Path) -> PiperSpeaker:
    """The speaker of ``voice`` in this process (made, not started, on first use; its aligned model
    patched into ``model_folder``)."""
    global _owner
    if _owner != os.getpid():  # a forked copy: forget the parent's speakers without touching them
        _speakers.clear()
        _owner = os.getpid()
    key = (voice.identity, Path(model_folder))
    if key not in _speakers:
        _speakers[key] = PiperSpeaker(voice, Path(model_folder))
    return _speakers[key]


def close_speakers(wait: bool = True) -> None:
    """End this process's Piper children (at exit, not waiting for them to exit; not a forked
    copy's, which are its parent's)."""
    if _owner == os.getpid():
        for speaker in _speakers.values():
            speaker.close(wait)
        _speakers.clear()


atexit.register(close_speakers, wait=False)
