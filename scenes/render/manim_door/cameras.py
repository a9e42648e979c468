"""The pipeline's cameras: Manim's, keeping a mobject's cairo path while its points stay the same.

Manim turns every drawn VMobject into a cairo path in every frame: it finds the subpaths in the
points and issues one ``curve_to`` per Bézier curve, in Python (about a quarter of a 1080p frame's
drawing in a scene of captions and plots). A mobject redrawn only because it was added after
something that moves, or fixed in the frame while a 3-D camera turns, keeps its points (an
animated one gets new ones, even when they are equal in value), so its path is the same: here
the path is kept (``cairo.Context.copy_path``) with the points it was built from, and appended
again while they are equal byte for byte. The frames are unchanged, pixel for pixel.

Only points that the camera draws as they are qualify: those of a flat camera, and those fixed in
the frame of a 3-D one (the others are projected anew in every frame).

Handed to Manim through ``CairoRenderer(camera_class=…)``: :class:`PathCachingCamera` for a flat
scene, :class:`PathCachingThreeDCamera` for a ``ThreeDScene``.

A web animation's frames are drawn by :class:`LegibleTextCamera` or
:class:`LegibleTextThreeDCamera` instead (:func:`camera_for_animation`): the same, but a text whose
capitals would be lower than the legible least in the animation as shown (``scenes.kit.legibility``)
is left out of the frame; ``left_out`` says which, with the largest font size each reached.
"""

from __future__ import annotations

from functools import partial

from manim import Typst
from manim.camera.camera import Camera
from manim.camera.three_d_camera import ThreeDCamera

from scenes.kit.legibility import least_legible_width, legible
from scenes.kit.widgets import LegendRow

__all__ = ["PathCachingCamera", "PathCachingThreeDCamera", "LegibleTextCamera", "LegibleTextThreeDCamera",
           "camera_for_animation"]


class _PathCache:
    """Mixin for a Cairo camera: ``path_cache`` maps a mobject's id to (its points' bytes, the
    cairo path built from them)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.path_cache: dict[int, tuple[bytes, object]] = {}

    def draws_as_is(self, vmobject) -> bool:
        """Whether the camera draws ``vmobject``'s points as they are (not projected anew)."""
        return True

    def look_at(self, scene) -> None:
        """Called by the pipeline's renderer before it draws a frame of ``scene`` (nothing to do here)."""

    def set_cairo_context_path(self, ctx, vmobject):
        if not self.draws_as_is(vmobject) or len(vmobject.points) == 0:
            return super().set_cairo_context_path(ctx, vmobject)  # (Manim leaves the last path for no points)
        key = vmobject.points.tobytes()
        kept = self.path_cache.get(id(vmobject))
        if kept is not None and kept[0] == key:
            ctx.new_path()
            ctx.append_path(kept[1])
            return self
        super().set_cairo_context_path(ctx, vmobject)
        self.path_cache[id(vmobject)] = (key, ctx.copy_path())
        return self


class PathCachingCamera(_PathCache, Camera):
    """Manim's flat camera, keeping paths."""


class PathCachingThreeDCamera(_PathCache, ThreeDCamera):
    """Manim's 3-D camera, keeping the paths of what is fixed in the frame."""

    def draws_as_is(self, vmobject) -> bool:
        return vmobject in self.fixed_in_frame_mobjects


class _LegibleText:
    """Mixin for a camera drawing a picture shown ``shown_width`` pixels wide with text in ``lang``:
    each frame leaves out every text (a Typst mobject and its glyphs) too small to read there. A text
    counts by the font size it has in that frame, so one being written appears once it is as large
    as it will be legible; ``left_out`` maps each text that never became legible to its largest size."""

    def __init__(self, *args, shown_width: int, lang: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.shown_width, self.lang = shown_width, lang
        self._small: dict[int, tuple[str, float]] = {}  # id → (text, largest font size), never legible yet
        self._shown: set[int] = set()
        self._hidden: set[int] = set()  # ids of every part of a text too small to draw now

    @property
    def left_out(self) -> list[tuple[str, float]]:
        """Every text that was never drawn, as (its Typst code, the largest font size it reached)."""
        return [self._small[key] for key in sorted(self._small) if key not in self._shown]

    @property
    def legible_from(self) -> int | None:
        """The narrowest width at which every text left out would have been drawn (None: none was)."""
        sizes = [size for _, size in self.left_out]
        return max(least_legible_width(size, self.frame_width, self.lang) for size in sizes) if sizes else None

    def look_at(self, scene) -> None:
        """Decide, from ``scene``'s mobjects as they are now, which texts are too small to draw.
        (The lists Manim hands the camera hold a text's glyphs without the text, so the decision is
        made here, over whole families, before each frame or still layer is drawn.)"""
        hidden: set[int] = set()
        rows = []
        for top in [*scene.mobjects, *scene.foreground_mobjects]:
            for mobject in top.get_family():
                if isinstance(mobject, LegendRow):
                    rows.append(mobject)
                if not isinstance(mobject, Typst) or id(mobject) in hidden or mobject.height <= 0:
                    continue
                size = float(mobject.font_size)
                if legible(size, self.shown_width, self.frame_width, self.lang):
                    self._shown.add(id(mobject))
                    continue
                text, largest = self._small.get(id(mobject), (mobject.typst_code, 0.0))
                self._small[id(mobject)] = (text, max(size, largest))
                hidden.update(id(part) for part in mobject.get_family())
        for row in rows:  # a swatch goes with its text
            if any(id(part) in hidden for part in row.get_family()):
                hidden.update(id(part) for part in row.get_family())
        self._hidden = hidden

    def get_mobjects_to_display(self, *args, **kwargs):
        return [mobject for mobject in super().get_mobjects_to_display(*args, **kwargs) if id(mobject) not in self._hidden]


class LegibleTextCamera(_LegibleText, PathCachingCamera):
    """The flat camera of a web animation: no text too small to read at the width it is shown."""


class LegibleTextThreeDCamera(_LegibleText, PathCachingThreeDCamera):
    """The 3-D camera of a web animation: no text too small to read at the width it is shown."""


def camera_for_animation(camera_class: type, shown_width: int, lang: str):
    """The camera (a class to call with no arguments, as ``CairoRenderer`` does) drawing the frames of
    a web animation shown ``shown_width`` pixels wide, for a scene whose pipeline camera is ``camera_class``."""
    legible_class = LegibleTextThreeDCamera if issubclass(camera_class, ThreeDCamera) else LegibleTextCamera
    return partial(legible_class, shown_width=shown_width, lang=lang)
