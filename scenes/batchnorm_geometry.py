"""Scene 11, ``batchnorm-geometry`` (C4): BatchNorm is LayerNorm's geometry on the batch axis.

Each feature's column of B values is centred and scaled onto the sphere of radius √B in the
zero-mean hyperplane of ℝ^B; with B = 2 every feature lands on (1, −1) or (−1, 1). GroupNorm's
limits: one group is LayerNorm; one feature per group is InstanceNorm, which erases a grid with
one value per group.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, UL, Create, FadeIn, FadeOut, SurroundingRectangle, Transform, VGroup

from normgeo import (
    batch_norm,
    batch_norm_columns,
    count_nearest,
    euclidean_norm,
    group_norm,
    hyperplane_basis,
    layer_norm,
    project_to_zero_mean_hyperplane,
    statistic_groups,
)
from scenes.kit.adapters import make_plane, to_points
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.grids import cell_rectangles, number_cells, shade_groups
from scenes.kit.spec import SceneSpec, SpecError, Vectors, setting
from scenes.kit.text import math_number
from scenes.kit.widgets import circle_of_radius, dot_at, segment, text_mobject

__all__ = ["BatchNormGeometrySpec", "BatchNormGeometry"]

GRID_CENTER = (-3.75, 1.3, 0.0)
PLANE_CENTER = (3.3, -0.75, 0.0)
PLANE_SIZE = 5.1
STACKED_PLANE_SIZE, STACKED_GRID_INDENT = 2.9, 1.2  # square or tall frames
MINI_CELL = (0.7, 0.34)
COLUMN_SUM = "sum_b"
COLUMN_LENGTH = "norm(dot)_2"


@dataclass(frozen=True)
class BatchNormGeometrySpec(SceneSpec):
    """The grid (rows = batch, columns = features; the Russian source's values), the two rows used for
    the batch of two, and the ε that InstanceNorm needs on a grid with one value per group."""

    values: Vectors = setting(((1.0, 2.0, 3.0, 10.0), (2.0, 4.0, 1.0, 8.0), (3.0, 1.0, 5.0, 12.0), (0.0, 3.0, 2.0, 9.0)),
                              low=-999, high=999, items=(2, 5))
    pair: tuple[int, ...] = setting((1, 2), low=1, high=5, items=(2, 2))
    eps: float = setting(1e-5, low=1e-12, high=1)

    def validate(self) -> None:
        widths = {len(row) for row in self.values}
        if len(widths) != 1 or not 2 <= widths.pop() <= 5:
            raise SpecError("values: give rows of 2 to 5 numbers each, all rows the same length")
        grid = np.array(self.values)
        if np.any(np.ptp(grid, axis=0) < 1e-6):
            raise SpecError("values: every column must vary (BatchNorm at ε = 0 divides by each column's σ)")
        if np.any(np.ptp(grid, axis=1) < 1e-6):
            raise SpecError("values: every row must vary (LayerNorm at ε = 0 divides by each row's σ)")
        first, second = self.pair
        if first == second or max(self.pair) > grid.shape[0]:
            raise SpecError(f"pair: give two different rows between 1 and {grid.shape[0]}, got {first},{second}")
        if np.any(grid[first - 1] == grid[second - 1]):
            raise SpecError("pair: the two rows must differ in every feature (a batch of two with equal values has σ = 0)")


class BatchNormGeometry(NormGeoScene):
    """The grid under BatchNorm (each column: sum 0, length √B); a batch of two on the plane; GroupNorm's two limits."""

    spec_class = BatchNormGeometrySpec

    def construct(self) -> None:
        self.compute()
        self.show_grid()
        self.normalize_columns()
        self.name_the_sphere()
        self.group_norm_with_one_group()
        self.group_norm_per_feature()
        self.centre_a_batch_of_two()
        self.scale_a_batch_of_two()

    def compute(self) -> None:
        """Everything the scene shows, from the core."""
        spec = self.spec
        self.grid = grid = np.array(spec.values, dtype=float)
        self.batch, self.features = grid.shape
        self.columns = batch_norm_columns(grid, eps=0.0)
        rows = [index - 1 for index in spec.pair]
        self.pair_grid = grid[rows]
        self.pair_columns = batch_norm_columns(self.pair_grid, eps=0.0)
        self.pair_centred = project_to_zero_mean_hyperplane(self.pair_grid.T)  # one point of ℝ² per feature
        self.pair_outputs = batch_norm(self.pair_grid, eps=0.0).T
        (self.direction,) = hyperplane_basis(2)
        self.meeting_points = layer_norm(np.array([self.direction, -self.direction]), eps=0.0)
        self.at_p, self.at_q = (int(c) for c in count_nearest(self.pair_outputs, self.meeting_points))
        self.one_group = group_norm(grid, 1, eps=0.0)
        self.per_feature = group_norm(grid, self.features, eps=spec.eps)
        self.labels = {
            "batchnorm": statistic_groups("batchnorm", grid.shape),
            "one-group": statistic_groups("groupnorm", grid.shape, num_groups=1),
            "per-feature": statistic_groups("groupnorm", grid.shape, num_groups=self.features),
        }
        self.extent = 1.3 * max(float(euclidean_norm(self.pair_centred).max()), self.pair_columns.radius)
        fmt = self.fmt
        self.values = {"B": self.batch, "radius": fmt.number(self.columns.radius), "p": fmt.vector(self.meeting_points[0]),
                       "q": fmt.vector(self.meeting_points[1]), "first": spec.pair[0], "second": spec.pair[1],
                       "features": self.features, "eps": fmt.scientific(spec.eps),
                       "pair_radius": fmt.number(self.pair_columns.radius),
                       "plane_dim": len(hyperplane_basis(self.batch))}  # the zero-mean hyperplane of ℝ^B: B − 1

    # ------------------------------------------------------------------ steps
    def show_grid(self) -> None:
        """The raw grid, its axes named, BatchNorm's columns shaded."""
        colors = self.palette
        title = self.make_title()
        self.cells = cell_rectangles(self.grid.shape, 1.05, 0.5, colors.muted)
        if self.layout.stacked:  # the grid at the top left, the pair's plane under it, the mini grids at the bottom
            self.cells.next_to(title, DOWN, buff=0.65).align_to((self.layout.left + STACKED_GRID_INDENT, 0, 0), LEFT)
        else:
            self.cells.move_to(GRID_CENTER)
        features = self.text("features", font_size=SMALL_SIZE, color=colors.muted)
        features.next_to(self.cells, UP, buff=0.12).align_to(self.cells, LEFT)
        batch = self.text("batch", font_size=SMALL_SIZE, color=colors.muted)
        batch.next_to(self.cells, LEFT, buff=0.2).align_to(self.cells, UP)
        self.shown = {"raw": [self.fmt.number(v, 2) for v in self.grid.ravel()]}
        self.numbers = self.grid_numbers(self.grid, self.shown["raw"], self.cells, SMALL_SIZE)
        self.shading = shade_groups(self.cells, self.labels["batchnorm"], colors.batchnorm)
        self.say("grid", FadeIn(title), FadeIn(self.cells), FadeIn(features), FadeIn(batch), FadeIn(self.shading),
                 FadeIn(self.numbers), run_time=1.5, hold=1.0)

    def normalize_columns(self) -> None:
        """BatchNorm's values (ε = 0) and, under each column, its sum and its length."""
        colors, fmt = self.palette, self.fmt
        self.shown["batchnorm"] = [fmt.fixed(v, 2) for v in self.columns.normalized.ravel()]
        normalized = self.grid_numbers(self.columns.normalized, self.shown["batchnorm"], self.cells, SMALL_SIZE)
        self.shown["sums"] = [fmt.number(v) for v in self.columns.sums]
        self.shown["lengths"] = [fmt.number(v) for v in self.columns.lengths]
        sums = self.under_columns(self.shown["sums"], 1)
        lengths = self.under_columns(self.shown["lengths"], 2)
        heads = VGroup(*(text_mobject(f"${head}$", self.spec.lang, colors.muted, SMALL_SIZE)
                         .next_to(self.cells, LEFT, buff=0.15).set_y(row.get_y())
                         for head, row in ((COLUMN_SUM, sums), (COLUMN_LENGTH, lengths))))
        self.column_stats = VGroup(sums, lengths, heads)
        note = self.text("eps-note", font_size=SMALL_SIZE, color=colors.muted)
        width = self.layout.pick(self.text_right() - self.cells.get_left()[0], self.layout.content_width)
        self.eps_note = fit_width(note, width).next_to(self.column_stats, DOWN, buff=0.3)
        self.eps_note.align_to((self.layout.left if self.layout.stacked else self.cells.get_left()[0], 0, 0), LEFT)
        self.say("normalize", Transform(self.numbers, normalized), FadeIn(self.column_stats), FadeIn(note),
                 run_time=1.5, hold=1.0, B=self.batch, radius=self.values["radius"])

    def name_the_sphere(self) -> None:
        sphere = VGroup(*(self.text(key, font_size=SMALL_SIZE, color=self.palette.batchnorm, B=self.batch,
                                    radius=self.values["radius"]) for key in ("sphere.law", "sphere.set")))
        sphere.arrange(DOWN, aligned_edge=LEFT, buff=0.1)
        if self.layout.stacked:
            self.sphere_text = fit_width(sphere, self.layout.content_width).next_to(self.eps_note, DOWN, buff=0.25)
            self.sphere_text.align_to((self.layout.left, 0, 0), LEFT)
        else:
            self.sphere_text = fit_width(sphere, self.text_right() - self.cells.get_left()[0])
            self.sphere_text.next_to(self.eps_note, DOWN, buff=0.3).align_to(self.cells, LEFT)
        self.say("sphere", FadeIn(self.sphere_text), run_time=1.0, hold=1.0, B=self.batch,
                 plane_dim=self.values["plane_dim"])

    def group_norm_with_one_group(self) -> None:
        """Mini grid right of the grid: GroupNorm with one group (ε = 0), shaded by rows: LayerNorm's values."""
        self.shown["one-group"] = [self.fmt.fixed(v, 2) for v in self.one_group.ravel()]
        self.one_group_grid = self.mini_grid(self.one_group, self.shown["one-group"], "one-group",
                                             self.palette.layernorm, self.mini_corner())
        self.say("one-group", FadeIn(self.one_group_grid), run_time=1.2, hold=1.0)

    def group_norm_per_feature(self) -> None:
        """Mini grid: one feature per group, every cell its own group: all values 0 (at ε > 0)."""
        self.shown["per-feature"] = [self.fmt.fixed(v, 2) for v in self.per_feature.ravel()]
        corner = self.mini_corner()
        if self.layout.stacked:  # beside the first
            corner = (self.one_group_grid.get_right()[0] + 0.4, corner[1])
        else:  # under the first
            corner = (corner[0], self.one_group_grid.get_bottom()[1] - 0.35)
        self.per_feature_grid = self.mini_grid(self.per_feature, self.shown["per-feature"], "per-feature",
                                               self.palette.groupnorm, corner)
        refusal = VGroup(*(self.text(f"refused.{k}", font_size=SMALL_SIZE, color=color) for k, color in
                           (("erased", self.palette.groupnorm), ("undefined", self.palette.muted))
                           )).arrange(DOWN, aligned_edge=LEFT, buff=0.14)
        if self.layout.stacked:  # under the two mini grids
            self.refusal = fit_width(refusal, self.layout.content_width).next_to(self.per_feature_grid, DOWN, buff=0.3)
            self.refusal.align_to((self.layout.left, 0, 0), LEFT)
        else:  # under the second
            self.refusal = fit_width(refusal, self.layout.right - corner[0]).next_to(self.per_feature_grid, DOWN, buff=0.25)
            self.refusal.align_to(self.per_feature_grid, LEFT)
        self.say("per-feature", FadeIn(self.per_feature_grid), FadeIn(self.refusal), run_time=1.2, hold=1.5,
                 features=self.features)

    def centre_a_batch_of_two(self) -> None:
        """GroupNorm's grids give way to the hero: the plane of a batch of two (the rows framed on the
        grid), the zero-mean line and the circle of radius √2 labelled on themselves; the features
        land as centred points on the line."""
        colors, extent = self.palette, self.extent
        frames = VGroup(*(SurroundingRectangle(VGroup(*self.cells[(r - 1) * self.features:r * self.features]),
                                               color=colors.emphasis, buff=0.02, stroke_width=3)
                          for r in self.spec.pair))
        if self.layout.stacked:
            top = self.sphere_text.get_bottom()[1] - 0.85
            side = max(2.0, min(self.layout.content_width - 1.6, top - self.layout.bottom - 0.6))
            self.plane = make_plane(extent, side, (0.0, top - side / 2, 0.0), colors)
        else:
            self.plane = make_plane(extent, PLANE_SIZE, PLANE_CENTER, colors)
        along = self.direction * extent * 0.97
        line = segment(self.plane, -along, along, colors.hyperplane, 4)
        circle = circle_of_radius(self.plane, self.pair_columns.radius, colors.batchnorm, 5)
        size = SMALL_SIZE
        line_label = self.text("legend.line", font_size=size, color=colors.hyperplane)
        # along the line, inside the circle, on the side away from the origin's upper half
        angle = float(np.arctan2(self.direction[1], self.direction[0]))
        normal = np.array([-self.direction[1], self.direction[0]])
        line_label.rotate(angle if abs(angle) <= np.pi / 2 else angle - np.pi * np.sign(angle))
        line_label.move_to(to_points(self.plane, 0.5 * self.pair_columns.radius * self.direction))
        line_label.shift((line_label.height / 2 + 0.12) * np.array([*(normal if normal[1] < 0 else -normal), 0.0]))
        circle_label = self.text("legend.circle", font_size=size, color=colors.batchnorm,
                                 radius=self.values["pair_radius"])
        circle_label.next_to(to_points(self.plane, [0.0, -self.pair_columns.radius]), DOWN, buff=0.12)
        circle_label.align_to(self.plane.y_axis, LEFT).shift(RIGHT * 0.15)
        self.centred_dots = VGroup(*(dot_at(self.plane, v, colors.hyperplane, radius=0.09) for v in self.pair_centred))
        axis_names = VGroup(text_mobject("$v_1$", self.spec.lang, colors.muted, size + 4),
                            text_mobject("$v_2$", self.spec.lang, colors.muted, size + 4))
        axis_names[0].next_to(self.plane.x_axis.get_right(), RIGHT, buff=0.12)
        axis_names[1].next_to(self.plane.y_axis.get_top(), RIGHT, buff=0.15).align_to(self.plane.y_axis, UP)
        rows = self.text("axes", font_size=size, color=colors.muted, first=self.spec.pair[0], second=self.spec.pair[1])
        axis_names.add(fit_width(rows, self.layout.right - self.plane.get_left()[0]).next_to(self.plane, UP, buff=0.15)
                       .align_to(self.plane, LEFT))
        self.plane_labels = VGroup(line_label, circle_label, axis_names)
        self.say("pair", FadeOut(self.one_group_grid), FadeOut(self.per_feature_grid), FadeOut(self.refusal),
                 Create(frames), Create(self.plane), FadeIn(axis_names), Create(line), Create(circle),
                 FadeIn(line_label), FadeIn(circle_label), FadeIn(self.centred_dots),
                 run_time=1.8, hold=0.8, first=self.spec.pair[0], second=self.spec.pair[1])

    def scale_a_batch_of_two(self) -> None:
        """Scaling sends every feature's point to (1, −1) or (−1, 1): each labelled with how many land there."""
        colors = self.palette
        self.output_dots = VGroup(*(dot_at(self.plane, v, colors.batchnorm, radius=0.11) for v in self.pair_outputs))
        labels = VGroup()
        for point, count, name in zip(self.meeting_points, (self.at_p, self.at_q), ("p", "q")):
            label = VGroup(self.text("point", font_size=SMALL_SIZE + 2, color=colors.batchnorm, point=self.values[name]),
                           self.text("count", font_size=SMALL_SIZE, color=colors.muted, count=count))
            right = point[0] > 0  # outside the circle, in the wedge between the circle and the line
            label.arrange(DOWN, aligned_edge=LEFT if right else RIGHT, buff=0.08)
            label.next_to(to_points(self.plane, point), RIGHT if right else LEFT, buff=0.45)
            labels.add(label)
        self.tally = labels
        self.say("scale", Transform(self.centred_dots, self.output_dots), FadeIn(labels), run_time=1.5, hold=1.5,
                 p=self.values["p"], q=self.values["q"])

    # ------------------------------------------------------------------ helpers
    def mini_corner(self) -> tuple[float, float]:
        """The upper-left corner of the first mini grid: right of the grid at 16:9, under the sphere's
        text in a square or tall frame (where the pair's plane comes later)."""
        if self.layout.stacked:
            return self.layout.left, self.sphere_text.get_bottom()[1] - 0.45
        return 0.6, self.cells.get_top()[1] + 0.4

    def text_right(self) -> float:
        """At 16:9, the right edge of the text under the grid: clear of the pair's plane."""
        return PLANE_CENTER[0] - PLANE_SIZE / 2 - 0.3

    def grid_numbers(self, values, texts, cells, font_size) -> VGroup:
        return number_cells(values, texts, cells, self.spec.lang, self.palette.text, font_size)

    def under_columns(self, texts, row: int) -> VGroup:
        """One number under each column of the main grid, ``row`` lines below it."""
        entries = VGroup()
        for column, text in enumerate(texts):
            cell = self.cells[(self.batch - 1) * self.features + column]
            entry = text_mobject(f"${math_number(text)}$", self.spec.lang, self.palette.batchnorm, SMALL_SIZE)
            entries.add(entry.move_to(cell).shift(DOWN * 0.45 * row))
        return entries

    def mini_grid(self, values, texts, key: str, color: str, corner) -> VGroup:
        """A small grid with its caption above, its upper-left corner at ``corner``."""
        cells = cell_rectangles(values.shape, *MINI_CELL, self.palette.muted)
        shading = shade_groups(cells, self.labels[key], color)
        numbers = number_cells(values, texts, cells, self.spec.lang, self.palette.text,
                               SMALL_SIZE - 7)
        grid = VGroup(shading, cells, numbers)
        caption = self.text(f"caption.{key}", font_size=SMALL_SIZE, color=color, eps=self.values["eps"])
        fit_width(caption, self.layout.pick(self.layout.right - corner[0], max(grid.width + 0.2, self.layout.content_width / 2 - 0.2)))
        block = VGroup(caption, grid).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        block.move_to(np.array([corner[0], corner[1], 0.0]), aligned_edge=UL)
        return block
