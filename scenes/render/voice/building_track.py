"""A sound track built in the sound process while its scene renders: each clip is limited as it is
placed (:func:`~.track.limited_piece`), and since clips come in the order of the scene, the next
no sooner than a pause after the last ends, everything up to a clip's end is final when it is placed
and is encoded then (:class:`~scenes.render.media.audio_mux.SoundEncoder`); when the video is done,
only the silence after the last clip is encoded, the packets muxed and the true peak read back
(:mod:`.peak_checked`).

The result is the track :func:`~.track.place_samples` makes of the same clips, encoded in the same
frames: the same packets. Where that shortcut does not hold (clips out of order or closer than the
limiter's reach, one past the end, a video of another container), the track is made whole at the end."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import numpy as np

from scenes.render.media.audio_mux import AUDIO_CODECS, SoundEncoder
from scenes.render.voice.peak_checked import add_checked_sound_track
from scenes.render.voice.track import REACH, TRACK_RATE, laid_pieces, limited_piece, place_samples

__all__ = ["BuildingTrack"]


class BuildingTrack:
    """The clips placed so far on a track for a video of ``suffix`` (None or a container without
    sound: nothing is encoded early), and as much of it encoded as is final."""

    def __init__(self, suffix: str | None):
        self.placed: list[tuple[float, np.ndarray, int]] = []
        self.pieces: list[tuple[int, np.ndarray]] = []
        self.suffix = suffix.lower() if suffix else None
        self.in_order = True  # every piece after the last, out of the limiter's reach
        self._folder: Path | None = None
        self._encoder: SoundEncoder | None = None

    def place(self, start: float, samples: np.ndarray, rate: int) -> None:
        first, limited = limited_piece(start, samples, rate, TRACK_RATE)
        if self.pieces:
            last_first, last = self.pieces[-1]
            self.in_order &= first >= last_first + len(last) + 2 * REACH
        self.placed.append((start, samples, rate))
        self.pieces.append((first, limited))
        if self.in_order and self.suffix in AUDIO_CODECS:
            self._encode_to(first + len(limited))

    def finish(self, video: Path, seconds: float, target: Path) -> tuple[float, float]:
        """``video`` with this track to ``target``: (its true peak read back, the gain that took)."""
        laid = laid_pieces(self.pieces, seconds, TRACK_RATE) if self.in_order else None
        if laid is None or self._encoder is None or video.suffix.lower() != self.suffix:
            self.drop()
            whole = laid if laid is not None else place_samples(
                [(start, (samples, rate)) for start, samples, rate in self.placed], seconds, TRACK_RATE)
            return add_checked_sound_track(video, whole, TRACK_RATE, target)
        try:
            self._encoder.extend(laid[self._encoder.handed:])
            self._encoder.close()
            return add_checked_sound_track(video, laid, TRACK_RATE, target, encoded=self._encoder.path)
        finally:
            self.drop()

    def drop(self) -> None:
        """Forget the encoded part (its file goes)."""
        if self._encoder is not None:
            self._encoder.close()
            self._encoder = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def _encode_to(self, end: int) -> None:
        """Hand the encoder the track's samples up to ``end`` (final: a clip to come that would reach
        before it, or within the limiter's reach of it, makes the whole track again at the end)."""
        if self._encoder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="normgeo-sound-"))
            self._encoder = SoundEncoder(self._folder / f"track{self.suffix}", self.suffix, TRACK_RATE)
        begin = self._encoder.handed
        if end <= begin:
            return
        samples = np.zeros(end - begin, np.float64)
        for first, limited in self.pieces:
            low, high = max(first, begin), min(first + len(limited), end)
            if low < high:
                samples[low - begin:high - begin] = limited[low - first:high - first]
        self._encoder.extend(samples.astype(np.float32))
