"""Depth in 3-D scenes, readable on a paused frame: a wire sphere whose half away from the camera is
fainter and thinner, labels that stay beside a 3-D point as the camera turns, named axes x₁ x₂ x₃,
and marks whose opacity follows their depth.

Depth is told by opacity and stroke width only, never by mixing colours (a concept keeps its colour).
Everything is curves and flat marks: per frame a sphere costs 2 polylines per ring (re-split as the
camera turns) and a label one projection, against about a millisecond per face of a shaded surface.

The camera draws a scene point p at (R·(p − c)) scaled by its perspective, R its rotation matrix:
the third row of R points from the scene towards the camera, so ⟨R₃, p − o⟩ (o the axes' origin)
is the depth of p, positive in front of the origin.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from manim import UR, VGroup, VMobject

from normgeo import sphere_rings
from scenes.kit.adapters import to_points
from scenes.kit.widgets import math_mobject

__all__ = ["depths", "depth_sphere", "DepthSphere", "pin_label", "axis_names", "follow_depth", "outermost", "FRONT", "BACK"]

FRONT, BACK = 0.85, 0.2  # stroke opacities of a sphere's near and far halves


def depths(camera, axes, points) -> np.ndarray:
    """The depth of each core point (shape (k, 3)) towards ``camera``, in scene units from the axes'
    origin: positive in front of it, negative behind."""
    camera.reset_rotation_matrix()  # the trackers as they are now, even before a frame is drawn
    toward = camera.get_rotation_matrix()[2]
    return (to_points(axes, np.atleast_2d(points)) - axes.c2p(0, 0, 0)) @ toward


class DepthSphere(VGroup):
    """A wire sphere (5 latitude and 6 longitude rings, ``normgeo.sphere_rings``) whose every ring is
    drawn as two polylines: the half facing the camera at ``front`` opacity and ``stroke_width``, the
    half away from it at ``back`` opacity and half the width. An updater re-splits the rings each
    frame, so the cue holds while the camera turns and on any paused frame."""

    def __init__(self, axes, camera, radius: float, color: str, stroke_width: float = 2.0,
                 front: float = FRONT, back: float = BACK, samples: int = 72):
        self._view = lambda: (axes, camera)  # a function: copies of the sphere (animations) share the two
        self.rings = [np.asarray(ring) for ring in sphere_rings(radius, latitudes=5, longitudes=6, samples=samples)]
        halves = []
        for _ in self.rings:
            halves.append(VMobject(color=color, stroke_width=stroke_width, stroke_opacity=front))
            halves.append(VMobject(color=color, stroke_width=stroke_width / 2, stroke_opacity=back))
        super().__init__(*halves)
        self.split()
        self.add_updater(lambda sphere: sphere.split())

    @property
    def near(self) -> VGroup:
        return VGroup(*self.submobjects[0::2])

    @property
    def far(self) -> VGroup:
        return VGroup(*self.submobjects[1::2])

    def split(self) -> "DepthSphere":
        """Give each ring's near and far polyline the samples in front of and behind the origin's depth."""
        axes, camera = self._view()
        for index, ring in enumerate(self.rings):
            near_part, far_part = _halves(to_points(axes, ring), depths(camera, axes, ring) >= 0)
            for mobject, part in ((self.submobjects[2 * index], near_part), (self.submobjects[2 * index + 1], far_part)):
                # an empty half is one repeated point (nothing drawn): every half keeps points, so that
                # animations pairing the sphere's parts with a copy's always find the same parts
                mobject.set_points_as_corners(part if len(part) >= 2 else to_points(axes, ring[:1]).repeat(2, axis=0))
        return self


def depth_sphere(axes, camera, radius: float, color: str, stroke_width: float = 2.0) -> DepthSphere:
    """The sphere ‖v‖₂ = ``radius`` (core units) with its far half fainter (:class:`DepthSphere`)."""
    return DepthSphere(axes, camera, radius, color, stroke_width)


def _halves(points: np.ndarray, front: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A closed ring's samples cut where ``front`` changes: (near run, far run), each with the sample
    across the cut so that the two meet. A plane cuts a circle once each way, so each is one run."""
    if front.all():
        return np.vstack([points, points[:1]]), points[:0]
    if not front.any():
        return points[:0], np.vstack([points, points[:1]])
    start = int(np.flatnonzero(front & ~np.roll(front, 1))[0])  # the first near sample after a far one
    points, front = np.roll(points, -start, axis=0), np.roll(front, -start)
    count = int(np.argmin(front))  # the near run is the leading one
    near = points[: count + 1]
    far = np.vstack([points[count:], points[:1]])
    return near, far


def pin_label(scene, axes, point, label, direction=UR, buff: float = 0.12):
    """Keep ``label`` (fixed in the frame, so it stays flat and readable) beside where the camera
    draws the core point ``point`` (a point, or a callable giving one: a moving tip), as the camera
    turns and zooms. The label is not added to ``scene``: showing it is the scene's step."""
    where: Callable[[], np.ndarray] = point if callable(point) else (lambda: np.asarray(point, dtype=float))
    camera = scene.renderer.camera

    def follow(mobject):
        depths(camera, axes, where())  # refreshes the rotation matrix
        screen = camera.project_point(to_points(axes, np.asarray(where(), dtype=float)))
        mobject.next_to(screen, direction, buff=buff)

    follow(label)
    camera.add_fixed_in_frame_mobjects(label)  # not yet on screen: the scene shows it (FadeIn …) when it names
    label.add_updater(follow)
    return label


def axis_names(scene, axes, extent: float, color: str, font_size: float = 30) -> VGroup:
    """x₁, x₂, x₃ at the positive ends of the axes (``extent`` core units out), pinned as the camera
    turns."""
    names = VGroup()
    for index in range(3):
        end = np.zeros(3)
        end[index] = 1.06 * extent
        names.add(pin_label(scene, axes, end, math_mobject(f"x_{index + 1}", color, font_size), UR, buff=0.05))
    return names


def follow_depth(mobject, axes, camera, point, extent: float, near: float = 1.0, far: float = 0.35):
    """Set ``mobject``'s opacity each frame from the depth of the core point ``point`` (or a callable
    giving it): ``near`` at ``extent`` in front of the origin, ``far`` at ``extent`` behind."""
    where = point if callable(point) else (lambda: point)

    def shade(m):
        depth = float(depths(camera, axes, where())[0]) / (extent * axes.get_x_unit_size())
        m.set_opacity(far + (near - far) * float(np.clip((depth + 1) / 2, 0.0, 1.0)))

    shade(mobject)
    mobject.add_updater(shade)
    return mobject


def outermost(camera, axes, points, direction) -> np.ndarray:
    """Of the core ``points``, the one ``camera`` now draws farthest in ``direction``: where a label
    beside the figure stays clear of it."""
    depths(camera, axes, points[:1])  # refreshes the rotation matrix
    screen = camera.project_points(to_points(axes, np.asarray(points, dtype=float)))
    return np.asarray(points[int(np.argmax(screen @ np.asarray(direction, dtype=float)))])
