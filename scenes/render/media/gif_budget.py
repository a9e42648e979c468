"""A GIF within a byte budget: the smallest size the frames can reach, and the best quality that
fits (``normgeo gif --max-size``)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scenes.render.errors import InputError
from scenes.render.media.gif import GifStats, encode_gif
from scenes.render.media.quality import scaled_size

__all__ = ["SizeEstimate", "SizeSearch", "smallest_reachable_size", "fit_gif_to_size", "smallest_possible_gif",
           "refuse_impossible_budget", "FLOOR_QUALITY"]

# --------------------------------------------------------------------------------------------
# A size budget


FLOOR_QUALITY = 1  # the lowest quality a search goes to


@dataclass(frozen=True)
class SizeEstimate:
    """The smallest GIF this encoder makes of these frames at this width and frame rate: an
    encode at the lowest quality (so exact, not a guess), made before any search."""

    smallest_bytes: int
    width: int
    quality: int
    seconds: float

    def reachable(self, max_size: int) -> bool:
        return self.smallest_bytes <= max_size


@dataclass(frozen=True)
class SizeSearch:
    """Outcome of ``fit_gif_to_size``: ``met`` tells whether ``result`` fits the budget; when it
    does not, ``result`` is the smallest GIF that could be made (written to the target)."""

    result: GifStats
    met: bool
    max_size: int
    smallest_bytes: int
    tried: tuple[tuple[int, int], ...]  # (quality, bytes)


def smallest_possible_gif(width: int, height: int) -> int:
    """A lower bound on the bytes of any GIF whose first frame covers ``width`` × ``height`` pixels
    (as every GIF this encoder writes does), known before any frame is rendered: a budget below it
    is refused at once.

    The i-th LZW code of a frame stands for at most min(i, 4096) pixels (each new table entry is
    one pixel longer than a code already read, and the table holds 4096 codes), and it is as wide
    as the decoder's next free table entry needs (3 to 12 bits, from the minimum code size 2..8;
    the smallest total is taken). Around the image data: the header, the screen descriptor, a
    colour table of at least two colours, the image descriptor, the minimum code size, the data's
    block lengths, the block terminator and the trailer; extensions and clear codes only add.

    >>> smallest_possible_gif(1, 1)
    34
    >>> 700 < smallest_possible_gif(640, 360) < 1000
    True
    """
    pixels = max(1, width) * max(1, height)
    data = min(_fewest_lzw_bits(pixels, code_size) for code_size in range(2, 9))
    data_bytes = -(-data // 8)
    blocks = -(-data_bytes // 255)
    return 6 + 7 + 6 + 10 + 1 + data_bytes + blocks + 1 + 1


def refuse_impossible_budget(max_size: int, width: int, frame_size: tuple[int, int]) -> None:
    """A ``--max-size`` that no GIF of this size can meet, refused before anything renders (one
    line); a budget that only these frames cannot meet is found once they are rendered."""
    size = scaled_size(*frame_size, width)
    floor = smallest_possible_gif(*size)
    if max_size < floor:
        raise InputError(f"--max-size {max_size:,} bytes cannot be met: any GIF of {size[0]}×{size[1]} pixels takes "
                         f"at least {floor:,} bytes (give a larger --max-size or a smaller --width)")


def _fewest_lzw_bits(pixels: int, code_size: int) -> int:
    """The fewest bits LZW codes of minimum size ``code_size`` can spend on ``pixels`` pixels."""
    bits, covered, code = 0, 0, 0
    while covered < pixels:
        code += 1
        next_entry = (1 << code_size) + 2 + max(0, code - 2)
        bits += min(12, max(code_size + 1, next_entry.bit_length()))
        covered += min(code, 4096)
    return bits


def smallest_reachable_size(frames: Iterable[tuple[np.ndarray, float]], width: int, fps: float = 15,
                            loop: int = 0) -> SizeEstimate:
    """How small a GIF of these frames can get (at ``FLOOR_QUALITY``): compare with a budget
    before searching, and refuse at once when it is larger."""
    with tempfile.TemporaryDirectory(prefix="normgeo-gif-floor-") as folder:
        stats = encode_gif(frames, Path(folder) / "floor.gif", width, fps, loop, quality=FLOOR_QUALITY)
    return SizeEstimate(stats.size_bytes, stats.width, FLOOR_QUALITY, stats.encode_seconds)


def fit_gif_to_size(frames_factory, target: Path, width: int, max_size: int, fps: float = 15, loop: int = 0,
                    max_quality: int = 90, estimate: SizeEstimate | None = None) -> SizeSearch:
    """The best-quality GIF no larger than ``max_size`` bytes, written to ``target``.
    ``frames_factory()`` returns a new iterable of (frame, seconds) pairs each time (one per
    encode). The floor is estimated first (or taken from ``estimate``): when even it does not fit,
    the floor GIF itself is written, ``met=False``, and nothing else is tried. Otherwise a
    bisection on quality (about six encodes) keeps the best GIF that fits."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{target.name}.", dir=target.parent) as folder:
        floor_path = Path(folder) / "floor.gif"
        if estimate is None:
            floor = encode_gif(frames_factory(), floor_path, width, fps, loop, quality=FLOOR_QUALITY)
            estimate = SizeEstimate(floor.size_bytes, floor.width, FLOOR_QUALITY, floor.encode_seconds)
        else:
            floor = None
        tried: list[tuple[int, int]] = [(FLOOR_QUALITY, estimate.smallest_bytes)]
        if not estimate.reachable(max_size):
            result = floor or encode_gif(frames_factory(), floor_path, width, fps, loop, quality=FLOOR_QUALITY)
            return SizeSearch(_install(result, target), False, max_size, result.size_bytes, tuple(tried))
        best = floor
        low, high = FLOOR_QUALITY, max_quality  # ``low`` fits, ``high`` is still to try
        probe_quality = high
        while True:
            probe = encode_gif(frames_factory(), Path(folder) / f"q{probe_quality}.gif", width, fps, loop,
                               quality=probe_quality)
            tried.append((probe_quality, probe.size_bytes))
            if probe.size_bytes <= max_size:
                best, low = probe, probe_quality
            else:
                high = probe_quality
            if high - low <= 3 or best is probe and probe_quality == max_quality:
                break
            probe_quality = (low + high) // 2
        if best is None:  # only the estimate was given and nothing above the floor fits
            best = encode_gif(frames_factory(), floor_path, width, fps, loop, quality=FLOOR_QUALITY)
        return SizeSearch(_install(best, target), True, max_size, min(size for _, size in tried), tuple(tried))


def _install(stats: GifStats, target: Path) -> GifStats:
    os.replace(stats.path, target)
    return GifStats(target, stats.size_bytes, stats.width, stats.height, stats.frames, stats.source_frames,
                    stats.duration_s, stats.quality, stats.encode_seconds, stats.local_palettes)
