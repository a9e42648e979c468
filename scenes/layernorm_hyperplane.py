"""Scene 3, ``layernorm-hyperplane`` (A1, A6): centre onto the plane 1ᵀv = 0, scale onto the sphere."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from manim import DEGREES, DL, DOWN, DR, LEFT, UP, UR, Arrow3D, Sphere, Create, FadeIn, ReplacementTransform, VGroup, config

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
            "result": fmt.vector(result),
            "total": fmt.number(float(result.sum())),
            "length": fmt.number(float(euclidean_norm(result))),
        }

    def set_up_axes(self) -> None:
        """Camera, axes and title; the legend is placed now, invisible, and lit entry by entry."""
        colors, n, extent = self.palette, self.n, self.extent
        self.look_from(zoom=GEOMETRY_RADIUS / extent, **OVERVIEW)
        self.axes = make_space_axes(extent, 2 * extent, colors)
        title = self.make_title()
        self.fix_in_frame(title)
        self.key = legend(
            [
                (colors.hyperplane, self.words("legend.plane")),
                (colors.ones, self.words("legend.ones")),
                (colors.rmsnorm, self.words("legend.sphere", n=n, radius=self.fmt.number(self.radius))),
                (colors.layernorm, self.words("legend.circle")),
            ],
            self.spec.lang,
            colors.text,
            SMALL_SIZE,
        )
        if self.layout.stacked:  # under the title; the geometry in the middle, the readout at the bottom
            fit_width(self.key, self.layout.content_width).next_to(title, DOWN, buff=0.3).to_edge(LEFT, buff=EDGE)
        else:
            fit_width(self.key, config.frame_width / 2 - EDGE - title.get_right()[0] - 0.4).to_corner(UR, buff=EDGE)
        self.fix_in_frame(self.key)
        self.key.set_opacity(0)
        self.say("intro", FadeIn(title), Create(self.axes), run_time=1.2, hold=0.5)

    def show_plane(self) -> None:
        """The zero-mean plane and the direction 1 normal to it."""
        colors, axes, extent, key = self.palette, self.axes, self.extent, self.key
        plane = space_polygon(axes, square_in_plane(self.u, self.w, 0.7 * extent), colors.hyperplane, opacity=0.18)
        ones = ones_direction(self.n)
        ones_line = space_polyline(axes, [-extent * ones, extent * ones], colors.ones, 2)
        ones_line.set_stroke(opacity=0.6)
        self.say("plane", Create(plane), Create(ones_line),
                 key[0].animate.set_opacity(1), key[1].animate.set_opacity(1), run_time=1.5, hold=1.5)

    def draw_vector(self) -> None:
        """x, and the readout placed (invisible) to be lit line by line."""
        colors = self.palette
        self.x_arrow = self.tipped(space_segment(self.axes, self.origin, self.x, colors.input))
        self.readout = VGroup(
            self.text("readout.x", font_size=SMALL_SIZE, **self.values),
            self.text("readout.split", font_size=SMALL_SIZE, **self.values),
            self.text("readout.orthogonal", font_size=SMALL_SIZE, **self.values),
            self.text("readout.result", font_size=SMALL_SIZE, color=colors.layernorm, **self.values),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.16)
        fit_width(self.readout, self.layout.content_width).to_corner(DL, buff=EDGE)
        self.fix_in_frame(self.readout)
        self.readout.set_opacity(0)
        self.say("vector", Create(self.x_arrow), self.readout[0].animate.set_opacity(1),
                 run_time=1.0, hold=0.5, **self.values)

    def split_vector(self) -> None:
        """x and its orthogonal split into μ·1 and x − μ·1."""
        colors, parts = self.palette, self.parts
        self.mean_arrow = self.tipped(space_segment(self.axes, self.origin, parts.mean_part, colors.ones,
                                                    stroke_width=8))
        self.centred_from_mean = space_segment(self.axes, parts.mean_part, self.x, colors.hyperplane)
        self.say("split", Create(self.mean_arrow), Create(self.centred_from_mean),
                 self.readout[1].animate.set_opacity(1), self.readout[2].animate.set_opacity(1),
                 run_time=1.5, hold=2.5, **self.values)

    def subtract_mean(self) -> None:
        """Subtract μ·1: the centred part, moved to the origin, lies on the plane."""
        self.centred_arrow = self.tipped(space_segment(self.axes, self.origin, self.parts.centred_part,
                                                       self.palette.hyperplane))
        self.say("centre", ReplacementTransform(self.centred_from_mean, self.centred_arrow),
                 self.x_arrow.animate.set_opacity(0.35), self.mean_arrow.animate.set_opacity(0.35),
                 run_time=1.5, hold=1.0)

    def scale_onto_sphere(self) -> None:
        """Divide by σ: onto the sphere of radius √n."""
        colors, axes, radius = self.palette, self.axes, self.radius
        if self.spec.style == "surface":
            sphere = Sphere(center=axes.c2p(0, 0, 0), radius=radius * axes.get_x_unit_size(), fill_opacity=0.15,
                            checkerboard_colors=[colors.rmsnorm, colors.rmsnorm], stroke_width=0.5,
                            stroke_color=colors.rmsnorm)
        else:
            sphere = wire_sphere(axes, radius, colors.rmsnorm, opacity=0.35)
        self.result_arrow = self.tipped(space_segment(axes, self.origin, self.result, colors.layernorm, stroke_width=7))
        self.say("scale", Create(sphere), ReplacementTransform(self.centred_arrow, self.result_arrow),
                 self.key[2].animate.set_opacity(1), run_time=1.8, hold=1.2, n=self.n)

    def draw_intersection_circle(self) -> None:
        """The output lies on plane ∩ sphere."""
        circle = space_polyline(self.axes, circle_in_plane(self.u, self.w, self.radius, samples=120),
                                self.palette.layernorm, 5, closed=True)
        self.intersection_circle = circle
        self.say("circle", Create(circle), self.key[3].animate.set_opacity(1),
                 self.readout[3].animate.set_opacity(1), run_time=1.5, hold=1.5)

    def look_edge_on(self) -> None:
        """The camera edge-on to the plane: the plane is a line."""
        hold = self.caption("edge-on", run_time=2.5, hold=1.0)
        self.turn_to(run_time=2.5, **EDGE_ON)
        self.wait(hold)

    def look_along_ones(self) -> None:
        """The camera along 1: the circle face-on."""
        hold = self.caption("face-on", run_time=2.5, hold=1.0, n=self.n)
        self.turn_to(run_time=2.5, **FACE_ON)
        self.wait(hold)

    def return_with_formula(self) -> None:
        """Back to the overview while the formula appears (not narrated)."""
        formula = self.formula(FORMULAS["layernorm"], font_size=26, color=self.palette.layernorm)
        fit_width(formula, 5.0)
        if self.layout.stacked:
            formula.next_to(self.readout, UP, buff=0.35).to_edge(LEFT, buff=EDGE)
        else:
            formula.to_corner(DR, buff=EDGE)
        self.fix_in_frame(formula)
        self.formula_mobject = formula
        formula.set_opacity(0)
        self.turn_to(run_time=2.0, added_anims=[formula.animate.set_opacity(1)], **OVERVIEW)
        self.wait(2.0)

    def tipped(self, segment: VGroup) -> VGroup:
        """Keep a segment's tip dot facing the camera (no 3-D faces to shade); in the "surface"
        style, the segment becomes Manim's Arrow3D instead."""
        if self.spec.style == "surface":
            shaft = segment[0]
            return VGroup(Arrow3D(shaft.get_start(), shaft.get_end(), color=shaft.get_color()), VGroup())
        self.renderer.camera.add_fixed_orientation_mobjects(segment[1])
        return segment


