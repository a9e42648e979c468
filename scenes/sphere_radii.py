"""Scene 2, ``sphere-radii`` (A3, A4, A5): L2 lands on the unit circle, RMSNorm on radius √n."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, Create, FadeIn, GrowArrow, ReplacementTransform, VGroup, Write

from normgeo import euclidean_norm, l2_normalize, output_radius, rms_norm
from scenes.kit.adapters import make_plane
from scenes.kit.base import COLUMN_WIDTH, PLANE_CENTER, PLANE_HEIGHT, SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.spec import SceneSpec, Vectors, check_vectors, setting
from scenes.kit.widgets import circle_of_radius, dot_at, legend, vector_arrow

__all__ = ["SphereRadiiSpec", "SphereRadii"]


@dataclass(frozen=True)
class SphereRadiiSpec(SceneSpec):
    """Raw 2-D vectors of mixed lengths and directions (the picture of A5)."""

    vectors: Vectors = setting(((2.2, 1.6), (-1.7, 2.3), (-2.6, -0.9), (0.4, -0.5), (1.1, -2.4), (-0.3, 0.35)),
                               items=(1, 12))

    def validate(self) -> None:
        check_vectors("vectors", self.vectors, dim=2)


class SphereRadii(NormGeoScene):
    """The same vectors under L2 (radius 1) and RMSNorm (radius √n), with the derivation."""

    spec_class = SphereRadiiSpec

    def construct(self) -> None:
        spec, colors = self.spec, self.palette
        vectors = np.array(spec.vectors, dtype=float)
        n = vectors.shape[-1]
        l2_points = l2_normalize(vectors)
        rms_points = rms_norm(vectors, eps=0.0)
        l2_radius, rms_radius = output_radius("l2", n), output_radius("rmsnorm", n)
        extent = 1.12 * max(float(euclidean_norm(vectors).max()), rms_radius)

        title = self.make_title()
        plane = make_plane(extent, PLANE_HEIGHT, PLANE_CENTER, colors)
        self.plane = plane
        raw_arrows = VGroup(*(vector_arrow(plane, v, colors.raw, stroke_width=4) for v in vectors))
        self.say("raw", FadeIn(title), Create(plane), *(GrowArrow(a) for a in raw_arrows),
                 run_time=1.5, hold=0.5)

        # A3: L2 → unit circle.
        unit_circle = circle_of_radius(plane, l2_radius, colors.l2)
        l2_dots = VGroup(*(dot_at(plane, p, colors.l2) for p in l2_points))
        self.l2_dots = l2_dots
        labels = legend(
            [
                (colors.l2, self.words("l2-label", radius=self.fmt.number(l2_radius))),
                (colors.rmsnorm, self.words("rms-label", n=n, radius=self.fmt.number(rms_radius))),
            ],
            spec.lang,
            colors.text,
            SMALL_SIZE + 2,
        )
        fit_width(labels, COLUMN_WIDTH).next_to(plane, RIGHT, buff=0.45).align_to(plane, direction=(0, 1, 0))
        l2_formula = self.formula(FORMULAS["l2"], font_size=26, color=colors.l2)
        fit_width(l2_formula, COLUMN_WIDTH).next_to(labels, DOWN, buff=0.35, aligned_edge=LEFT)
        self.say("l2", Create(unit_circle),
                 *(ReplacementTransform(a.copy(), d) for a, d in zip(raw_arrows, l2_dots)),
                 FadeIn(labels[0]), Write(l2_formula), run_time=1.8, hold=1.5)

        # A4: the derivation RMS = 1 ⇒ Σx̂ᵢ² = n ⇒ ‖x̂‖₂ = √n, one step at a time.
        steps = [self.formula(FORMULAS[key], font_size=26, color=colors.text)
                 for key in ("rms-condition", "rms-square", "rms-sum", "rms-length")]
        derivation = VGroup(*steps).arrange(DOWN, aligned_edge=LEFT, buff=0.22)
        derivation.next_to(l2_formula, DOWN, buff=0.4, aligned_edge=LEFT)
        self.derivation = derivation
        self.say("rms", Write(steps[0]), run_time=1.2, hold=1.0)
        self.say("square", Write(steps[1]), run_time=1.0, hold=0.8)
        self.say("sum", Write(steps[2]), run_time=1.0, hold=0.8)
        self.say("length", Write(steps[3]), run_time=1.0, hold=1.0)

        # A5: RMSNorm → the circle of radius √n.
        rms_circle = circle_of_radius(plane, rms_radius, colors.rmsnorm)
        rms_dots = VGroup(*(dot_at(plane, p, colors.rmsnorm) for p in rms_points))
        self.rms_dots = rms_dots
        in_dimension = self.text("in-dimension", font_size=SMALL_SIZE + 2, color=colors.rmsnorm,
                                 n=n, radius=self.fmt.number(rms_radius))
        fit_width(in_dimension, COLUMN_WIDTH).next_to(derivation, DOWN, buff=0.35, aligned_edge=LEFT)
        self.say("result", Create(rms_circle), FadeIn(labels[1]),
                 *(ReplacementTransform(a.copy(), d) for a, d in zip(raw_arrows, rms_dots)), FadeIn(in_dimension),
                 raw_arrows.animate.set_opacity(0.45), run_time=1.8, hold=2.5, n=n, radius=self.fmt.number(rms_radius))
