"""A sound track added to a rendered video by PyAV: the video's packets are copied as they are (not
re-encoded), its chapters kept, the track is encoded as AAC in MP4 and MOV, Opus in WebM, and the
result is written under a hidden name and renamed into place."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np

from scenes.render.files import atomic_target

__all__ = ["AUDIO_CODECS", "add_sound_track"]

# container suffix → (codec, bit rate)
AUDIO_CODECS = {".mp4": ("aac", 128_000), ".mov": ("aac", 128_000), ".webm": ("libopus", 96_000)}
# FFmpeg's AAC encoder with its default coder (twoloop) put spikes of up to +2 dB over the input's
# true peak where speech starts after silence; the fast coder stayed within 0.2 dB of it (and is faster)
CODEC_OPTIONS = {"aac": {"aac_coder": "fast"}}
_FRAME = 1024


def add_sound_track(video: Path, samples: np.ndarray, rate: int, target: Path) -> None:
    """Write ``video`` with mono ``samples`` at ``rate`` as its sound track to ``target``."""
    codec, bit_rate = AUDIO_CODECS[video.suffix.lower()]
    with atomic_target(target, suffix=video.suffix) as partial:
        with av.open(str(video)) as source, av.open(str(partial), "w", format=source.format.name.split(",")[0]) as out:
            picture = source.streams.video[0]
            copied = out.add_stream_from_template(picture)
            sound = out.add_stream(codec, rate=rate, layout="mono")
            sound.bit_rate = bit_rate
            sound.options = CODEC_OPTIONS.get(codec, {})
            for packet in source.demux(picture):
                if packet.dts is None:
                    continue
                packet.stream = copied
                out.mux(packet)
            _encode(out, sound, samples, rate)
            if source.chapters():  # a lecture keeps its chapters
                out.set_chapters(source.chapters())


def _encode(out, stream, samples: np.ndarray, rate: int) -> None:
    wanted = stream.codec_context.codec.audio_formats[0].name
    resampler = av.AudioResampler(format=wanted, layout="mono", rate=rate)
    for start in range(0, len(samples), _FRAME):
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(samples[None, start:start + _FRAME], np.float32),
                                           format="flt", layout="mono")
        frame.sample_rate, frame.pts = rate, start
        for converted in resampler.resample(frame):
            out.mux(stream.encode(converted))
    for converted in resampler.resample(None):
        out.mux(stream.encode(converted))
    out.mux(stream.encode(None))
