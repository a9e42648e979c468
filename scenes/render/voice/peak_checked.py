"""A sound track muxed into a video with its true peak checked after encoding: lossy encoders (AAC,
Opus) overshoot the peaks they are given (with FFmpeg's default AAC coder, speech limited to −1.5
dBTP came back at up to +1.5 dBTP, spikes where speech starts after silence; the fast coder, which the
mux now uses, stayed under −1.3 dBTP on the same tracks, but a signal with hard edges still overshoots),
so the muxed file is decoded and measured, and while its true peak is above −1 dBTP the whole track
is lowered by the excess (and 0.1 dB more) and encoded again. A gain, not a lower limiter ceiling:
limiting harder packs the peaks tighter and did not bring the overshoot down. The loudness drops by
as much (the manifest records the gain and the peak read back)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scenes.render.media.audio_mux import add_sound_track, mux_sound
from scenes.render.voice.audio_file import read_audio
from scenes.render.voice.loudness import PEAK_CEILING_DBTP, true_peak_dbtp

__all__ = ["add_checked_sound_track"]

_ROUNDS = 4
_STEP_DB = 0.1


def add_checked_sound_track(video: Path, track: np.ndarray, rate: int, target: Path,
                            encoded: Path | None = None) -> tuple[float, float]:
    """Write ``video`` with ``track`` (already limited to the encoder ceiling) to ``target`` with its
    decoded true peak at most −1 dBTP; return (that peak in dBTP, the gain in dB it took: 0 or less).
    ``encoded``: ``track`` already encoded, as :func:`add_sound_track` would (the first round muxes it)."""
    gain_db, samples = 0.0, track
    for round_number in range(_ROUNDS):
        if round_number == 0 and encoded is not None:
            mux_sound(video, encoded, target)
        else:
            add_sound_track(video, samples, rate, target)
        peak = true_peak_dbtp(read_audio(target)[0])
        if peak <= PEAK_CEILING_DBTP:
            return peak, gain_db
        gain_db -= peak - PEAK_CEILING_DBTP + _STEP_DB
        samples = (track.astype(np.float64) * 10 ** (gain_db / 20)).astype(np.float32)
    raise RuntimeError(f"the encoded sound track's true peak stays at {peak:.2f} dBTP, above {PEAK_CEILING_DBTP} dBTP")
