"""The lossless frames Manim wrote as a PNG sequence, and how often each was shown."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

__all__ = ["expand_repeats", "png_frames", "load_png_frames"]


def expand_repeats(frames: list, repeats: list[int] | None) -> list:
    """Each frame as many times as it was shown.

    >>> expand_repeats(["a", "b"], [1, 3])
    ['a', 'b', 'b', 'b']
    """
    if not repeats:
        return frames
    if len(repeats) != len(frames):
        raise RuntimeError(f"manim wrote {len(frames)} frames but showed {len(repeats)}")
    return [frame for frame, count in zip(frames, repeats) for _ in range(count)]


def _rgb(path: Path) -> np.ndarray:
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


def png_frames(folder: Path, repeats: list[int], frame_rate: float, poster_first: bool = False):
    """(RGB frame, seconds shown) for each PNG Manim wrote, one frame in memory at a time; a held
    frame is shown for its repeat count (see ``manim_door.writer.FrameSequenceWriter``).

    ``poster_first``: a first frame of one colour (nothing drawn yet) is shown as the last frame
    instead, for as long: a viewer that shows only the first frame (an e-mail client) shows the
    finished picture, and a looping animation goes from its last frame to that same picture."""
    paths = sorted(Path(folder).glob("*.png"))
    if repeats and len(repeats) != len(paths):
        raise RuntimeError(f"manim wrote {len(paths)} frames but showed {len(repeats)}")
    for index, path in enumerate(paths):
        frame = _rgb(path)
        if index == 0 and poster_first and len(paths) > 1 and (frame == frame[0, 0]).all():
            frame = _rgb(paths[-1])
        yield frame, (repeats[index] if repeats else 1) / frame_rate


def load_png_frames(folder: Path) -> list[np.ndarray]:
    """The lossless frames Manim wrote as a PNG sequence, in order."""
    return [np.asarray(Image.open(p).convert("RGB")) for p in sorted(Path(folder).glob("*.png"))]
