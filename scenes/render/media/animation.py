"""A web animation from Manim's lossless PNG frames: one encoder per format, chosen from one table.

Each encoder streams the frames (a frame or two in memory) into the target and returns its stats
with the format's own manifest fields; the animation's size and its SSIM against the lossless
frames (matched by time) are added for every format.
"""

from __future__ import annotations

from pathlib import Path

from scenes.render.errors import InputError
from scenes.render.media.frames import png_frames
from scenes.render.media.gif import encode_gif
from scenes.render.media.gif_budget import fit_gif_to_size, smallest_reachable_size
from scenes.render.media.loop import encode_loop_video
from scenes.render.media.quality import method_name, ssim_of_animation
from scenes.render.media.webp import encode_webp

__all__ = ["make_animation", "BudgetNotMet", "ENCODERS"]


class BudgetNotMet(InputError):
    """--max-size is below the smallest GIF these frames make; the message says how small that is
    (a setting the user chose, so the summary shows the message alone)."""


def _gif(frames, target: Path, width: int, options) -> tuple[object, dict]:
    """A GIF; with ``max_size``, the best quality that fits (refused before any search if even the
    smallest GIF cannot)."""
    if options.max_size is None:
        stats = encode_gif(frames(), target, width, options.fps, options.loop)
        return stats, {"quality": stats.quality}
    estimate = smallest_reachable_size(frames(), width, options.fps, options.loop)
    if not estimate.reachable(options.max_size):
        raise BudgetNotMet(f"--max-size {options.max_size:,} bytes cannot be met: the smallest GIF of these "
                           f"frames at {width} px and {options.fps} fps is {estimate.smallest_bytes:,} bytes "
                           f"(try a smaller --width or --fps)")
    search = fit_gif_to_size(frames, target, width, options.max_size, options.fps, options.loop, estimate=estimate)
    stats = search.result
    return stats, {"quality": stats.quality, "fits_budget": search.met, "max_size": options.max_size}


def _webp(frames, target: Path, width: int, options) -> tuple[object, dict]:
    stats = encode_webp(frames(), target, width, options.fps, options.loop, lossless=options.lossless)
    return stats, {"lossless": options.lossless}


def _loop(frames, target: Path, width: int, options) -> tuple[object, dict]:
    return encode_loop_video(frames(), target, width, options.fps), {}


# format (``GifOptions.format``) → encoder(frames, target, width, options) → (stats, manifest fields)
ENCODERS = {"gif": _gif, "webp": _webp, "mp4": _loop}


def make_animation(job, output, scratch: Path) -> tuple[list[tuple[Path, str]], dict]:
    """The web animation of ``job`` (a ``RenderJob`` with ``gif`` options) from ``output`` (what
    Manim wrote): [(file, name in the output folder)] and its ``gif`` manifest fields."""
    if output.frames_dir is None or not output.frames_dir.is_dir():
        raise RuntimeError("manim wrote no frames for the animation")
    options, width = job.gif, job.animation_width

    def frames():
        return png_frames(output.frames_dir, output.repeats, output.frame_rate, poster_first=True)

    target = scratch / Path(job.relative_path).name
    stats, details = ENCODERS[options.format](frames, target, width, options)
    details = {"format": options.format} | details | {
        "width": stats.width, "height": stats.height,
        "ssim": round(ssim_of_animation(target, frames()), 4), "ssim_method": method_name(),
        "text_left_out": [text for text, _ in output.left_out], "all_text_legible_from": output.legible_from}
    return [(target, job.relative_path)], {"gif": details}
