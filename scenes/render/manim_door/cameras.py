"""A mobject's cairo path, built once while its points stay the same.

Manim turns every drawn VMobject into a cairo path in every frame: it finds the subpaths in the
points and issues one ``curve_to`` per Bézier curve, in Python (about a quarter of a 1080p frame's
drawing in a scene of captions and plots). A mobject redrawn only because it was added after
something that moves, or fixed in the frame while a 3-D camera turns, keeps its points (an
animated one gets new ones, even when they are equal in value), so its path is the same: here
the path is kept (``cairo.Context.copy_path``) with the points it was built from, and appended
again while they are equal byte for byte. The frames are unchanged, pixel for pixel.

Only points that the camera draws as they are qualify: those of a flat camera, and those fixed in
the frame of a 3-D one (the others are projected anew in every frame).
"""

from __future__ import annotations

__all__ = ["use_path_cache"]


def use_path_cache(camera) -> dict:
    """Let ``camera`` (Manim's Cairo camera) reuse paths; returns the cache (mobject id → (points
    bytes, path)), for inspection."""
    build = camera.set_cairo_context_path
    projects = hasattr(camera, "fixed_in_frame_mobjects")
    fixed = getattr(camera, "fixed_in_frame_mobjects", set())
    cache: dict[int, tuple[bytes, object]] = {}

    def set_cairo_context_path(ctx, vmobject):
        if (projects and vmobject not in fixed) or len(vmobject.points) == 0:
            return build(ctx, vmobject)  # (Manim leaves the last path in place for no points)
        key = vmobject.points.tobytes()
        kept = cache.get(id(vmobject))
        if kept is not None and kept[0] == key:
            ctx.new_path()
            ctx.append_path(kept[1])
            return camera
        build(ctx, vmobject)
        cache[id(vmobject)] = (key, ctx.copy_path())
        return camera

    camera.set_cairo_context_path = set_cairo_context_path
    return cache
