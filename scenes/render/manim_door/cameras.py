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
"""

from __future__ import annotations

from manim.camera.camera import Camera
from manim.camera.three_d_camera import ThreeDCamera

__all__ = ["PathCachingCamera", "PathCachingThreeDCamera"]


class _PathCache:
    """Mixin for a Cairo camera: ``path_cache`` maps a mobject's id to (its points' bytes, the
    cairo path built from them)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.path_cache: dict[int, tuple[bytes, object]] = {}

    def draws_as_is(self, vmobject) -> bool:
        """Whether the camera draws ``vmobject``'s points as they are (not projected anew)."""
        return True

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
