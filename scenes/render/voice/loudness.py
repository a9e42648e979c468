"""Loudness: every clip is brought to −16 LUFS integrated (ITU-R BS.1770-4, measured by pyloudnorm)
with its true peak at −1 dBTP at most (the peak of the signal oversampled 4×, as BS.1770 annex 2
estimates it).

Speech often has too high a crest factor for both by gain alone (Piper scales each sentence to a
sample peak of 1.0, and its clips then sit near −19.5 LUFS with the peak at −1 dBTP), so the gain that
reaches −16 LUFS is followed by a look-ahead true-peak limiter: the gain each sample may have (the
ceiling over the largest oversampled magnitude near it) is taken as a running minimum over ±5 ms and
smoothed by a running mean of the same width, which never exceeds that minimum, so no peak passes
the ceiling and the gain never steps. Limiting lowers the loudness a little; the loudness gain is
measured again and the limiter re-run until it is within 0.02 LU (eight rounds at most). FFmpeg's
``alimiter`` was not used: it limits sample peaks, not true peaks.
"""

from __future__ import annotations

import numpy as np
import pyloudnorm
from scipy.ndimage import minimum_filter1d, uniform_filter1d
from scipy.signal import resample_poly

from scenes.render.voice.clip import Clip, SpeechError
from scenes.render.voice.treatment import PEAK_CEILING_DBTP, TARGET_LUFS

__all__ = ["TARGET_LUFS", "PEAK_CEILING_DBTP", "integrated_loudness", "true_peak_dbtp", "normalize_loudness",
           "limit_true_peak"]

_MARGIN_DB = 0.1  # the limiter aims this far under the ceiling, so that an encoder's rounding does not cross it
_ROUNDS = 8


def integrated_loudness(samples: np.ndarray, rate: int) -> float:
    """Integrated loudness in LUFS (gated, BS.1770-4); a clip under 0.4 s is measured padded with silence."""
    padded = samples if len(samples) >= int(0.4 * rate) else np.pad(samples, (0, int(0.4 * rate) - len(samples)))
    return float(pyloudnorm.Meter(rate).integrated_loudness(padded.astype(np.float64)))


def oversampled_peaks(samples: np.ndarray) -> np.ndarray:
    """Per sample, the largest magnitude of the 4× oversampled signal within one sample of it."""
    upsampled = np.abs(resample_poly(samples.astype(np.float64), 4, 1))[: 4 * len(samples)]
    per_sample = upsampled.reshape(len(samples), 4).max(axis=1)
    return np.maximum(per_sample, np.maximum(np.roll(per_sample, 1), np.roll(per_sample, -1)))


def true_peak_dbtp(samples: np.ndarray) -> float:
    """The true peak in dBTP: the largest magnitude of the signal upsampled 4× (polyphase FIR)."""
    peak = float(np.max(np.abs(resample_poly(samples.astype(np.float64), 4, 1)))) if len(samples) else 0.0
    return 20 * np.log10(peak) if peak > 0 else -np.inf


def limit_true_peak(samples: np.ndarray, rate: int, ceiling_db: float, peaks: np.ndarray | None = None) -> np.ndarray:
    """``samples`` with a smooth gain (≤ 1) that keeps every oversampled peak under ``ceiling_db``;
    ``peaks``: their :func:`oversampled_peaks` if known (those of ``g·x`` are ``g`` times those of
    ``x``: oversampling is linear, so a caller trying gains measures them once)."""
    ceiling = 10 ** (ceiling_db / 20)
    allowed = np.minimum(1.0, ceiling / np.maximum(oversampled_peaks(samples) if peaks is None else peaks, 1e-12))
    width = 2 * max(1, int(0.005 * rate)) + 1
    gain = uniform_filter1d(minimum_filter1d(allowed, width, mode="nearest"), width, mode="nearest")
    return samples * np.minimum(gain, allowed)


def normalize_loudness(clip: Clip) -> Clip:
    """``clip`` at −16 LUFS with its true peak ≤ −1 dBTP; silence is a :class:`SpeechError`."""
    samples = clip.samples.astype(np.float64)
    if not np.isfinite(integrated_loudness(samples, clip.rate)):
        raise SpeechError("the speech is silent (no loudness to normalize)")
    ceiling = PEAK_CEILING_DBTP - _MARGIN_DB
    peaks = oversampled_peaks(samples)  # once: every gain tried scales them

    def limited(gain_db: float) -> np.ndarray:
        gain = 10 ** (gain_db / 20)
        return limit_true_peak(samples * gain, clip.rate, ceiling, peaks * gain)

    gain_db = 0.0
    for _ in range(_ROUNDS):
        error_db = TARGET_LUFS - integrated_loudness(limited(gain_db), clip.rate)
        if abs(error_db) < 0.02:
            break
        gain_db += error_db
    out = limited(gain_db)
    excess = true_peak_dbtp(out) - ceiling
    if excess > 0:  # the limiter's gain is smooth between samples; a last trim if it left any excess
        out = out * 10 ** (-excess / 20)
    return clip.with_samples(out)
