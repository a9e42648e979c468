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
from scenes.kit import labels
from scenes.kit.adapters import make_plane, to_points
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.spec import SceneSpec, setting
from scenes.kit.widgets import circle_of_radius, dot_at, segment

__all__ = ["LayerNorm2DSpec", "LayerNorm2D"]

ZOOMED_EXTENT = 1.6  # the close view at the end shows 1.6 radii of the circle each way


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

    def figure(self, extent: float) -> dict:
        """The plane showing [−extent, extent]², the zero-mean line, the circle, the two points and
        the outputs, each labelled on the figure (labels beside what they name)."""
        colors = self.palette
        plane = make_plane(extent, self.layout.figure_height, self.layout.figure_center, colors)
        origin = to_points(plane, np.zeros(2))
        line_end = to_points(plane, -0.8 * extent * self.direction)  # the upper-left end
        line = segment(plane, -extent * self.direction, extent * self.direction, colors.hyperplane, 4)
        circle = circle_of_radius(plane, self.radius, colors.layernorm)
        meeting = VGroup(*(dot_at(plane, point, colors.emphasis, radius=0.11) for point in self.meeting_points))
        outputs = VGroup(*(dot_at(plane, v, colors.layernorm, radius=0.055) for v in self.outputs))
        line_label = self.text("common.zero-mean-line", font_size=SMALL_SIZE, color=colors.hyperplane)
        labels.at_point(line_label, line_end, (1.0, 1.0, 0.0), buff=0.1)  # beside the line, above its upper end
        circle_label = self.text("circle-label", font_size=SMALL_SIZE + 2, color=colors.layernorm)
        scene_radius = np.linalg.norm(to_points(plane, [self.radius, 0.0]) - origin)
        labels.on_circle(circle_label, origin, scene_radius, np.pi / 4, buff=0.12)
        point_labels = VGroup()
        for point, landed in zip(self.meeting_points, (self.at_p, self.at_q)):
            # beside the point, across from the circle's centre, in the wedge between the line and the
            # circle's tangent: far enough out that the label's corners clear both
            side = 1.0 if point[0] > 0 else -1.0
            label = VGroup(self.formula(self.fmt.vector(point), font_size=30, color=colors.emphasis),
                           self.text("landed", font_size=SMALL_SIZE, color=colors.muted, count=landed))
            label.arrange(DOWN, aligned_edge=LEFT if side > 0 else RIGHT, buff=0.1)
            labels.at_point(label, to_points(plane, point), (side, 0.0, 0.0), buff=label.height / 2 + 0.1)
            point_labels.add(label)
        return {"plane": plane, "line": line, "circle": circle, "meeting": meeting, "outputs": outputs,
                "line_label": line_label, "circle_label": circle_label, "point_labels": point_labels}

    def draw_zero_mean_line(self) -> None:
        """The plane and the line x + y = 0, named on the line."""
        title = self.make_title()
        self.drawn = self.figure(self.extent)
        self.plane = self.drawn["plane"]
        self.say("line", FadeIn(title), Create(self.plane), Create(self.drawn["line"]), FadeIn(self.drawn["line_label"]),
                 run_time=1.5, hold=0.8)

    def draw_circle(self) -> None:
        self.say("circle", Create(self.drawn["circle"]), FadeIn(self.drawn["circle_label"]), run_time=1.2, hold=0.6)

    def mark_meeting_points(self) -> None:
        """The two points, each named by its coordinates beside it; the intersection as one formula."""
        self.meeting_dots, colors = self.drawn["meeting"], self.palette
        intersection = self.formula(FORMULAS["layernorm-2d-points"].format(p=self.p, q=self.q), font_size=30)
        condition = self.text("condition", font_size=SMALL_SIZE, color=colors.muted)
        fit_width(intersection, self.layout.column_width)  # maths may shrink; the words keep their size
        column = VGroup(intersection, condition).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
        self.layout.start_column(column, self.plane)
        self.intersection = column
        coordinates = VGroup(*(label[0] for label in self.drawn["point_labels"]))
        self.say("meet", FadeIn(self.meeting_dots), FadeIn(coordinates), Write(intersection), FadeIn(condition),
                 run_time=1.2, hold=1.2, p=self.p, q=self.q)

    def scatter_inputs(self) -> None:
        self.input_dots = VGroup(*(dot_at(self.plane, v, self.palette.input, radius=0.055) for v in self.inputs))
        self.say("inputs", FadeIn(self.input_dots, lag_ratio=0.05), run_time=1.2, hold=0.6, count=self.spec.count)

    def centre_onto_line(self) -> None:
        self.centred_dots = VGroup(*(dot_at(self.plane, v, self.palette.hyperplane, radius=0.055)
                                     for v in self.centred))
        self.say("centre", ReplacementTransform(self.input_dots, self.centred_dots), run_time=1.8, hold=0.6)

    def scale_onto_points(self) -> None:
        """Every input lands on one of the two points; then the view closes in on the circle (the
        inputs' spread no longer matters), and each point says how many landed there."""
        self.output_dots = self.drawn["outputs"]
        begun = self.begin_caption("scale", landed=self.at_p, other=self.at_q, p=self.p, q=self.q)
        self.play(ReplacementTransform(self.centred_dots, self.output_dots), run_time=1.8)
        close = self.figure(ZOOMED_EXTENT * self.radius)
        moves = [ReplacementTransform(self.drawn[part], close[part])
                 for part in ("plane", "line", "circle", "meeting", "outputs", "line_label", "circle_label")]
        coordinates = VGroup(*(label[0] for label in self.drawn["point_labels"]))
        moves.append(ReplacementTransform(coordinates, VGroup(*(label[0] for label in close["point_labels"]))))
        counts = VGroup(*(label[1] for label in close["point_labels"]))
        self.drawn, self.plane = close, close["plane"]
        self.meeting_dots, self.output_dots = close["meeting"], close["outputs"]
        self.play(*moves, FadeIn(counts), run_time=1.5)
        self.wait(self.held_caption(begun, 3.3, 1.0))

    def count_degrees_of_freedom(self) -> None:
        """n − 2 = 0 degrees of freedom, and the same count at high_dim."""
        spec, colors = self.spec, self.palette
        dof_text = self.text("dof", font_size=SMALL_SIZE + 6, color=colors.emphasis, dof=self.dof)
        high_text = self.text("dof-high", font_size=SMALL_SIZE + 2, color=colors.muted,
                              n=spec.high_dim, dof=self.dof_high)
        summary = VGroup(dof_text, high_text).arrange(DOWN, aligned_edge=LEFT, buff=0.3)
        fit_width(summary, self.layout.column_width).next_to(self.intersection, DOWN, buff=0.6, aligned_edge=LEFT)
        self.summary = summary
        self.say("dof", FadeIn(summary, lag_ratio=0.3), run_time=1.5, hold=3.5,
                 dof=self.dof, n=spec.high_dim, dof_high=self.dof_high)
