"""A render's sound track: each step's clip resampled to 48 kHz (polyphase, scipy) and laid at the
scene time its speech starts, silence between, as long as the video. Clips do not overlap (a step
lasts at least its speech); the track's true peak is kept under the encoder's ceiling.

The limiter's gain at a sample depends only on the samples within its reach (:data:`REACH`: the 4×
filter's half-length, the ±1-sample peak spread, the running minimum and mean over ±5 ms), and it
leaves silence silent. So a clip limited alone with that much silence each side (:func:`limited_piece`,
done while the scene renders on) is limited exactly as on the whole track, and the pieces laid
together (:func:`laid_pieces`) are the track :func:`place_samples` makes, as long as no two come
within twice the reach of each other and none passes the end (then there is no such shortcut)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy.signal import resample_poly

from scenes.render.voice.loudness import limit_true_peak

__all__ = ["TRACK_RATE", "ENCODER_CEILING_DBTP", "REACH", "place_samples", "limited_piece",
           "laid_pieces"]

TRACK_RATE = 48_000  # Opus's rate, and AAC's usual one
# lossy encoders overshoot peaks a little: the track is limited this far under −1 dBTP before encoding
ENCODER_CEILING_DBTP = -1.5
# samples at TRACK_RATE: more than the limiter's reach (10 + 1 + 240 + 240 at 48 kHz)
REACH = 1024


def _resampled(samples: np.ndarray, source_rate: int, rate: int) -> np.ndarray:
    if source_rate == rate:
        return samples.astype(np.float64)
    ratio = Fraction(rate, source_rate)
    return resample_poly(samples.astype(np.float64), ratio.numerator, ratio.denominator)


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


def limited_piece(start: float, source: np.ndarray, source_rate: int, rate: int = TRACK_RATE) -> tuple[int, np.ndarray]:
    """(first sample, float64 samples): the clip ``source`` resampled and limited as it would be on a
    track where nothing else comes within :data:`REACH` of it, starting at ``start`` seconds."""
    samples = _resampled(source, source_rate, rate)
    limited = limit_true_peak(np.pad(samples, REACH), rate, ENCODER_CEILING_DBTP)
    return int(round(start * rate)), limited[REACH:REACH + len(samples)]


def laid_pieces(pieces: list[tuple[int, np.ndarray]], seconds: float, rate: int = TRACK_RATE) -> np.ndarray | None:
    """The track of ``seconds`` that :func:`place_samples` makes of the clips the ``pieces`` were
    limited from, or None if two pieces come within twice :data:`REACH` or one passes the end."""
    track = np.zeros(int(round(seconds * rate)), dtype=np.float64)
    spans = sorted((first, first + len(samples)) for first, samples in pieces)
    if any(first < end + 2 * REACH for (_, end), (first, _) in zip(spans, spans[1:])):
        return None
    if spans and spans[-1][1] + REACH > len(track):
        return None
    for first, samples in pieces:
        track[first:first + len(samples)] += samples
    return track.astype(np.float32)
