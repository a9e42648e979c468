"""Scene 8, ``degrees-of-freedom`` (A9, A10): n, n − 1, n − 2, Qwen2-0.5B's 896, and γ, one scale per dimension."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    Transform,
    VGroup,
    VMobject,
)

from normgeo import (
    circle_in_plane,
    constraints,
    degrees_of_freedom,
    output_ellipsoid,
    output_radius,
    rms_norm,
    sample_vectors,
)
from scenes.kit import labels
from scenes.kit.adapters import make_plane, to_points
from scenes.kit.claims import claim
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.spec import SceneSpec, SpecError, Vector, setting
from scenes.kit.widgets import closed_curve, dot_at, text_mobject

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
        self.after_gamma = output_ellipsoid(self.gamma, centred=False)  # round or an ellipse, by the core
        self.extent = 1.15 * max(self.radius, self.radius * float(self.gamma.max()))

    def show_table_header(self) -> None:
        """The whole table is laid out now; the header and its rule appear, the rows step by step."""
        colors = self.palette
        row_colors = {"none": colors.input, "l2": colors.rmsnorm, "layernorm": colors.layernorm}
        title = self.make_title()
        header = ["", "", self.words("header.left")]  # the first two columns name themselves
        header += [self.words("header.n", n=n) for n in self.spec.dims]
        cells = [[self.cell(markup, colors.muted) if markup else VMobject() for markup in header]]
        for layer, key, _ in ROWS:
            removed = len(constraints(layer))
            symbolic = "$n$" if removed == 0 else f"$n - {removed}$"
            row = [self.words(f"row.{key}"), self.words(f"constraint.{key}"),
                   symbolic] + [f"${value}$" for value in self.table_values[layer]]
            cells.append([self.cell(markup, row_colors[layer]) for markup in row])
        table = VGroup(*(m for row in cells for m in row)).arrange_in_grid(
            rows=len(cells), cols=len(cells[0]), buff=(0.55, 0.3), col_alignments="l" * len(cells[0])
        )
        fit_width(table, self.layout.content_width).next_to(title, DOWN, buff=0.45).to_edge(LEFT, buff=0.45)
        rule = Line(table.get_corner(LEFT + (0, 1, 0)), table.get_corner(RIGHT + (0, 1, 0)), color=colors.muted,
                    stroke_width=1.5).shift(DOWN * (max(m.height for m in cells[0]) + 0.16))
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
        fit_width(high, self.layout.content_width).next_to(self.table, DOWN, buff=0.45, aligned_edge=LEFT)
        self.high_text = high
        box = self.highlight_box(VGroup(*(row[-1] for row in self.table_cells)))
        self.say("qwen", Create(box), FadeIn(high), run_time=1.2, hold=3.5, **values)

    def stretch_by_gamma(self) -> None:
        """A10: γ scales each dimension after normalization: the circle of radius √2 becomes an ellipse
        (a circle again when γ's entries are equal: the core's predicate says which); both named on
        the figure, γ = … beside it."""
        colors, layout = self.palette, self.layout
        gamma = self.fmt.vector(self.gamma)
        gamma_text = self.text("gamma", font_size=SMALL_SIZE + 4, gamma=gamma)
        if layout.stacked:  # the plane below the text, as large as the room left allows
            fit_width(gamma_text, layout.content_width).next_to(self.high_text, DOWN, buff=0.35, aligned_edge=LEFT)
            center, side = layout.square_below(gamma_text, at_most=7.0)
            plane = make_plane(self.extent, side, center, colors, step=1.0)
        else:
            plane = make_plane(self.extent, 4.1, (4.4, -1.75, 0), colors, step=1.0)
            gamma_text.next_to(plane, LEFT, buff=0.8)
        self.plane = plane
        curve = closed_curve(plane, self.normalized_ring, colors.rmsnorm)
        dots = VGroup(*(dot_at(plane, p, colors.rmsnorm, radius=0.06) for p in self.normalized))
        self.ellipse = closed_curve(plane, self.stretched_ring, colors.emphasis)
        self.stretched_dots = VGroup(*(dot_at(plane, p, colors.emphasis, radius=0.06) for p in self.stretched))
        before = self.text("legend.circle", font_size=SMALL_SIZE, color=colors.rmsnorm)
        after = self.text("legend.after", font_size=SMALL_SIZE, color=colors.emphasis,
                          when=claim(self.after_gamma, "is_round"))
        rings = [labels.polygon_segments(to_points(plane, ring)) for ring in (self.normalized_ring, self.stretched_ring)]
        segments = np.concatenate(rings)
        box = plane.get_corner(DOWN + LEFT)[:2], plane.get_corner(UP + RIGHT)[:2]
        for label, ring in ((before, self.normalized_ring), (after, self.stretched_ring)):  # each beside its own curve
            places = [labels.at_point(label, to_points(plane, point), point).get_center() for point in ring[::6]]
            labels.clearest_place(label, places, segments, inside=box)
            segments = np.concatenate([segments, labels.polygon_segments(
                [label.get_corner(c) for c in ((-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0))])])
        self.curve_labels = VGroup(before, after)
        self.play(Create(plane), Create(curve), FadeIn(dots), FadeIn(before), run_time=1.0)
        self.say("gamma", Transform(curve.copy(), self.ellipse), ReplacementTransform(dots, self.stretched_dots),
                 FadeIn(gamma_text), FadeIn(after), run_time=2.0, hold=3.0, gamma=gamma,
                 shape=self.words("shape", when=claim(self.after_gamma, "is_round")))

    def cell(self, markup: str, color: str):
        return text_mobject(markup, self.spec.lang, color, SMALL_SIZE + 2)

    def highlight_box(self, mobject):
        return SurroundingRectangle(mobject, color=self.palette.emphasis, buff=0.12, corner_radius=0.08)
