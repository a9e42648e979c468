"""A sound track added to a rendered video by PyAV: the track is encoded (AAC for MP4 and MOV, Opus
for WebM) into a sound file of its own, piece by piece as its samples become final
(:class:`SoundEncoder`, so that a track can be encoded while its video is still rendering), then the
video's packets and the sound's are copied as they are, not re-encoded, into the result
(:func:`mux_sound`), its chapters kept, written under a hidden name and renamed into place.
:func:`add_sound_track` does both at once; the packets are the same either way."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np

from scenes.render.files import atomic_target

__all__ = ["AUDIO_CODECS", "SoundEncoder", "mux_sound", "add_sound_track"]

# container suffix → (codec, bit rate)
AUDIO_CODECS = {".mp4": ("aac", 128_000), ".mov": ("aac", 128_000), ".webm": ("libopus", 96_000)}
# FFmpeg's AAC encoder with its default coder (twoloop) put spikes of up to +2 dB over the input's
# true peak where speech starts after silence; the fast coder stayed within 0.2 dB of it (and is faster)
CODEC_OPTIONS = {"aac": {"aac_coder": "fast"}}
_FORMATS = {".mp4": "mp4", ".mov": "mov", ".webm": "webm"}
FRAME = 1024  # samples per frame handed to the encoder


class SoundEncoder:
    """Mono float samples at ``rate`` encoded for a video of ``suffix`` into ``path`` (a sound file of
    that container), in frames of :data:`FRAME` counted from the track's start; samples may come in
    any pieces (:meth:`extend`), the frames are the same. :meth:`close` ends the file."""

    def __init__(self, path: Path, suffix: str, rate: int):
        codec, bit_rate = AUDIO_CODECS[suffix.lower()]
        self.path, self.rate, self.encoded = path, rate, 0
        self._out = av.open(str(path), "w", format=_FORMATS[suffix.lower()])
        self._stream = self._out.add_stream(codec, rate=rate, layout="mono")
        self._stream.bit_rate = bit_rate
        self._stream.options = CODEC_OPTIONS.get(codec, {})
        wanted = self._stream.codec_context.codec.audio_formats[0].name
        self._resampler = av.AudioResampler(format=wanted, layout="mono", rate=rate)
        self._pending = np.zeros(0, np.float32)

    @property
    def handed(self) -> int:
        """How many samples it was given so far."""
        return self.encoded + len(self._pending)

    def extend(self, samples: np.ndarray) -> None:
        """Encode the whole frames among what came so far (a partial one waits for more, or :meth:`close`)."""
        pending = np.concatenate([self._pending, np.asarray(samples, np.float32)])
        whole = len(pending) - len(pending) % FRAME
        for start in range(0, whole, FRAME):
            self._frame(pending[start:start + FRAME])
        self._pending = pending[whole:]

    def close(self) -> None:
        if self._out is None:
            return
        if len(self._pending):
            self._frame(self._pending)
        for converted in self._resampler.resample(None):
            self._out.mux(self._stream.encode(converted))
        self._out.mux(self._stream.encode(None))
        self._out.close()
        self._out = None

    def _frame(self, samples: np.ndarray) -> None:
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(samples[None, :], np.float32), format="flt",
                                           layout="mono")
        frame.sample_rate, frame.pts = self.rate, self.encoded
        self.encoded += len(samples)
        for converted in self._resampler.resample(frame):
            self._out.mux(self._stream.encode(converted))


def mux_sound(video: Path, sound: Path, target: Path) -> None:
    """Write ``video`` with the sound of ``sound`` (a file :class:`SoundEncoder` wrote) to ``target``."""
    with atomic_target(target, suffix=video.suffix) as partial:
        with av.open(str(video)) as source, av.open(str(sound)) as encoded, \
                av.open(str(partial), "w", format=source.format.name.split(",")[0]) as out:
            inputs = [(source, source.streams.video[0]), (encoded, encoded.streams.audio[0])]
            copies = [out.add_stream_from_template(stream) for _, stream in inputs]
            for (container, stream), copied in zip(inputs, copies):
                for packet in container.demux(stream):
                    if packet.dts is None:
                        continue
                    packet.stream = copied
                    out.mux(packet)
            if source.chapters():  # a lecture keeps its chapters
                out.set_chapters(source.chapters())


def add_sound_track(video: Path, samples: np.ndarray, rate: int, target: Path) -> None:
    """Write ``video`` with mono ``samples`` at ``rate`` as its sound track to ``target``."""
    sound = target.with_name(f".{target.name}.sound{video.suffix}")
    try:
        encoder = SoundEncoder(sound, video.suffix, rate)
        try:
            encoder.extend(samples)
        finally:
            encoder.close()
        mux_sound(video, sound, target)
    finally:
        sound.unlink(missing_ok=True)
