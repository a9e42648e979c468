"""A step's clip cut out of its scene video, and the frame a step ends on.

A rendered video starts a keyframe at every animation, so at every step: a step's clip is then its
packets copied (video and sound, no re-encode), the timestamps moved to start at zero. Where the
step's start or end is not a keyframe (a video from elsewhere), the clip is decoded and encoded
once (H.264 at Manim's CRF 23, AAC).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from PIL import Image

__all__ = ["Clip", "cut_clip", "frame_before", "keyframe_times"]

CRF = "23"  # Manim's own quality target
AUDIO_BITRATE = 128_000


@dataclass(frozen=True)
class Clip:
    """A cut clip: its file, its length in seconds and whether its packets were copied."""

    path: Path
    seconds: float
    copied: bool


def keyframe_times(video: Path) -> list[float]:
    """Seconds of every keyframe of the first video stream."""
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        return [float(p.pts * stream.time_base) for p in container.demux(stream) if p.is_keyframe and p.pts is not None]


def _near(times: list[float], at: float, tolerance: float) -> float | None:
    best = min(times, key=lambda t: abs(t - at), default=None)
    return best if best is not None and abs(best - at) <= tolerance else None


def cut_clip(video: Path, start: float, end: float | None, target: Path, fps: int,
             keys: list[float] | None = None) -> Clip:
    """Write ``video``'s seconds [start, end) (None: to its end) to the MP4 ``target``: copied when
    a keyframe starts the range and another (or the video's end) ends it, within half a frame; else
    re-encoded at ``fps``, the render's frame rate (a narrated video's mean rate is lower: its held
    frames are encoded once). ``keys``: the video's :func:`keyframe_times`, when the caller has them."""
    half_frame = 0.5 / fps
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        duration = float(stream.duration * stream.time_base) if stream.duration else float(container.duration / av.time_base)
    end = duration if end is None else min(end, duration)
    keys = keyframe_times(video) if keys is None else keys
    first = _near(keys, start, half_frame)
    last = duration if end >= duration - half_frame else _near(keys, end, half_frame)
    if first is not None and last is not None and last > first:
        return Clip(target, _copy(video, first, last, target), True)
    return Clip(target, _encode(video, start, end, target, fps), False)


def _copy(video: Path, start: float, end: float, target: Path) -> float:
    with av.open(str(video)) as source, av.open(str(target), "w", format="mp4") as output:
        streams = [s for s in (source.streams.video[0], *source.streams.audio[:1])]
        outputs = {s.index: output.add_stream_from_template(s) for s in streams}
        shift = {s.index: int(round(start / s.time_base)) for s in streams}
        stop = {s.index: end / s.time_base for s in streams}
        last_end = 0.0
        for packet in source.demux(*streams):
            if packet.pts is None or packet.dts is None:
                continue
            index = packet.stream.index
            if not shift[index] <= packet.pts < stop[index] - 0.5:
                continue
            time_base = packet.stream.time_base
            packet.pts -= shift[index]
            packet.dts -= shift[index]
            if packet.stream.type == "video":
                last_end = max(last_end, float((packet.pts + (packet.duration or 0)) * time_base))
            packet.stream = outputs[index]
            output.mux(packet)
    return last_end


def _encode(video: Path, start: float, end: float, target: Path, fps: int) -> float:
    with av.open(str(video)) as source, av.open(str(target), "w", format="mp4") as output:
        in_video = source.streams.video[0]
        in_audio = source.streams.audio[0] if source.streams.audio else None
        out_video = output.add_stream("libx264", rate=fps)
        out_video.options = {"crf": CRF, "preset": "veryfast", "bf": "0"}  # B-frames would give held frames wrong durations
        out_video.width, out_video.height, out_video.pix_fmt = in_video.width, in_video.height, "yuv420p"
        out_video.time_base = Fraction(1, fps)
        out_audio = resampler = None
        if in_audio is not None:
            out_audio = output.add_stream("aac", rate=in_audio.rate, layout=in_audio.layout.name)
            out_audio.bit_rate = AUDIO_BITRATE
            resampler = av.AudioResampler(format="fltp", layout=in_audio.layout.name, rate=in_audio.rate)
        ticks = max(1, round((end - start) * fps))  # frames of the clip
        shown, last_tick = None, -1  # the picture on screen, the tick it was last encoded at

        def put(picture: np.ndarray, tick: int) -> None:
            nonlocal last_tick
            frame = av.VideoFrame.from_ndarray(picture, format="rgb24")
            frame.pts, frame.time_base, last_tick = tick, Fraction(1, fps), tick
            output.mux(out_video.encode(frame))

        for frame in source.decode(*[s for s in (in_video, in_audio) if s is not None]):
            if frame.pts is None:
                continue
            at = float(frame.pts * frame.time_base)
            if isinstance(frame, av.VideoFrame):
                tick = round((at - start) * fps)
                if tick <= 0:
                    shown = frame.to_ndarray(format="rgb24")  # on screen when the clip starts
                elif last_tick < tick < ticks:
                    if last_tick < 0 and shown is not None:
                        put(shown, 0)
                    shown = frame.to_ndarray(format="rgb24")
                    put(shown, tick)
            elif out_audio is not None and start <= at < end:
                for sound in resampler.resample(frame):  # PyAV audio frames
                    sound.pts = int(round((at - start) * sound.sample_rate))
                    output.mux(out_audio.encode(sound))
        if shown is None:
            raise ValueError(f"{video} has no frame in {start:g}–{end:g} s")
        if last_tick < ticks - 1:  # the last picture held to the clip's end
            put(shown, ticks - 1)
        output.mux(out_video.encode(None))
        if out_audio is not None:
            output.mux(out_audio.encode(None))
    return ticks / fps


def frame_before(video: Path, at: float) -> Image.Image:
    """The frame on screen just before ``at`` seconds (the last frame of a step ending there)."""
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        container.seek(max(0, int((at - 2.0) / stream.time_base)), stream=stream, backward=True, any_frame=False)
        shown = None
        for frame in container.decode(stream):
            if frame.pts is not None and float(frame.pts * stream.time_base) >= at - 1e-6 and shown is not None:
                break
            shown = frame
        if shown is None:
            raise ValueError(f"{video} has no video frame before {at:g} s")
        return Image.fromarray(np.asarray(shown.to_ndarray(format="rgb24")))
