"""How close an encoded animation is to the lossless frames it was made from, by a standard SSIM.

Two standard implementations, each named wherever a value is printed:

* ``ffmpeg`` (the default): FFmpeg's ``ssim`` filter through PyAV. Both images go in as RGB, so
  the filter works on the R, G and B planes (8×8 windows on a 4-pixel grid, Wang et al.
  constants) and the value is its ``All`` figure, the mean of the three planes. This is the
  number ``ffmpeg -i a.gif -i b.png -lavfi ssim`` prints, so it can be checked from a shell.
* ``skimage``: scikit-image's ``structural_similarity`` on the RGB image (7×7 uniform windows,
  ``data_range=255``, mean over channels).

An animation is compared *by time*: encoders merge held frames and round delays, so frame ``i``
of the file is not frame ``i`` of the source. The value is the mean SSIM over the source's
duration: every stretch of time in which both one source frame and one decoded frame are on
screen is weighted by its length.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from av.filter import Graph
from PIL import Image

__all__ = [
    "METHODS",
    "method_name",
    "ssim",
    "FfmpegSsim",
    "ssim_of_animation",
    "ssim_of_frames",
    "ssim_of_videos",
    "decoded_frames",
    "scaled_size",
    "scale_frame",
    "scaled_frames",
    "timed_frames",
    "scaled_timed_frames",
]

METHODS = {
    "ffmpeg": "SSIM (FFmpeg ssim filter, RGB planes, 'All')",
    "skimage": "SSIM (scikit-image structural_similarity, RGB, 7x7 uniform)",
}


def method_name(method: str = "ffmpeg") -> str:
    """How a value computed with ``method`` is labelled where it is printed."""
    try:
        return METHODS[method]
    except KeyError:
        raise ValueError(f"unknown SSIM method {method!r}; valid: {', '.join(METHODS)}") from None


# --------------------------------------------------------------------------------------------
# Frame size: the reference and every encoder scale the same way.


def scaled_size(width: int, height: int, target_width: int) -> tuple[int, int]:
    """(width, height) of a frame scaled to ``target_width`` (never up), height kept even so that
    the same size also works for 4:2:0 video."""
    new_width = min(int(target_width), width)
    if new_width == width and height % 2 == 0:
        return width, height
    new_height = max(2, int(round(height * new_width / width / 2)) * 2)
    return new_width, new_height


def scale_frame(frame: np.ndarray, width: int) -> np.ndarray:
    """An RGB uint8 frame scaled to ``width`` pixels (Lanczos); unchanged when already that wide."""
    height, source_width = frame.shape[:2]
    size = scaled_size(source_width, height, width)
    if size == (source_width, height):
        return np.ascontiguousarray(frame[:, :, :3])
    return np.asarray(Image.fromarray(np.ascontiguousarray(frame[:, :, :3])).resize(size, Image.LANCZOS))


def scaled_frames(frames: Iterable[tuple[np.ndarray, float]], width: int) -> Iterator[tuple[np.ndarray, float]]:
    """(frame, seconds) pairs with each frame scaled to ``width``; one frame at a time."""
    for frame, seconds in frames:
        yield scale_frame(frame, width), seconds


def timed_frames(frames: Iterable[tuple[np.ndarray, float]], fps: float,
                 units_per_second: int) -> Iterator[tuple[np.ndarray | None, int, int]]:
    """(frame, start, end) with times in whole ``units_per_second`` (100: GIF centiseconds,
    1000: WebP milliseconds), rounded on the running total so that the sum of the delays is the
    source's duration. At most ``fps`` frames a second: a frame is kept when it is on screen at
    one of the ticks k/fps; a frame that is not comes back as ``None`` and only lengthens the
    last kept one."""
    if fps <= 0:
        raise ValueError("fps must be positive")
    tick = 0
    start = 0.0
    for frame, seconds in frames:
        if seconds < 0:
            raise ValueError("a frame cannot be shown for a negative time")
        end = start + seconds
        begin_unit, end_unit = int(round(start * units_per_second)), int(round(end * units_per_second))
        if tick / fps < end - 1e-9 and end_unit > begin_unit:
            yield frame, begin_unit, end_unit
            tick = math.floor(end * fps - 1e-9) + 1
        else:
            yield None, begin_unit, end_unit
        start = end


def scaled_timed_frames(frames: Iterable[tuple[np.ndarray, float]], width: int, fps: float,
                        units_per_second: int) -> Iterator[tuple[np.ndarray | None, int, int]]:
    """The frame loop of every web-animation encoder: :func:`timed_frames`, each kept frame checked
    to be RGB uint8 and scaled to ``width`` (:func:`scale_frame`); frames that change size are
    refused."""
    size = None
    for frame, start, end in timed_frames(frames, fps, units_per_second):
        if frame is not None:
            if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] < 3:
                raise ValueError("frames must be RGB uint8 arrays")
            frame = scale_frame(frame, width)
            if size is None:
                size = frame.shape
            elif frame.shape != size:
                raise ValueError("all frames must have one size")
        yield frame, start, end


# --------------------------------------------------------------------------------------------
# SSIM of two images.


class FfmpegSsim:
    """FFmpeg's ``ssim`` filter, kept open for a run of same-sized image pairs."""

    def __init__(self):
        self._graph = None
        self._size = None
        self._pts = 0

    def _configure(self, width: int, height: int) -> None:
        graph = Graph()
        time_base = Fraction(1, 1000)
        self._main = graph.add_buffer(width=width, height=height, format="rgb24", time_base=time_base)
        self._ref = graph.add_buffer(width=width, height=height, format="rgb24", time_base=time_base)
        ssim_filter = graph.add("ssim")
        sink = graph.add("buffersink")
        self._main.link_to(ssim_filter, 0, 0)
        self._ref.link_to(ssim_filter, 0, 1)
        ssim_filter.link_to(sink)
        graph.configure()
        self._graph, self._size, self._pts = graph, (width, height), 0

    def __call__(self, a: np.ndarray, b: np.ndarray) -> float:
        if a.shape != b.shape:
            raise ValueError(f"images differ in shape: {a.shape} and {b.shape}")
        height, width = a.shape[:2]
        if self._size != (width, height):
            self._configure(width, height)
        for source, image in ((self._main, a), (self._ref, b)):
            frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(image[:, :, :3]), format="rgb24")
            frame.pts, frame.time_base = self._pts, Fraction(1, 1000)
            source.push(frame)
        self._pts += 1
        out = self._graph.pull()
        return float(out.metadata["lavfi.ssim.All"])


def _skimage_ssim(a: np.ndarray, b: np.ndarray) -> float:
    from skimage.metrics import structural_similarity

    return float(structural_similarity(a[:, :, :3], b[:, :, :3], channel_axis=2, data_range=255))


def ssim(a: np.ndarray, b: np.ndarray, method: str = "ffmpeg") -> float:
    """SSIM of two RGB uint8 images of one size, by ``method`` (see ``METHODS``)."""
    method_name(method)
    if method == "skimage":
        return _skimage_ssim(a, b)
    return FfmpegSsim()(a, b)


def _comparer(method: str):
    method_name(method)
    return _skimage_ssim if method == "skimage" else FfmpegSsim()


# --------------------------------------------------------------------------------------------
# Decoding an animation: (RGB frame, seconds) pairs, one at a time.


def decoded_frames(path: Path) -> Iterator[tuple[np.ndarray, float]]:
    """Every frame of a GIF, animated WebP, MP4 or WebM file as shown (RGB uint8, composed on
    the canvas) with the seconds it stays on screen; one frame in memory at a time."""
    path = Path(path)
    if path.suffix.lower() in (".gif", ".webp", ".png", ".apng"):
        yield from _pillow_frames(path)
    else:
        yield from _video_frames(path)


def _pillow_frames(path: Path) -> Iterator[tuple[np.ndarray, float]]:
    with Image.open(path) as image:
        index = 0
        while True:
            try:
                image.seek(index)
            except EOFError:
                return
            rgb = np.asarray(image.convert("RGB"))  # WebP sets the duration only once loaded
            duration_ms = image.info.get("duration", 0) or 0
            yield rgb, duration_ms / 1000.0
            index += 1


def _video_frames(path: Path) -> Iterator[tuple[np.ndarray, float]]:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        previous = None
        for frame in container.decode(stream):
            time = float(frame.pts * stream.time_base) if frame.pts is not None else None
            if previous is not None:
                yield previous[0], max(0.0, time - previous[1])
            previous = (frame.to_ndarray(format="rgb24"), time)
        if previous is not None:
            # the last frame lasts one frame period (or what the container says is left)
            rate = stream.average_rate or stream.guessed_rate or 15
            period = 1.0 / float(rate)
            end = float(stream.duration * stream.time_base) if stream.duration else None
            yield previous[0], (end - previous[1]) if end and end > previous[1] else period


# --------------------------------------------------------------------------------------------
# SSIM of an animation against its reference frames, matched by time.


def ssim_of_frames(shown: Iterable[tuple[np.ndarray, float]], reference: Iterable[tuple[np.ndarray, float]],
                   method: str = "ffmpeg") -> float:
    """Mean SSIM, over the reference's duration, of what ``shown`` has on screen against what
    ``reference`` has on screen at the same moment. Both are (RGB frame, seconds) pairs; a frame
    of ``shown`` with another size than the reference is an error. When ``shown`` ends early its
    last frame stays on screen (as a browser shows it)."""
    compare = _comparer(method)
    shown_iter, ref_iter = iter(shown), iter(reference)
    current, current_end = None, 0.0
    total_weight = weighted = 0.0
    cache: dict[tuple[int, int], float] = {}
    shown_index = -1
    ref_time = 0.0
    for ref_index, (ref_frame, ref_seconds) in enumerate(ref_iter):
        ref_end = ref_time + ref_seconds
        position = ref_time
        while position < ref_end - 1e-9:
            while current is None or (current_end <= position + 1e-9 and current_end is not None):
                try:
                    frame, seconds = next(shown_iter)
                except StopIteration:
                    if current is None:
                        raise ValueError("the animation has no frames") from None
                    current_end = float("inf")
                    break
                current, current_end = frame, current_end + seconds
                shown_index += 1
            if current.shape[:2] != ref_frame.shape[:2]:
                raise ValueError(f"animation is {current.shape[1]}x{current.shape[0]}, "
                                 f"reference {ref_frame.shape[1]}x{ref_frame.shape[0]}")
            stop = min(ref_end, current_end)
            key = (shown_index, ref_index)
            if key not in cache:
                cache.clear()
                cache[key] = compare(current, ref_frame)
            weighted += cache[key] * (stop - position)
            total_weight += stop - position
            position = stop
        ref_time = ref_end
    if total_weight <= 0:
        raise ValueError("the reference has no duration")
    return weighted / total_weight


def ssim_of_animation(path: Path, reference: Iterable[tuple[np.ndarray, float]], method: str = "ffmpeg") -> float:
    """Mean SSIM (by ``method``, see ``METHODS``) of the animation in ``path`` against
    ``reference`` (RGB frame, seconds shown) pairs, matched by time. Reference frames wider than
    the animation are scaled to its width the way the encoders scale (``scale_frame``)."""
    shown = decoded_frames(path)
    first = next(shown, None)
    if first is None:
        raise ValueError(f"{path} has no frames")
    width = first[0].shape[1]

    def chained():
        yield first
        yield from shown

    def fitted():
        for frame, seconds in reference:
            yield (scale_frame(frame, width) if frame.shape[1] != width else frame), seconds

    return ssim_of_frames(chained(), fitted(), method)


def ssim_of_videos(path: Path, reference: Path, every: int = 1, method: str = "ffmpeg") -> float:
    """Mean SSIM (by ``method``) of the video in ``path`` against the video ``reference`` of the
    same size and frame count, frame by frame, over every ``every``-th frame."""
    if every < 1:
        raise ValueError("every must be at least 1")
    compare = _comparer(method)
    values = []
    with av.open(str(path)) as shown, av.open(str(reference)) as ref:
        pairs = zip(shown.decode(video=0), ref.decode(video=0), strict=True)
        for index, (a, b) in enumerate(pairs):
            if index % every == 0:
                values.append(compare(a.to_ndarray(format="rgb24"), b.to_ndarray(format="rgb24")))
    if not values:
        raise ValueError(f"{path} has no frames")
    return float(np.mean(values))
