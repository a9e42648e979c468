"""A rendered video given its narration: the clips laid on one sound track at the times their speech
starts, muxed with the true peak checked after encoding (:mod:`.peak_checked`, the video's packets
copied), the cues timed to the words (:mod:`.word_cues`), and the manifest's record of it. Shared by
an unsplit narrated render and the join of a split one, so that both make the same file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scenes.render.voice.clip import Clip
from scenes.render.voice.peak_checked import add_checked_sound_track
from scenes.render.voice.timed_text import TimedCue
from scenes.render.voice.track import TRACK_RATE, sound_track
from scenes.render.voice.word_cues import spoken_cues

__all__ = ["VoicedVideo", "voice_video"]


@dataclass(frozen=True)
class VoicedVideo:
    """The video with its sound track, its cues (none without steps) and the manifest's fields."""

    path: Path
    cues: list[TimedCue]
    extra: dict


def voice_video(video: Path, duration: float, steps: list[dict], spoken: list[tuple[str, float]],
                clips: dict[str, Clip], lang: str, identity: str, target: Path) -> VoicedVideo:
    """``video`` (``duration`` seconds) with each step's clip at the scene time ``spoken`` gives it,
    written to ``target``; ``steps`` as the scene recorded them (key, text, start, end)."""
    placed = [(start, clips[step]) for step, start in spoken]
    peak, gain_db = add_checked_sound_track(video, sound_track(placed, duration, TRACK_RATE), TRACK_RATE, target)
    cues = spoken_cues(steps, spoken, clips, lang) if steps else []
    extra = {"voice": identity, "true_peak_dbtp": round(peak, 2), "track_gain_db": round(gain_db, 2),
             "speech": [{"step": step, "start": round(start, 3), "seconds": round(clips[step].seconds, 3),
                         "words_from": clips[step].words_from} for step, start in spoken]}
    return VoicedVideo(target, cues, extra)
