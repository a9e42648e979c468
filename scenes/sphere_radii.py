"""Scene 2, ``sphere-radii`` (A3, A4, A5): L2 lands on the unit circle, RMSNorm on radius √n."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, GrowArrow, Line, ReplacementTransform, VGroup, Write

from normgeo import circle_in_plane, euclidean_norm, l2_normalize, output_radius, rms_norm
from scenes.kit import labels
from scenes.kit.adapters import make_plane, to_points
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.spec import SceneSpec, Vectors, check_vectors, setting
from scenes.kit.widgets import circle_of_radius, dot_at, text_mobject, vector_arrow

__all__ = ["SphereRadiiSpec", "SphereRadii"]

MAX_LENGTH = 10.0  # the circles (radius 1 and √2) stay at least a seventh of the figure


@dataclass(frozen=True)
class SphereRadiiSpec(SceneSpec):
    """Raw 2-D vectors of mixed lengths and directions (the picture of A5)."""

    vectors: Vectors = setting(((2.2, 1.6), (-1.7, 2.3), (-2.6, -0.9), (0.4, -0.5), (1.1, -2.4), (-0.3, 0.35)),
                               items=(1, 12))

    def validate(self) -> None:
        # longer vectors would shrink both circles to specks beside them (issue 38)
        check_vectors("vectors", self.vectors, dim=2, max_length=MAX_LENGTH)


class SphereRadii(NormGeoScene):
    """The same vectors under L2 (radius 1) and RMSNorm (radius √n), with the derivation."""

    spec_class = SphereRadiiSpec

    def construct(self) -> None:
        self.normalize()
        self.draw_raw_vectors()
        self.land_on_unit_circle()
        self.set_out_derivation()
        self.derive("rms", run_time=1.2, hold=1.0)
        self.derive("square", run_time=1.0, hold=0.8)
        self.derive("sum", run_time=1.0, hold=0.8)
        self.derive("length", run_time=1.0, hold=1.0)
        self.land_on_rms_circle()

    def normalize(self) -> None:
        """Everything the scene shows, from the core: both normalizations and both radii."""
        self.vectors = np.array(self.spec.vectors, dtype=float)
        self.n = self.vectors.shape[-1]
        self.l2_points = l2_normalize(self.vectors)
        self.rms_points = rms_norm(self.vectors, eps=0.0)
        self.l2_radius, self.rms_radius = output_radius("l2", self.n), output_radius("rmsnorm", self.n)
        self.extent = 1.12 * max(float(euclidean_norm(self.vectors).max()), self.rms_radius)

    def draw_raw_vectors(self) -> None:
        title = self.make_title()
        self.plane = make_plane(self.extent, self.layout.figure_height, self.layout.figure_center, self.palette)
        self.raw_arrows = VGroup(*(vector_arrow(self.plane, v, self.palette.input, stroke_width=4) for v in self.vectors))
        self.say("raw", FadeIn(title), Create(self.plane), *(GrowArrow(a) for a in self.raw_arrows),
                 run_time=1.5, hold=0.5)

    def circle_label(self, key: str, circle, color: str, inside: bool, radius_markup: str, **values) -> VGroup:
        """A circle's name beside it (inside it for the inner circle) and its radius drawn as a thin
        line from the centre with its length written beside it, each where it crosses the least of
        what is drawn (the raw arrows, dimmed at the end, count least)."""
        plane, origin = self.plane, self.plane.c2p(0, 0)
        scene_radius = circle.width / 2
        name = self.text(key, font_size=SMALL_SIZE, color=color, **values)
        around = [labels.on_circle(name, origin, scene_radius, a, inside=inside).get_center()
                  for a in np.linspace(0, 2 * np.pi, 24, endpoint=False)]
        box = plane.get_corner(DOWN + LEFT)[:2], plane.get_corner(UP + RIGHT)[:2]
        labels.clearest_place(name, around, self.segments, inside=box, faint=self.arrow_segments)
        axes = [origin + d for d in (RIGHT, UP, LEFT, DOWN)]  # a spoke along an axis would hide in it
        taken = list(to_points(plane, self.vectors)) + [name.get_center()] + self.radius_ends + axes
        angle = labels.clearest_angle(origin, taken)
        end = origin + scene_radius * np.array([np.cos(angle), np.sin(angle), 0.0])
        self.radius_ends.append(end)
        spoke = Line(origin, end, color=color, stroke_width=3)
        length = text_mobject(radius_markup, self.spec.lang, color, SMALL_SIZE + 2)
        labels.at_point(length, (origin + end) / 2, (-np.sin(angle), np.cos(angle), 0.0), buff=0.08)
        self.segments = np.concatenate([self.segments, [[origin, end]]] + [labels.polygon_segments(
            [m.get_corner(c) for c in ((-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0))]) for m in (name, length)])
        return VGroup(name, spoke, length)

    def land_on_unit_circle(self) -> None:
        """A3: L2 → the unit circle, named with its radius on the figure."""
        colors, plane = self.palette, self.plane
        origin = to_points(plane, np.zeros(2))
        rings = [to_points(plane, circle_in_plane([1.0, 0.0], [0.0, 1.0], r, 48)) for r in (self.l2_radius, self.rms_radius)]
        self.arrow_segments = np.array([[origin, tip] for tip in to_points(plane, self.vectors)])
        self.segments = np.concatenate([labels.polygon_segments(ring) for ring in rings])
        unit_circle = circle_of_radius(plane, self.l2_radius, colors.l2)
        self.l2_dots = VGroup(*(dot_at(plane, p, colors.l2) for p in self.l2_points))
        self.radius_ends = []
        self.l2_label = self.circle_label("l2-label", unit_circle, colors.l2, inside=True,
                                          radius_markup=f"${self.fmt.number(self.l2_radius)}$")
        l2_formula = self.formula(FORMULAS["l2"], font_size=30, color=colors.l2)
        self.layout.start_column(fit_width(l2_formula, self.layout.column_width), plane)
        self.l2_formula = l2_formula
        self.say("l2", Create(unit_circle),
                 *(ReplacementTransform(a.copy(), d) for a, d in zip(self.raw_arrows, self.l2_dots)),
                 FadeIn(self.l2_label), Write(l2_formula), run_time=1.8, hold=1.5)

    def set_out_derivation(self) -> None:
        """A4: RMS = 1 ⇒ Σx̂ᵢ²/n = 1 ⇒ Σx̂ᵢ² = n ⇒ ‖x̂‖₂ = √n, laid out under the L2 formula."""
        lines = {key: self.formula(FORMULAS[f"rms-{formula}"], font_size=30, color=self.palette.text)
                 for key, formula in (("rms", "condition"), ("square", "square"), ("sum", "sum"), ("length", "length"))}
        derivation = VGroup(*lines.values()).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        fit_width(derivation, self.layout.column_width).next_to(self.l2_formula, DOWN, buff=0.5, aligned_edge=LEFT)
        self.derivation, self.derivation_lines = derivation, lines

    def derive(self, step: str, run_time: float, hold: float) -> None:
        """One line of the derivation, written as it is said."""
        self.say(step, Write(self.derivation_lines[step]), run_time=run_time, hold=hold)

    def land_on_rms_circle(self) -> None:
        """A5: RMSNorm → the circle of radius √n, named with its radius on the figure; the raw arrows fade."""
        colors, plane, radius = self.palette, self.plane, self.fmt.number(self.rms_radius)
        rms_circle = circle_of_radius(plane, self.rms_radius, colors.rmsnorm)
        self.rms_dots = VGroup(*(dot_at(plane, p, colors.rmsnorm) for p in self.rms_points))
        self.rms_label = self.circle_label("rms-label", rms_circle, colors.rmsnorm, inside=False,
                                           radius_markup=f"$sqrt({self.n})$")
        in_dimension = self.text("in-dimension", font_size=SMALL_SIZE + 2, color=colors.rmsnorm, n=self.n)
        fit_width(in_dimension, self.layout.column_width).next_to(self.derivation, DOWN, buff=0.45, aligned_edge=LEFT)
        self.say("result", Create(rms_circle), FadeIn(self.rms_label),
                 *(ReplacementTransform(a.copy(), d) for a, d in zip(self.raw_arrows, self.rms_dots)),
                 FadeIn(in_dimension), self.raw_arrows.animate.set_opacity(0.3),
                 run_time=1.8, hold=2.5, n=self.n, radius=radius)
