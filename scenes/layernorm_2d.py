"""Scene 4, ``layernorm-2d`` (A7, A11): in 2-D LayerNorm leaves two points and 0 degrees of freedom."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, Create, FadeIn, ReplacementTransform, VGroup, Write

from normgeo import (
    count_nearest,
    degrees_of_freedom,
    euclidean_norm,
    hyperplane_basis,
    layer_norm,
    output_radius,
    project_to_zero_mean_hyperplane,
    sample_vectors,
)
from scenes.kit.adapters import make_plane
from scenes.kit.base import COLUMN_WIDTH, PLANE_CENTER, PLANE_HEIGHT, SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.spec import SceneSpec, setting
from scenes.kit.widgets import circle_of_radius, dot_at, legend, segment

__all__ = ["LayerNorm2DSpec", "LayerNorm2D"]


@dataclass(frozen=True)
class LayerNorm2DSpec(SceneSpec):
    """How many random 2-D inputs, their seed and spread, and the dimension to compare with."""

    count: int = setting(24, low=2, high=200)
    seed: int = setting(3, low=0, high=2**32 - 1)
    spread: float = setting(1.4, low=0.1, high=100)
    high_dim: int = setting(896, low=3, high=1_000_000)


class LayerNorm2D(NormGeoScene):
    """Random inputs → centred onto x + y = 0 → scaled to √2: all end at (1, −1) or (−1, 1)."""

    spec_class = LayerNorm2DSpec

    def construct(self) -> None:
        spec, colors = self.spec, self.palette
        n = 2
        inputs = sample_vectors(spec.count, n, seed=spec.seed, scale=spec.spread, min_spread=1e-3)
        centred = project_to_zero_mean_hyperplane(inputs)
        outputs = layer_norm(inputs, eps=0.0)
        radius = output_radius("layernorm", n)
        (direction,) = hyperplane_basis(n)
        meeting_points = layer_norm(np.array([direction, -direction]), eps=0.0)  # line ∩ circle, from the core
        dof, dof_high = degrees_of_freedom("layernorm", n), degrees_of_freedom("layernorm", spec.high_dim)
        extent = 1.12 * max(float(euclidean_norm(inputs).max()), radius)
        p, q = self.fmt.vector(meeting_points[0]), self.fmt.vector(meeting_points[1])

        title = self.make_title()
        plane = make_plane(extent, PLANE_HEIGHT, PLANE_CENTER, colors)
        self.plane = plane
        line = segment(plane, -extent * direction, extent * direction, colors.hyperplane, 4)
        key = legend(
            [
                (colors.hyperplane, self.words("common.zero-mean-line")),
                (colors.layernorm, self.words("circle-label", radius=self.fmt.number(radius))),
            ],
            spec.lang,
            colors.text,
            SMALL_SIZE + 2,
        )
        fit_width(key, COLUMN_WIDTH).next_to(plane, RIGHT, buff=0.45).align_to(plane, direction=(0, 1, 0))
        self.say("line", FadeIn(title), Create(plane), Create(line), FadeIn(key[0]),
                 run_time=1.5, hold=0.8)
        circle = circle_of_radius(plane, radius, colors.layernorm)
        self.say("circle", Create(circle), FadeIn(key[1]), run_time=1.2, hold=0.6)
        targets = VGroup(*(dot_at(plane, point, colors.highlight, radius=0.11) for point in meeting_points))
        self.meeting_dots = targets
        intersection = self.formula(FORMULAS["layernorm-2d-points"].format(p=p, q=q), font_size=26)
        fit_width(intersection, COLUMN_WIDTH).next_to(key, DOWN, buff=0.4, aligned_edge=LEFT)
        self.say("meet", FadeIn(targets), Write(intersection), run_time=1.2, hold=1.2, p=p, q=q)

        dots = VGroup(*(dot_at(plane, v, colors.raw, radius=0.055) for v in inputs))
        self.say("inputs", FadeIn(dots, lag_ratio=0.05), run_time=1.2, hold=0.6, count=spec.count)
        on_line = VGroup(*(dot_at(plane, v, colors.hyperplane, radius=0.055) for v in centred))
        self.say("centre", ReplacementTransform(dots, on_line), run_time=1.8, hold=0.6)
        landed = VGroup(*(dot_at(plane, v, colors.layernorm, radius=0.055) for v in outputs))
        self.output_dots = landed
        self.say("scale", ReplacementTransform(on_line, landed), run_time=1.8, hold=0.6)

        at_p, at_q = (int(c) for c in count_nearest(outputs, meeting_points))
        tally = self.text("count", font_size=SMALL_SIZE + 2, count=spec.count, landed=at_p,
                          other=at_q, p=p, q=q)
        dof_text = self.text("dof", font_size=SMALL_SIZE + 6, color=colors.highlight, dof=dof)
        high_text = self.text("dof-high", font_size=SMALL_SIZE + 2, color=colors.muted,
                              n=spec.high_dim, dof=dof_high)
        summary = VGroup(tally, dof_text, high_text).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        fit_width(summary, COLUMN_WIDTH).next_to(intersection, DOWN, buff=0.5, aligned_edge=LEFT)
        self.summary = summary
        self.say("dof", FadeIn(summary, lag_ratio=0.3), run_time=1.5, hold=3.5,
                 dof=dof, n=spec.high_dim, dof_high=dof_high)


