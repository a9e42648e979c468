"""Scene 5, ``layernorm-2d`` (A7, A11): in 2-D LayerNorm leaves two points and 0 degrees of freedom."""

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
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
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
        self.normalize()
        self.draw_zero_mean_line()
        self.draw_circle()
        self.mark_meeting_points()
        self.scatter_inputs()
        self.centre_onto_line()
        self.scale_onto_points()
        self.count_degrees_of_freedom()

    def normalize(self) -> None:
        """Everything the scene shows, from the core: inputs, their centred and normalized images,
        the two points where the line meets the circle, and the degrees of freedom."""
        spec, n = self.spec, 2
        self.inputs = sample_vectors(spec.count, n, seed=spec.seed, scale=spec.spread, min_spread=1e-3)
        self.centred = project_to_zero_mean_hyperplane(self.inputs)
        self.outputs = layer_norm(self.inputs, eps=0.0)
        self.radius = output_radius("layernorm", n)
        (self.direction,) = hyperplane_basis(n)
        self.meeting_points = layer_norm(np.array([self.direction, -self.direction]), eps=0.0)  # line ∩ circle
        self.dof, self.dof_high = degrees_of_freedom("layernorm", n), degrees_of_freedom("layernorm", spec.high_dim)
        self.at_p, self.at_q = (int(c) for c in count_nearest(self.outputs, self.meeting_points))
        self.extent = 1.12 * max(float(euclidean_norm(self.inputs).max()), self.radius)
        self.p, self.q = self.fmt.vector(self.meeting_points[0]), self.fmt.vector(self.meeting_points[1])

    def draw_zero_mean_line(self) -> None:
        """The plane, the line x + y = 0, and the legend (its second entry shown with the circle)."""
        spec, colors, extent = self.spec, self.palette, self.extent
        title = self.make_title()
        self.plane = make_plane(extent, self.layout.figure_height, self.layout.figure_center, colors)
        line = segment(self.plane, -extent * self.direction, extent * self.direction, colors.hyperplane, 4)
        self.key = legend(
            [
                (colors.hyperplane, self.words("common.zero-mean-line")),
                (colors.layernorm, self.words("circle-label", radius=self.fmt.number(self.radius))),
            ],
            spec.lang,
            colors.text,
            SMALL_SIZE + 2,
        )
        self.layout.start_column(fit_width(self.key, self.layout.column_width), self.plane)
        self.say("line", FadeIn(title), Create(self.plane), Create(line), FadeIn(self.key[0]),
                 run_time=1.5, hold=0.8)

    def draw_circle(self) -> None:
        circle = circle_of_radius(self.plane, self.radius, self.palette.layernorm)
        self.say("circle", Create(circle), FadeIn(self.key[1]), run_time=1.2, hold=0.6)

    def mark_meeting_points(self) -> None:
        self.meeting_dots = VGroup(*(dot_at(self.plane, point, self.palette.emphasis, radius=0.11)
                                     for point in self.meeting_points))
        intersection = self.formula(FORMULAS["layernorm-2d-points"].format(p=self.p, q=self.q), font_size=26)
        fit_width(intersection, self.layout.column_width).next_to(self.key, DOWN, buff=0.4, aligned_edge=LEFT)
        self.intersection = intersection
        self.say("meet", FadeIn(self.meeting_dots), Write(intersection), run_time=1.2, hold=1.2, p=self.p, q=self.q)

    def scatter_inputs(self) -> None:
        self.input_dots = VGroup(*(dot_at(self.plane, v, self.palette.input, radius=0.055) for v in self.inputs))
        self.say("inputs", FadeIn(self.input_dots, lag_ratio=0.05), run_time=1.2, hold=0.6, count=self.spec.count)

    def centre_onto_line(self) -> None:
        self.centred_dots = VGroup(*(dot_at(self.plane, v, self.palette.hyperplane, radius=0.055)
                                     for v in self.centred))
        self.say("centre", ReplacementTransform(self.input_dots, self.centred_dots), run_time=1.8, hold=0.6)

    def scale_onto_points(self) -> None:
        self.output_dots = VGroup(*(dot_at(self.plane, v, self.palette.layernorm, radius=0.055) for v in self.outputs))
        self.say("scale", ReplacementTransform(self.centred_dots, self.output_dots), run_time=1.8, hold=0.6)

    def count_degrees_of_freedom(self) -> None:
        """The tally of where the inputs landed, n − 2 = 0, and the same count at high_dim."""
        spec, colors = self.spec, self.palette
        tally = self.text("count", font_size=SMALL_SIZE + 2, count=spec.count, landed=self.at_p,
                          other=self.at_q, p=self.p, q=self.q)
        dof_text = self.text("dof", font_size=SMALL_SIZE + 6, color=colors.emphasis, dof=self.dof)
        high_text = self.text("dof-high", font_size=SMALL_SIZE + 2, color=colors.muted,
                              n=spec.high_dim, dof=self.dof_high)
        summary = VGroup(tally, dof_text, high_text).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        fit_width(summary, self.layout.column_width).next_to(self.intersection, DOWN, buff=0.5, aligned_edge=LEFT)
        self.summary = summary
        self.say("dof", FadeIn(summary, lag_ratio=0.3), run_time=1.5, hold=3.5,
                 dof=self.dof, n=spec.high_dim, dof_high=self.dof_high)
