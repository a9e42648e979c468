"""A render's sound track: each step's clip resampled to 48 kHz (polyphase, scipy) and laid at the
scene time its speech starts, silence between, as long as the video. Clips do not overlap (a step
lasts at least its speech); the track's true peak is kept under the encoder's ceiling."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy.signal import resample_poly

from scenes.render.voice.clip import Clip
from scenes.render.voice.loudness import limit_true_peak

__all__ = ["TRACK_RATE", "ENCODER_CEILING_DBTP", "sound_track", "place_samples"]

TRACK_RATE = 48_000  # Opus's rate, and AAC's usual one
# lossy encoders overshoot peaks a little: the track is limited this far under −1 dBTP before encoding
ENCODER_CEILING_DBTP = -1.5


def _resampled(samples: np.ndarray, source_rate: int, rate: int) -> np.ndarray:
    if source_rate == rate:
        return samples.astype(np.float64)
    ratio = Fraction(rate, source_rate)
    return resample_poly(samples.astype(np.float64), ratio.numerator, ratio.denominator)


def sound_track(placed: list[tuple[float, Clip]], seconds: float, rate: int = TRACK_RATE) -> np.ndarray:
    """Mono float32 samples, ``seconds`` long, with each ``(start, clip)`` laid at ``start``."""
    return place_samples([(start, (clip.samples, clip.rate)) for start, clip in placed], seconds, rate)


def place_samples(placed: list[tuple[float, tuple[np.ndarray, int]]], seconds: float,
                  rate: int = TRACK_RATE) -> np.ndarray:
    """Mono float32 samples, ``seconds`` long, with each ``(start, (samples, their rate))`` at ``start``."""
    track = np.zeros(int(round(seconds * rate)), dtype=np.float64)
    for start, (source, source_rate) in placed:
        samples = _resampled(source, source_rate, rate)
        first = int(round(start * rate))
        if first >= len(track):
            continue
        piece = samples[: len(track) - first]
        track[first:first + len(piece)] += piece
    return limit_true_peak(track, rate, ENCODER_CEILING_DBTP).astype(np.float32)
