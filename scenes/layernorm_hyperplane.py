"""Scene 3, ``layernorm-hyperplane`` (A1, A6): centre onto the plane 1ᵀv = 0, scale onto the sphere."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from manim import DEGREES, DL, DOWN, DR, LEFT, RIGHT, UL, UP, UR, Arrow3D, Create, FadeIn, FadeOut, ReplacementTransform, Sphere, VGroup

from normgeo import (
    circle_in_plane,
    decompose,
    euclidean_norm,
    hyperplane_basis,
    layer_norm,
    ones_direction,
    output_radius,
    square_in_plane,
    view_angles,
)
from scenes.kit.adapters import make_space_axes
from scenes.kit.base import EDGE, SMALL_SIZE, NormGeoThreeDScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.spec import SceneSpec, SpecError, Vector, check_vectors, setting
from scenes.kit.depth import DepthSphere, axis_names, outermost, pin_label
from scenes.kit.widgets import math_mobject, space_polygon, space_polyline, space_segment

__all__ = ["LayerNormHyperplaneSpec", "LayerNormHyperplane"]

# Camera directions: an oblique overview, edge-on to the plane (view ⟂ 1), along 1 (face-on).
# The geometry fills a disc of GEOMETRY_RADIUS scene units around the centre of the screen (the
# hero: the sphere alone is about half the frame's height); the corners hold the title, one line of
# readout and the formula. Every part is named by a label beside it that moves with the camera.
GEOMETRY_RADIUS = 3.4
OVERVIEW = {"phi": 68 * DEGREES, "theta": -35 * DEGREES}
EDGE_ON = {"phi": 90 * DEGREES, "theta": -45 * DEGREES}
FACE_ON = dict(zip(("phi", "theta"), view_angles(ones_direction(3)), strict=True))


@dataclass(frozen=True)
class LayerNormHyperplaneSpec(SceneSpec):
    """The 3-D vector x that LayerNorm (ε = 0) centres and scales."""

    # by default 52° from the direction 1, so that x = μ·1 + (x − μ·1) splits into two long parts, and
    # x̂ across the overview's line of sight (not foreshortened)
    vector: Vector = setting((-2.2, -1.6, 0.8), items=(3, 3))
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
        self.normalize()
        self.set_up_axes()
        self.show_plane()
        self.draw_vector()
        self.split_vector()
        self.subtract_mean()
        self.scale_onto_sphere()
        self.draw_intersection_circle()
        self.look_edge_on()
        self.look_along_ones()
        self.return_with_formula()

    def normalize(self) -> None:
        """Everything the scene shows, from the core: the split of x, LayerNorm(x), the radius and the plane."""
        x = np.array(self.spec.vector, dtype=float)
        self.x, self.n = x, x.size
        self.parts = decompose(x)
        self.result = layer_norm(x, eps=0.0)
        self.radius = output_radius("layernorm", self.n)
        self.u, self.w = hyperplane_basis(self.n)
        self.extent = 1.15 * max(float(euclidean_norm(x)), self.radius)
        self.origin = np.zeros(self.n)
        fmt, parts, result = self.fmt, self.parts, self.result
        self.values = {
            "x": fmt.vector(x),
            "mean": fmt.number(float(parts.mean)),
            "centred": fmt.vector(parts.centred_part),
            "inner": fmt.number(float(parts.mean_part @ parts.centred_part)),
            "result": fmt.vector(result, 2),
            "total": fmt.number(float(result.sum())),
            "length": fmt.number(float(euclidean_norm(result))),
            "radius": fmt.number(self.radius, 2),
            "n": self.n,
        }

    def set_up_axes(self) -> None:
        """Camera, axes named x₁ x₂ x₃, and the title."""
        colors, extent = self.palette, self.extent
        self.look_from(zoom=GEOMETRY_RADIUS / extent, **OVERVIEW)
        self.axes = make_space_axes(extent, 2 * extent, colors)
        title = self.make_title()
        self.fix_in_frame(title)
        self.axis_names = axis_names(self, self.axes, extent, colors.muted)
        self.say("intro", FadeIn(title), Create(self.axes), FadeIn(self.axis_names), run_time=1.2, hold=0.5)

    def show_plane(self) -> None:
        """The zero-mean plane H and the direction 1 normal to it, each named where it is."""
        colors, axes, extent = self.palette, self.axes, self.extent
        corners = square_in_plane(self.u, self.w, 0.7 * extent)
        plane = space_polygon(axes, corners, colors.hyperplane, opacity=0.12)
        ones = ones_direction(self.n)
        ones_line = space_polyline(axes, [-extent * ones, extent * ones], colors.ones, 2)
        ones_line.set_stroke(opacity=0.7)
        self.plane_label = self.label("label.plane", self.outermost(corners, UP), colors.hyperplane, UP)
        self.ones_label = self.label_math("bold(1)", 0.92 * extent * ones, colors.ones, RIGHT)
        self.say("plane", Create(plane), Create(ones_line), FadeIn(self.plane_label), FadeIn(self.ones_label),
                 run_time=1.5, hold=1.5)

    def draw_vector(self) -> None:
        """x, named at its tip; its coordinates in one readout line."""
        colors = self.palette
        self.x_arrow = self.tipped(space_segment(self.axes, self.origin, self.x, colors.input))
        self.x_label = self.label_math("x", self.x, colors.input, UR)
        self.readout = self.corner_line(self.text("readout.x", font_size=SMALL_SIZE, **self.values))
        self.say("vector", Create(self.x_arrow), FadeIn(self.x_label), FadeIn(self.readout),
                 run_time=1.0, hold=0.5, **self.values)

    def split_vector(self) -> None:
        """x and its orthogonal split into μ·1 and x − μ·1, each named on the figure."""
        colors, parts = self.palette, self.parts
        self.mean_arrow = self.tipped(space_segment(self.axes, self.origin, parts.mean_part, colors.ones,
                                                    stroke_width=8))
        self.mean_label = self.label_math("mu bold(1)", parts.mean_part, colors.ones, LEFT)
        self.centred_from_mean = space_segment(self.axes, parts.mean_part, self.x, colors.hyperplane)
        self.split_label = self.label_math("x - mu bold(1)", (parts.mean_part + self.x) / 2, colors.hyperplane, RIGHT)
        split = self.corner_line(self.text("readout.split", font_size=SMALL_SIZE, **self.values))
        self.say("split", Create(self.mean_arrow), Create(self.centred_from_mean), FadeIn(self.mean_label),
                 FadeIn(self.split_label), FadeOut(self.readout), FadeIn(split), run_time=1.5, hold=2.5, **self.values)
        self.readout = split

    def subtract_mean(self) -> None:
        """Subtract μ·1: the centred part, moved to the origin, lies on the plane."""
        colors, centred = self.palette, self.parts.centred_part
        self.centred_arrow = self.tipped(space_segment(self.axes, self.origin, centred, colors.hyperplane))
        centred_label = self.label_math("x - mu bold(1)", centred, colors.hyperplane, DOWN)
        self.say("centre", ReplacementTransform(self.centred_from_mean, self.centred_arrow),
                 FadeOut(self.split_label), FadeIn(centred_label),
                 self.x_arrow.animate.set_opacity(0.3), self.mean_arrow.animate.set_opacity(0.3),
                 FadeOut(self.x_label), FadeOut(self.mean_label),
                 FadeOut(self.readout), run_time=1.5, hold=1.0)
        self.centred_label = centred_label

    def scale_onto_sphere(self) -> None:
        """Divide by σ: onto the sphere S of radius √n (named with its radius); x and μ·1 leave."""
        colors, axes, radius = self.palette, self.axes, self.radius
        if self.spec.style == "surface":
            sphere = Sphere(center=axes.c2p(0, 0, 0), radius=radius * axes.get_x_unit_size(), fill_opacity=0.15,
                            checkerboard_colors=[colors.rmsnorm, colors.rmsnorm], stroke_width=0.5,
                            stroke_color=colors.rmsnorm)
        else:
            sphere = DepthSphere(axes, self.renderer.camera, radius, colors.rmsnorm)
        self.sphere = sphere
        self.result_arrow = self.tipped(space_segment(axes, self.origin, self.result, colors.layernorm, stroke_width=7))
        self.result_label = self.label_math("hat(x)", self.result, colors.layernorm, UR)
        top = radius * np.array([0.0, 0.0, 1.0])
        self.sphere_label = self.label("label.sphere", top, colors.rmsnorm, UR)
        self.say("scale", Create(sphere), ReplacementTransform(self.centred_arrow, self.result_arrow),
                 FadeOut(self.centred_label), FadeIn(self.result_label), FadeIn(self.sphere_label),
                 FadeOut(VGroup(self.x_arrow, self.mean_arrow)),
                 run_time=1.8, hold=1.2, n=self.n)

    def draw_intersection_circle(self) -> None:
        """The output lies on S ∩ H, named on the circle; the result in one readout line."""
        points = circle_in_plane(self.u, self.w, self.radius, samples=120)
        circle = space_polyline(self.axes, points, self.palette.layernorm, 5, closed=True)
        self.intersection_circle = circle
        self.circle_label = self.label("label.circle", self.outermost(points, DL), self.palette.layernorm, DL)
        self.readout = self.corner_line(self.text("readout.result", font_size=SMALL_SIZE, color=self.palette.layernorm,
                                                  **self.values))
        self.say("circle", Create(circle), FadeIn(self.circle_label), FadeIn(self.readout), run_time=1.5, hold=1.5)

    def look_edge_on(self) -> None:
        """The camera edge-on to the plane: the plane is a line."""
        hold = self.caption("edge-on", run_time=2.5, hold=1.0)
        self.turn_to(run_time=2.5, added_anims=[FadeOut(self.sphere_label), FadeOut(self.circle_label),
                                                FadeOut(self.result_label)], **EDGE_ON)
        self.wait(hold)

    def look_along_ones(self) -> None:
        """The camera along 1: the circle face-on."""
        hold = self.caption("face-on", run_time=2.5, hold=1.0, n=self.n)
        self.turn_to(run_time=2.5, added_anims=[FadeOut(self.plane_label), FadeIn(self.circle_label),
                                                FadeIn(self.result_label)], **FACE_ON)
        self.wait(hold)

    def return_with_formula(self) -> None:
        """Back to the overview while the formula appears, with the variance it needs (not narrated)."""
        formula = VGroup(fit_width(self.formula(FORMULAS["layernorm"], font_size=28, color=self.palette.layernorm),
                                   self.layout.pick(5.6, self.layout.content_width)),
                         self.text("note.biased", font_size=SMALL_SIZE, color=self.palette.muted))
        formula.arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        if self.layout.stacked:
            formula.next_to(self.readout, UP, buff=0.3).to_edge(LEFT, buff=EDGE)
        else:
            formula.to_corner(DR, buff=EDGE)
        self.fix_in_frame(formula)
        self.formula_mobject = formula
        formula.set_opacity(0)
        self.turn_to(run_time=2.0, added_anims=[formula.animate.set_opacity(1), FadeIn(self.plane_label),
                                                FadeIn(self.sphere_label)], **OVERVIEW)
        self.wait(2.0)

    # ------------------------------------------------------------------ helpers
    def label(self, key: str, point, color: str, direction, **values):
        """Text ``key`` beside the core point ``point``, following it as the camera turns."""
        return pin_label(self, self.axes, point, self.text(key, font_size=SMALL_SIZE, color=color, **self.values,
                                                            **values), direction)

    def label_math(self, expression: str, point, color: str, direction):
        """A maths name (x, μ·1, x̂ …) beside the core point ``point``, following it."""
        return pin_label(self, self.axes, point, math_mobject(expression, color, font_size=34), direction)

    def outermost(self, points, direction) -> np.ndarray:
        return outermost(self.renderer.camera, self.axes, points, direction)

    def corner_line(self, line):
        """One readout line in the lower left (at the bottom, stacked), fixed in the frame."""
        fit_width(line, self.layout.pick(6.2, self.layout.content_width)).to_corner(DL, buff=EDGE)
        self.renderer.camera.add_fixed_in_frame_mobjects(line)  # shown by the step that fades it in
        return line

    def tipped(self, segment: VGroup) -> VGroup:
        """Keep a segment's tip dot facing the camera (no 3-D faces to shade); in the "surface"
        style, the segment becomes Manim's Arrow3D instead."""
        if self.spec.style == "surface":
            shaft = segment[0]
            return VGroup(Arrow3D(shaft.get_start(), shaft.get_end(), color=shaft.get_color()), VGroup())
        self.renderer.camera.add_fixed_orientation_mobjects(segment[1])
        return segment
