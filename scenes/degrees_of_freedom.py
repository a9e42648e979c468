"""Scene 8, ``degrees-of-freedom`` (A9, A10): n, n − 1, n − 2, Qwen2-0.5B's 896, and γ, one scale per dimension."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Create,
    FadeIn,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    Transform,
    VGroup,
)

from normgeo import circle_in_plane, constraints, degrees_of_freedom, output_radius, rms_norm, sample_vectors
from scenes.kit.adapters import make_plane
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.spec import SceneSpec, SpecError, Vector, setting
from scenes.kit.widgets import closed_curve, dot_at, legend, text_mobject

__all__ = ["DegreesOfFreedomSpec", "DegreesOfFreedom"]

ROWS = (("none", "none", "raw"), ("l2", "l2", "l2"), ("layernorm", "layernorm", "layernorm"))  # (layer, row key, step)
QWEN2_HIDDEN_SIZE = 896  # Qwen2-0.5B's hidden size: the default last dimension, named when it is the last one


@dataclass(frozen=True)
class DegreesOfFreedomSpec(SceneSpec):
    """The dimensions tabulated (each ≥ 2; the last is Qwen2-0.5B's hidden size) and γ, one scale per dimension."""

    dims: tuple[int, ...] = setting((2, 3, QWEN2_HIDDEN_SIZE), low=1, high=10**7, items=(1, 4))
    gamma: Vector = setting((1.7, 0.55), low=0.1, high=3, items=(2, 2))
    count: int = setting(10, low=1, high=50)
    seed: int = setting(5, low=0, high=2**32 - 1)

    def validate(self) -> None:
        if min(self.dims) < 2:
            raise SpecError("dims: n = 1 is not a valid LayerNorm width (one number centres to 0); give dimensions ≥ 2")


class DegreesOfFreedom(NormGeoScene):
    """The degrees-of-freedom table computed by the core, then γ stretching the circle to an ellipse."""

    spec_class = DegreesOfFreedomSpec

    def construct(self) -> None:
        self.count_and_stretch()
        self.show_table_header()
        for layer, _, step in ROWS:
            self.fill_row(layer, step)
        self.highlight_high_dimension()
        self.stretch_by_gamma()

    def count_and_stretch(self) -> None:
        """Everything the scene shows, from the core: the table, and RMSNorm's circle and points before
        and after γ."""
        spec = self.spec
        self.table_values = {layer: [degrees_of_freedom(layer, n) for n in spec.dims] for layer, _, _ in ROWS}
        self.n_high = spec.dims[-1]
        self.high_values = {"n": self.n_high, "l2": degrees_of_freedom("rmsnorm", self.n_high),
                            "ln": degrees_of_freedom("layernorm", self.n_high)}
        self.gamma = np.array(spec.gamma)
        self.radius = output_radius("rmsnorm", 2)
        inputs = sample_vectors(spec.count, 2, seed=spec.seed, scale=1.0)
        ring = circle_in_plane([1.0, 0.0], [0.0, 1.0], 1.0, samples=120)
        self.normalized_ring, self.stretched_ring = rms_norm(ring, eps=0.0), rms_norm(ring, eps=0.0, weight=self.gamma)
        self.normalized, self.stretched = rms_norm(inputs, eps=0.0), rms_norm(inputs, eps=0.0, weight=self.gamma)
        self.extent = 1.15 * max(self.radius, self.radius * float(self.gamma.max()))

    def show_table_header(self) -> None:
        """The whole table is laid out now; the header and its rule appear, the rows step by step."""
        colors = self.palette
        row_colors = {"none": colors.input, "l2": colors.rmsnorm, "layernorm": colors.layernorm}
        title = self.make_title()
        header = [self.words("header.state"), self.words("header.constraint"), self.words("header.left")]
        header += [self.words("header.n", n=n) for n in self.spec.dims]
        cells = [[self.cell(markup, colors.muted) for markup in header]]
        for layer, key, _ in ROWS:
            removed = len(constraints(layer))
            symbolic = "$n$" if removed == 0 else f"$n - {removed}$"
            row = [self.words(f"row.{key}"), self.words(f"constraint.{key}"),
                   symbolic] + [f"${value}$" for value in self.table_values[layer]]
            cells.append([self.cell(markup, row_colors[layer]) for markup in row])
        table = VGroup(*(m for row in cells for m in row)).arrange_in_grid(
            rows=len(cells), cols=len(cells[0]), buff=(0.45, 0.32), col_alignments="l" * len(cells[0])
        )
        fit_width(table, min(13.0, self.layout.content_width)).next_to(title, DOWN, buff=0.5).to_edge(LEFT, buff=0.45)
        rule = Line(table.get_corner(LEFT + (0, 1, 0)), table.get_corner(RIGHT + (0, 1, 0)), color=colors.muted,
                    stroke_width=1.5).shift(DOWN * (cells[0][0].height + 0.16))
        self.table = table
        self.table_cells = cells
        self.rows = {layer: row for (layer, _, _), row in zip(ROWS, cells[1:])}
        self.say("intro", FadeIn(title), *(FadeIn(m) for m in cells[0]), Create(rule), run_time=1.2, hold=0.5)

    def fill_row(self, layer: str, step: str) -> None:
        """One row: a state, its constraint and the degrees of freedom it leaves."""
        self.say(step, FadeIn(VGroup(*self.rows[layer]), lag_ratio=0.1), run_time=1.0, hold=1.2)

    def highlight_high_dimension(self) -> None:
        """The last column boxed: at Qwen2-0.5B's hidden size (or any large n) almost nothing is lost."""
        about = "qwen" if self.n_high == QWEN2_HIDDEN_SIZE else "other"
        values = dict(self.high_values, lead=self.words(f"lead.{about}", **self.high_values))
        high = self.text(f"high.{about}", font_size=SMALL_SIZE + 2, color=self.palette.emphasis, **values)
        fit_width(high, min(8.2, self.layout.content_width)).next_to(self.table, DOWN, buff=0.45, aligned_edge=LEFT)
        self.high_text = high
        box = self.highlight_box(VGroup(*(row[-1] for row in self.table_cells)))
        self.say("qwen", Create(box), FadeIn(high), run_time=1.2, hold=3.5, **values)

    def stretch_by_gamma(self) -> None:
        """A10: γ scales each dimension after normalization: the circle of radius √2 becomes an ellipse."""
        spec, colors, layout = self.spec, self.palette, self.layout
        gamma = self.fmt.vector(self.gamma)
        gamma_text = self.text("gamma", font_size=SMALL_SIZE + 2, gamma=gamma)
        fit_width(gamma_text, min(6.5, layout.content_width)).next_to(self.high_text, DOWN, buff=0.35, aligned_edge=LEFT)
        key = legend(
            [
                (colors.rmsnorm, self.words("legend.circle", radius=self.fmt.number(self.radius))),
                (colors.emphasis, self.words("legend.ellipse")),
            ],
            spec.lang,
            colors.text,
            SMALL_SIZE,
        ).next_to(gamma_text, DOWN, buff=0.4, aligned_edge=LEFT)
        if layout.stacked:  # the plane below the text, as large as the room left allows
            center, side = layout.square_below(key, at_most=5.6)
            plane = make_plane(self.extent, side, center, colors, step=1.0)
        else:
            plane = make_plane(self.extent, 4.0, (4.4, -1.5, 0), colors, step=1.0)
        self.plane = plane
        curve = closed_curve(plane, self.normalized_ring, colors.rmsnorm)
        dots = VGroup(*(dot_at(plane, p, colors.rmsnorm, radius=0.06) for p in self.normalized))
        self.play(Create(plane), Create(curve), FadeIn(dots), run_time=1.0)
        self.ellipse = closed_curve(plane, self.stretched_ring, colors.emphasis)
        self.stretched_dots = VGroup(*(dot_at(plane, p, colors.emphasis, radius=0.06) for p in self.stretched))
        self.say("gamma", Transform(curve.copy(), self.ellipse), ReplacementTransform(dots, self.stretched_dots),
                 FadeIn(gamma_text), FadeIn(key), run_time=2.0, hold=3.0, gamma=gamma)

    def cell(self, markup: str, color: str):
        return text_mobject(markup, self.spec.lang, color, SMALL_SIZE + 2)

    def highlight_box(self, mobject):
        return SurroundingRectangle(mobject, color=self.palette.emphasis, buff=0.12, corner_radius=0.08)
