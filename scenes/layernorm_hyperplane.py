"""Scene 3, ``layernorm-hyperplane`` (A1, A6): centre onto the plane 1ᵀv = 0, scale onto the sphere."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from manim import DEGREES, DL, DOWN, DR, LEFT, UR, Arrow3D, Sphere, Create, FadeIn, ReplacementTransform, VGroup

from normgeo import (
    circle_in_plane,
    decompose,
    euclidean_norm,
    hyperplane_basis,
    layer_norm,
    ones_direction,
    output_radius,
    sphere_rings,
    square_in_plane,
    view_angles,
)
from scenes.kit.adapters import make_space_axes
from scenes.kit.base import EDGE, SMALL_SIZE, NormGeoThreeDScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.spec import SceneSpec, SpecError, Vector, check_vectors, setting
from scenes.kit.widgets import legend, space_polygon, space_polyline, space_segment, wire_sphere

__all__ = ["LayerNormHyperplaneSpec", "LayerNormHyperplane"]

# Camera directions: an oblique overview, edge-on to the plane (view ⟂ 1), along 1 (face-on).
# The geometry fills a disc of GEOMETRY_RADIUS scene units around the centre of the screen,
# which leaves the corners free for the title, the legend, the readout and the formula.
GEOMETRY_RADIUS = 2.4
OVERVIEW = {"phi": 68 * DEGREES, "theta": -35 * DEGREES}
EDGE_ON = {"phi": 90 * DEGREES, "theta": -45 * DEGREES}
FACE_ON = dict(zip(("phi", "theta"), view_angles(ones_direction(3)), strict=True))


@dataclass(frozen=True)
class LayerNormHyperplaneSpec(SceneSpec):
    """The 3-D vector x that LayerNorm (ε = 0) centres and scales."""

    vector: Vector = setting((2.6, 0.4, 1.8), items=(3, 3))
    # "wire": the sphere as curves and flat arrow tips (cheap); "surface": Manim's shaded Sphere and
    # Arrow3D (about a thousand faces each, ~1 ms per face per frame), kept for the benchmark's before/after.
    style: Literal["wire", "surface"] = "wire"

    def validate(self) -> None:
        check_vectors("vector", (self.vector,), dim=3, max_length=50)
        if max(self.vector) - min(self.vector) < 1e-3:
            raise SpecError("vector: its entries must not all be equal (x − μ·1 would be 0: LayerNorm is undefined)")


class LayerNormHyperplane(NormGeoThreeDScene):
    """x = μ·1 + (x − μ·1); the centred part on the plane; scaled onto the sphere of radius √3."""

    spec_class = LayerNormHyperplaneSpec

    def construct(self) -> None:
        spec, colors = self.spec, self.palette
        x = np.array(spec.vector, dtype=float)
        n = x.size
        parts = decompose(x)
        result = layer_norm(x, eps=0.0)
        radius = output_radius("layernorm", n)
        u, w = hyperplane_basis(n)
        extent = 1.15 * max(float(euclidean_norm(x)), radius)
        origin = np.zeros(n)

        self.set_camera_orientation(zoom=GEOMETRY_RADIUS / extent, **OVERVIEW)
        axes = make_space_axes(extent, 2 * extent, colors)
        self.axes = axes
        title = self.make_title()
        self.fix_in_frame(title)
        plane = space_polygon(axes, square_in_plane(u, w, 0.7 * extent), colors.hyperplane, opacity=0.18)
        ones_line = space_polyline(axes, [-extent * ones_direction(n), extent * ones_direction(n)], colors.mean_part, 2)
        ones_line.set_stroke(opacity=0.6)
        key = legend(
            [
                (colors.hyperplane, self.words("legend.plane")),
                (colors.mean_part, self.words("legend.ones")),
                (colors.sphere, self.words("legend.sphere", n=n, radius=self.fmt.number(radius))),
                (colors.layernorm, self.words("legend.circle")),
            ],
            spec.lang,
            colors.text,
            SMALL_SIZE,
        ).to_corner(UR, buff=EDGE)
        self.fix_in_frame(key)
        key.set_opacity(0)
        self.say("intro", FadeIn(title), Create(axes), run_time=1.2, hold=0.5)
        self.say("plane", Create(plane), Create(ones_line),
                 key[0].animate.set_opacity(1), key[1].animate.set_opacity(1), run_time=1.5, hold=1.5)

        # x and its orthogonal split into μ·1 and x − μ·1.
        x_arrow = self.tipped(space_segment(axes, origin, x, colors.raw))
        values = {
            "x": self.fmt.vector(x),
            "mean": self.fmt.number(float(parts.mean)),
            "centred": self.fmt.vector(parts.centred_part),
            "inner": self.fmt.number(float(parts.mean_part @ parts.centred_part)),
            "result": self.fmt.vector(result),
            "total": self.fmt.number(float(result.sum())),
            "length": self.fmt.number(float(euclidean_norm(result))),
        }
        readout = VGroup(
            self.text("readout.x", font_size=SMALL_SIZE, **values),
            self.text("readout.split", font_size=SMALL_SIZE, **values),
            self.text("readout.orthogonal", font_size=SMALL_SIZE, **values),
            self.text("readout.result", font_size=SMALL_SIZE, color=colors.layernorm, **values),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.16).to_corner(DL, buff=EDGE)
        self.readout = readout
        self.fix_in_frame(readout)
        readout.set_opacity(0)
        self.say("vector", Create(x_arrow), readout[0].animate.set_opacity(1),
                 run_time=1.0, hold=0.5, **values)
        mean_arrow = self.tipped(space_segment(axes, origin, parts.mean_part, colors.mean_part, stroke_width=8))
        centred_from_mean = space_segment(axes, parts.mean_part, x, colors.centred_part)
        self.say("split", Create(mean_arrow), Create(centred_from_mean),
                 readout[1].animate.set_opacity(1), readout[2].animate.set_opacity(1),
                 run_time=1.5, hold=2.5, **values)

        # Subtract μ·1: the centred part, moved to the origin, lies on the plane.
        centred_arrow = self.tipped(space_segment(axes, origin, parts.centred_part, colors.centred_part))
        self.centred_arrow = centred_arrow
        self.say("centre", ReplacementTransform(centred_from_mean, centred_arrow),
                 x_arrow.animate.set_opacity(0.35), mean_arrow.animate.set_opacity(0.35), run_time=1.5, hold=1.0)

        # Divide by σ: onto the sphere of radius √n; the output lies on plane ∩ sphere.
        if spec.style == "surface":
            sphere = Sphere(center=axes.c2p(0, 0, 0), radius=radius * axes.get_x_unit_size(), fill_opacity=0.15,
                            checkerboard_colors=[colors.sphere, colors.sphere], stroke_width=0.5, stroke_color=colors.sphere)
        else:
            sphere = wire_sphere(axes, *self.rings(radius), colors.sphere, opacity=0.35)
        result_arrow = self.tipped(space_segment(axes, origin, result, colors.layernorm, stroke_width=7))
        self.result_arrow = result_arrow
        self.say("scale", Create(sphere), ReplacementTransform(centred_arrow, result_arrow),
                 key[2].animate.set_opacity(1), run_time=1.8, hold=1.2, n=n)
        circle = space_polyline(axes, circle_in_plane(u, w, radius, samples=120), colors.layernorm, 5, closed=True)
        self.intersection_circle = circle
        self.say("circle", Create(circle), key[3].animate.set_opacity(1),
                 readout[3].animate.set_opacity(1), run_time=1.5, hold=1.5)

        # Let the camera show it: edge-on (the plane is a line) and along 1 (the circle).
        hold = self.caption("edge-on", run_time=2.5, hold=1.0)
        self.move_camera(run_time=2.5, **EDGE_ON)
        self.wait(hold)
        hold = self.caption("face-on", run_time=2.5, hold=1.0, n=n)
        self.move_camera(run_time=2.5, **FACE_ON)
        self.wait(hold)
        formula = self.formula(FORMULAS["layernorm"], font_size=26, color=colors.layernorm)
        fit_width(formula, 5.0).to_corner(DR, buff=EDGE)
        self.fix_in_frame(formula)
        self.formula_mobject = formula
        formula.set_opacity(0)
        self.move_camera(run_time=2.0, added_anims=[formula.animate.set_opacity(1)], **OVERVIEW)
        self.wait(2.0)

    def tipped(self, segment: VGroup) -> VGroup:
        """Keep a segment's tip dot facing the camera (no 3-D faces to shade); in the "surface"
        style, the segment becomes Manim's Arrow3D instead."""
        if self.spec.style == "surface":
            shaft = segment[0]
            return VGroup(Arrow3D(shaft.get_start(), shaft.get_end(), color=shaft.get_color()), VGroup())
        self.renderer.camera.add_fixed_orientation_mobjects(segment[1])
        return segment

    @staticmethod
    def rings(radius: float):
        rings = sphere_rings(radius, latitudes=5, longitudes=6, samples=72)
        return rings[:5], rings[5:]


