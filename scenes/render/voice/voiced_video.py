"""A rendered video given its narration: the clips laid on one sound track at the times their speech
starts, muxed with the true peak checked after encoding (:mod:`.peak_checked`, the video's packets
copied; both in the sound process, :mod:`.sound_process`), the cues timed to the words
(:mod:`.word_cues`), and the manifest's record of it. Shared by an unsplit narrated render (whose
clips were placed on the track as the scene said them) and the join of a split one (which places
them all now), so that both make the same file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scenes.render.voice.clip import Clip
from scenes.render.voice.sound_process import SoundTrack, sound_process
from scenes.render.voice.timed_text import TimedCue
from scenes.render.voice.word_cues import spoken_cues

__all__ = ["VoicedVideo", "voice_video"]


@dataclass(frozen=True)
class VoicedVideo:
    """The video with its sound track, its cues (none without steps) and the manifest's fields."""

    path: Path
    cues: list[TimedCue]
    extra: dict


def voice_video(video: Path, duration: float, steps: list[dict], spoken: list[tuple[str, float]],
                clips: dict[str, Clip], lang: str, identity: str, target: Path,
                track: SoundTrack | None = None) -> VoicedVideo:
    """``video`` (``duration`` seconds) with each step's clip at the scene time ``spoken`` gives it,
    written to ``target``; ``steps`` as the scene recorded them (key, text, start, end); ``track``:
    the one those clips were placed on as they were said (else they are placed now)."""
    placed = [(start, clips[step]) for step, start in spoken]
    if track is None:
        track = sound_process().track(video.suffix)
        for start, clip in placed:
            track.place(start, clip)
    elif [(start, id(clip)) for start, clip in track.placed] != [(start, id(clip)) for start, clip in placed]:
        track.drop()
        raise RuntimeError("the sound track's clips are not the ones the scene says it spoke, or not at those times")
    peak, gain_db = track.finish(video, duration, target)
    cues = spoken_cues(steps, spoken, clips, lang) if steps else []
    extra = {"voice": identity, "true_peak_dbtp": round(peak, 2), "track_gain_db": round(gain_db, 2),
             "speech": [{"step": step, "start": round(start, 3), "seconds": round(clips[step].seconds, 3),
                         "words_from": clips[step].words_from} for step, start in spoken]}
    return VoicedVideo(target, cues, extra)
