"""What does not change during a play, drawn once per play instead of every frame.

Manim redraws, in every frame of a play, every mobject from the first one that may move to the
last one added; while a ``ThreeDScene``'s camera moves (or its trackers merely sit among those
mobjects) it redraws all of them. Much of that is still: the axes, the sphere and the plane while
an arrow grows, captions and plots added after what moves, the title, legend, readouts and plots
fixed in the frame while a 3-D camera turns (every glyph is a path). Here each run of still mobjects in Manim's
drawing order (what is shaded in 3-D first, by depth, then the rest in the order added) is drawn
once, when the play begins, onto a transparent layer; each frame draws the other runs and lays
each layer over the frame at its place in the order (cairo, OVER, only on the tiles that hold
something). The frames equal Manim's up to rounding on anti-aliased edges (a level of 255), since
drawing paths over a picture and laying a layer of those paths over it are the same compositing.

A mobject is still when no animation of the play touches it or anything in its family, nothing
in the scene that holds it has an updater or is in the foreground, it is not shaded in 3-D (those
are sorted by depth every frame), and, if the camera moves, it is fixed in the frame.

The pipeline's renderer (:class:`scenes.render.manim_door.renderer.PipelineRenderer`) draws every
render this way; the scene code stays plain Manim, so ``manim render`` of a scene file draws the
usual way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cairo
import numpy as np
from manim.utils.iterables import list_update

__all__ = ["Layer", "StillOverlay", "still_overlay", "TILE"]

TILE = 32  # pixels; a layer is laid only over tiles that hold something


@dataclass
class Layer:
    """A run of still mobjects drawn once: premultiplied RGBA like Manim's pixel array, and the
    tiles where it is not empty, as (x, y, width, height) runs along rows of tiles."""

    members: tuple
    pixels: np.ndarray
    runs: tuple[tuple[int, int, int, int], ...]
    _surface: cairo.ImageSurface = field(init=False, repr=False)

    def __post_init__(self):
        height, width = self.pixels.shape[:2]
        self._surface = cairo.ImageSurface.create_for_data(self.pixels.data, cairo.FORMAT_ARGB32, width, height)

    def lay_over(self, target: cairo.ImageSurface) -> None:
        """Composite the layer over what ``target`` holds."""
        if not self.runs:
            return
        context = cairo.Context(target)
        for x, y, width, height in self.runs:
            context.rectangle(x, y, width, height)
        context.clip()
        context.set_source_surface(self._surface, 0, 0)
        context.paint()
        target.flush()


@dataclass
class StillOverlay:
    """A play's drawing order as runs: lists of mobjects to draw each frame (without their
    families; a 3-D camera sorts each by depth again) and layers to lay over them."""

    runs: list  # of list[Mobject] | Layer, in drawing order
    moving: list  # every mobject still drawn each frame: Manim's ``moving_mobjects`` for the play

    def draw(self, camera) -> None:
        """Draw one frame on top of what the camera holds (its background or static image)."""
        target = None
        for run in self.runs:
            if isinstance(run, Layer):
                target = target or camera.get_cairo_context(camera.pixel_array).get_target()
                run.lay_over(target)
            else:
                camera.capture_mobjects(run, include_submobjects=False)

    @property
    def layers(self) -> list[Layer]:
        return [run for run in self.runs if isinstance(run, Layer)]


def _tile_runs(alpha: np.ndarray) -> tuple[tuple[int, int, int, int], ...]:
    """Rectangles covering every tile of ``alpha`` with a non-zero pixel, one per run of such
    tiles along a row of tiles.

    >>> alpha = np.zeros((64, 96), np.uint8); alpha[5, 40] = alpha[40, 3] = alpha[40, 70] = 1
    >>> _tile_runs(alpha)
    ((32, 0, 32, 32), (0, 32, 32, 32), (64, 32, 32, 32))
    """
    height, width = alpha.shape
    rows, cols = -(-height // TILE), -(-width // TILE)
    padded = np.zeros((rows * TILE, cols * TILE), dtype=bool)
    padded[:height, :width] = alpha > 0
    used = padded.reshape(rows, TILE, cols, TILE).any(axis=(1, 3))
    runs = []
    for row in range(rows):
        col = 0
        while col < cols:
            if not used[row, col]:
                col += 1
                continue
            start = col
            while col < cols and used[row, col]:
                col += 1
            x, y = start * TILE, row * TILE
            runs.append((x, y, min(col * TILE, width) - x, min(TILE, height - y)))
    return tuple(runs)


def _animated(animations) -> set:
    """Every mobject (whole families) that an animation, or an animation inside a group, moves."""
    touched: set = set()
    stack = list(animations)
    while stack:
        animation = stack.pop()
        stack.extend(getattr(animation, "animations", ()))
        mobject = getattr(animation, "mobject", None)
        if mobject is not None:
            touched.update(mobject.get_family())
    return touched


def _draw_alone(camera, members: list) -> np.ndarray:
    """``members`` drawn on a transparent frame (the camera's own frame is left as it was)."""
    pixels = camera.pixel_array
    saved = pixels.copy()
    pixels[...] = 0
    camera.capture_mobjects(members, include_submobjects=False)
    layer = pixels.copy()
    pixels[...] = saved
    return layer


def _camera_parts(camera) -> list:
    """What moves the camera when animated: a 3-D camera's trackers, a moving camera's frame."""
    if hasattr(camera, "get_value_trackers"):
        return [*camera.get_value_trackers(), camera._frame_center]
    return [camera.frame] if hasattr(camera, "frame") else []


def still_overlay(scene, animations, moving: list) -> StillOverlay | None:
    """The runs for a play of ``scene`` whose ``moving`` mobjects (Manim's choice: every one from
    the first that may move on, or, in a ``ThreeDScene``, all of them when the camera's trackers
    are among those) hold some that stay still; None when none does."""
    camera = scene.renderer.camera
    touched = _animated(animations)
    for mobject in list_update(scene.mobjects, scene.foreground_mobjects):
        if mobject.get_family_updaters() or mobject in scene.foreground_mobjects:
            touched.update(mobject.get_family())
    camera_moves = any(part in touched for part in _camera_parts(camera))
    fixed = getattr(camera, "fixed_in_frame_mobjects", set())

    def still(mobject) -> bool:
        return all(m not in touched and not getattr(m, "shade_in_3d", False) and (m in fixed or not camera_moves)
                   for m in mobject.get_family())

    runs: list = []
    for mobject in camera.get_mobjects_to_display(moving):
        kind = still(mobject)
        if not runs or kind != isinstance(runs[-1], tuple):
            runs.append(() if kind else [])
        runs[-1] = runs[-1] + (mobject,) if kind else runs[-1] + [mobject]
    if not any(isinstance(run, tuple) for run in runs):
        return None
    drawn = []
    for run in runs:
        if isinstance(run, tuple):
            pixels = _draw_alone(camera, list(run))
            drawn.append(Layer(run, pixels, _tile_runs(pixels[..., 3])))
        else:
            drawn.append(run)
    return StillOverlay(drawn, [m for run in runs if isinstance(run, list) for m in run])
