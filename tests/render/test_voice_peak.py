"""The true peak of a narrated file is read back after encoding: AAC overshoots the peaks it is given
(a track limited to −1.5 dBTP comes back above −1 dBTP), and the checked mux encodes again, lower,
until FFmpeg's ebur128 filter (not the code that limits) reads at most −1 dBTP from the decoded file."""

from __future__ import annotations

import numpy as np

from scenes.render.media.audio_mux import add_sound_track
from scenes.render.voice.loudness import limit_true_peak
from scenes.render.voice.peak_checked import add_checked_sound_track
from scenes.render.voice.track import ENCODER_CEILING_DBTP, TRACK_RATE
from tests.audio_readback import decoded_audio, ebur128
from tests.render.test_voice_timing import _video


def _hard_track(seconds: float) -> np.ndarray:
    """Bursts of a 220 Hz sawtooth (a jump every period: the encoder rings on it), limited as a
    narrated track is before encoding."""
    t = np.arange(int(seconds * TRACK_RATE)) / TRACK_RATE
    saw = ((t * 220) % 1 - 0.5) * ((t % 0.5) < 0.25)
    return limit_true_peak(saw / np.max(np.abs(saw)), TRACK_RATE, ENCODER_CEILING_DBTP).astype(np.float32)


def test_an_overshooting_encode_is_done_again_lower(tmp_path):
    track = _hard_track(3.0)
    silent = tmp_path / "silent.mp4"
    _video(silent, "libx264", seconds=3.0)
    add_sound_track(silent, track, TRACK_RATE, tmp_path / "plain.mp4")
    _, plain_peak = ebur128(*decoded_audio(tmp_path / "plain.mp4")[:2])
    assert plain_peak > -1.0  # the premise: one encode of a track limited to −1.5 dBTP overshoots
    returned, gain_db = add_checked_sound_track(silent, track, TRACK_RATE, tmp_path / "checked.mp4")
    loudness, peak = ebur128(*decoded_audio(tmp_path / "checked.mp4")[:2])
    assert peak <= -1.0 and abs(returned - peak) < 0.1, (peak, returned)
    plain_loudness = ebur128(*decoded_audio(tmp_path / "plain.mp4")[:2])[0]
    # lowered by what it took (the overshoot and a tenth of a dB, per round), not more
    assert -(plain_peak + 1.0) - 1.0 <= gain_db < -(plain_peak + 1.0) and abs(loudness - plain_loudness - gain_db) < 0.3
    assert sorted(path.name for path in tmp_path.iterdir()) == ["checked.mp4", "plain.mp4", "silent.mp4"]
