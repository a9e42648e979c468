"""Joining rendered scenes into one video with a chapter per scene (PyAV remux, no re-encode)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np

__all__ = ["concatenate", "concatenate_with_chapters", "video_duration", "read_timed_frames", "frames_at"]


def video_duration(path: Path) -> float:
    """Duration in seconds of a video file's first video stream."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        if stream.duration is not None:
            return float(stream.duration * stream.time_base)
        return float(container.duration / av.time_base)


def concatenate(paths: list[Path], target: Path, chapter_titles: list[str] | None = None) -> list[tuple[float, float]]:
    """Remux videos of one codec and size one after another into ``target`` (its container from its
    suffix), without re-encoding; with ``chapter_titles``, one chapter per part. Returns each
    part's (start, end) in seconds."""
    spans, chapters = [], []
    with av.open(str(target), "w") as output:
        out_stream, offset, time_base = None, 0, None  # offset in the output stream's time base
        for index, path in enumerate(paths):
            with av.open(str(path)) as source:
                in_stream = source.streams.video[0]
                if out_stream is None:
                    out_stream = output.add_stream_from_template(in_stream)
                    time_base = in_stream.time_base
                elif in_stream.time_base != time_base:
                    raise RuntimeError(f"{Path(path).name}: time base {in_stream.time_base}, expected {time_base}")
                last_end = offset
                for packet in source.demux(in_stream):
                    if packet.dts is None:
                        continue
                    end = packet.pts + (packet.duration or 0)
                    packet.pts += offset
                    packet.dts += offset
                    packet.stream = out_stream
                    last_end = max(last_end, offset + end)
                    output.mux(packet)
            if chapter_titles is not None:
                chapters.append({"id": index + 1, "start": int(offset), "end": int(last_end),
                                 "time_base": Fraction(time_base), "metadata": {"title": chapter_titles[index]}})
            spans.append((float(offset * time_base), float(last_end * time_base)))
            offset = last_end
        if chapters:
            output.set_chapters(chapters)
    return spans


def concatenate_with_chapters(parts: list[tuple[Path, str]], target: Path) -> list[tuple[float, float]]:
    """Remux the videos (same codec and size) one after another into the MP4 ``target``, with one
    chapter per part titled as given. Returns each part's (start, end) in seconds."""
    return concatenate([path for path, _ in parts], target, [title for _, title in parts])


def read_timed_frames(path: Path) -> list[tuple[float, np.ndarray]]:
    """(start time in seconds, RGB frame) of every frame as decoded (a GIF's merged frames keep
    their own start times)."""
    frames = []
    with av.open(str(path)) as container:
        for frame in container.decode(video=0):
            frames.append((float(frame.pts * frame.time_base) if frame.pts is not None else 0.0,
                           frame.to_ndarray(format="rgb24")))
    return frames


def frames_at(timed: list[tuple[float, np.ndarray]], times) -> list[np.ndarray]:
    """The frame on screen at each of ``times`` (the last one that started at or before it)."""
    starts = np.array([t for t, _ in timed])
    picks = np.clip(np.searchsorted(starts, np.asarray(times) + 1e-6, side="right") - 1, 0, len(timed) - 1)
    return [timed[i][1] for i in picks]
