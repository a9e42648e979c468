"""Audio read back from a written file, by means independent of the pipeline's own code: the decoded
track (PyAV), FFmpeg's ebur128 meter (not pyloudnorm, which the pipeline uses), and the moments sound
begins after silence. Shared by the voice tests and bench/voice.py."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from av.filter import Graph

__all__ = ["decoded_audio", "ebur128", "speech_onsets"]


def decoded_audio(path: Path) -> tuple[np.ndarray, int, str]:
    """(mono float samples, sample rate, codec name) of the file's first audio stream."""
    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        resampler = av.AudioResampler(format="flt", layout="mono", rate=stream.codec_context.sample_rate)
        planes = [out.to_ndarray()[0] for frame in container.decode(stream) for out in resampler.resample(frame)]
        return np.concatenate(planes), stream.codec_context.sample_rate, stream.codec_context.name


def ebur128(samples: np.ndarray, rate: int) -> tuple[float, float]:
    """(integrated loudness in LUFS, true peak in dBTP) as FFmpeg's ebur128 filter measures them."""
    graph = Graph()
    source = graph.add_abuffer(format="flt", sample_rate=rate, layout="mono", time_base=f"1/{rate}")
    meter, sink = graph.add("ebur128", "peak=true:metadata=1"), graph.add("abuffersink")
    source.link_to(meter)
    meter.link_to(sink)
    graph.configure()
    last: dict = {}
    for start in [*range(0, len(samples), 1024), None]:
        frame = None
        if start is not None:
            frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(samples[None, start:start + 1024], np.float32),
                                               format="flt", layout="mono")
            frame.sample_rate, frame.pts, frame.time_base = rate, start, Fraction(1, rate)
        graph.push(frame)
        while True:
            try:
                measured = dict(graph.pull().metadata)
            except (av.BlockingIOError, av.EOFError):
                break
            last = measured if "lavfi.r128.I" in measured else last  # the filter's last, short frame has none
    return float(last["lavfi.r128.I"]), 20 * np.log10(float(last["lavfi.r128.true_peak"]))


def speech_onsets(samples: np.ndarray, rate: int, silence_s: float = 0.15, floor_db: float = -35.0) -> np.ndarray:
    """Seconds at which sound begins after at least ``silence_s`` of quiet (10 ms RMS windows more
    than ``-floor_db`` under the loudest; the file's start counts as quiet)."""
    window = rate // 100
    count = len(samples) // window
    rms = np.sqrt(np.mean(np.square(samples[:count * window].reshape(count, window), dtype=np.float64), axis=1))
    loud = 20 * np.log10(np.maximum(rms, 1e-12) / rms.max()) > floor_db
    onsets, quiet = [], np.inf
    for index, is_loud in enumerate(loud):
        if is_loud and quiet >= silence_s * 100:
            onsets.append(index / 100)
        quiet = 0 if is_loud else quiet + 1
    return np.array(onsets)
