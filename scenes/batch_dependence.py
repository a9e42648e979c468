"""Scene 12, ``batch-dependence`` (B9): one example in two batches; small-batch noise; train vs eval."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, LineJointType, SurroundingRectangle, VGroup, VMobject

from normgeo import batch_mean_spread, same_example_in_two_batches, train_eval_gap
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.claims import claim
from scenes.kit.grids import cell_rectangles, number_cells
from scenes.kit.plots import axis_labels, curve, make_axes
from scenes.kit.spec import SceneSpec, SpecError, as_setting_text, setting
from scenes.kit.widgets import dot_at, text_mobject

__all__ = ["BatchDependenceSpec", "BatchDependence"]

PLOTS_TOP = -0.25  # 16:9: the plots' titles reach up to about -0.45
EPS = 1e-5  # BatchNorm's ε in the two-batch example (PyTorch's default)


@dataclass(frozen=True)
class BatchDependenceSpec(SceneSpec):
    """Batch shape for the two-batch example, batch sizes for the plots, and the seed."""

    features: int = setting(4, low=2, high=6)
    batch_size: int = setting(4, low=2, high=6)
    batch_sizes: tuple[int, ...] = setting((2, 4, 8, 16, 32, 64, 128), low=2, high=1024, items=(2, 10))
    seed: int = setting(0, low=0, high=2**32 - 1)

    def validate(self) -> None:
        sizes = self.batch_sizes
        if any(b & (b - 1) for b in sizes) or list(sizes) != sorted(set(sizes)):
            raise SpecError(f"batch_sizes: give increasing powers of two, got {as_setting_text(sizes)}")


class BatchDependence(NormGeoScene):
    """Two batches sharing one example; the spread of batch means; the train/eval gap."""

    spec_class = BatchDependenceSpec

    def construct(self) -> None:
        self.measure()
        self.introduce()
        self.compare_two_batches()
        self.lay_out_plots()
        self.plot_batch_mean_spread()
        self.plot_train_eval_gap()
        self.point_to_layernorm()

    def measure(self) -> None:
        """Everything the scene shows, from the core: the two-batch example, the spread and the gap."""
        spec = self.spec
        self.pair = same_example_in_two_batches(n_features=spec.features, batch_size=spec.batch_size, seed=spec.seed,
                                                eps=EPS)
        self.spread = batch_mean_spread(spec.batch_sizes, seed=spec.seed)
        self.gap = train_eval_gap(spec.batch_sizes, seed=spec.seed)

    def introduce(self) -> None:
        self.title = self.make_title()
        self.say("intro", FadeIn(self.title), run_time=1.0, hold=0.8)

    def compare_two_batches(self) -> None:
        """B9: both batches as grids (the shared example x boxed and named), and under each grid what
        BatchNorm (training mode) and LayerNorm make of x in that batch."""
        colors, pair, fmt, lang = self.palette, self.pair, self.fmt, self.spec.lang
        grids = VGroup(self.batch_grid(pair.batch_a, "batch-a"), self.batch_grid(pair.batch_b, "batch-b"))
        grids.arrange(RIGHT, buff=0.7)
        size = SMALL_SIZE
        outputs = {}
        for layer, color in (("batchnorm", colors.batchnorm), ("layernorm", colors.layernorm)):
            a, b = (getattr(pair, f"{layer}_{k}") for k in ("a", "b"))
            name = self.text(f"{layer}-of-x", font_size=size, color=color)
            values = [self.text("vector", font_size=size, color=color, v=fmt.vector(v, 2)) for v in (a, b)]
            outputs[layer] = (name, values)
        names = VGroup(outputs["batchnorm"][0], outputs["layernorm"][0]).arrange(DOWN, aligned_edge=RIGHT, buff=0.3)
        names.next_to(grids, DOWN, buff=0.45).align_to(grids, LEFT)
        rows = VGroup()
        for layer, name in zip(("batchnorm", "layernorm"), names):
            row = VGroup(*outputs[layer][1])
            for value, grid in zip(row, grids):
                value.move_to(grid[0]).set_y(name.get_y())
            rows.add(row)
        mode = self.text("bn-mode", font_size=size, color=colors.muted, eps=self.fmt.scientific(EPS))
        block = VGroup(grids, names, rows)
        names.next_to(rows, LEFT, buff=0.3)
        block = VGroup(grids, names, rows)
        fit_width(block, self.layout.pick(9.6, self.layout.content_width))
        if not self.layout.stacked:  # above the plots' titles (a batch of 6 rows is tall)
            room = self.title.get_bottom()[1] - 0.3 - PLOTS_TOP
            if block.height > room:
                block.scale_to_fit_height(room)
        block.next_to(self.title, DOWN, buff=0.3).align_to((self.layout.left + 0.15, 0, 0), LEFT)
        if self.layout.stacked:
            mode.next_to(block, DOWN, buff=0.25).align_to(block, LEFT)
        else:
            mode.next_to(block, RIGHT, buff=0.5).align_to(names[0], DOWN)
        fit_width(mode, self.layout.right - mode.get_left()[0])
        self.grids, self.bn_outputs, self.ln_outputs = grids, VGroup(names[0], rows[0]), VGroup(names[1], rows[1])
        self.outputs = VGroup(names, rows, mode)
        self.say("two-batches", FadeIn(grids), FadeIn(self.bn_outputs), FadeIn(mode), FadeIn(self.ln_outputs),
                 run_time=1.5, hold=1.5, when=claim(pair, "batchnorm_outcome"))

    def batch_grid(self, batch, key: str) -> VGroup:
        """One batch as a grid of numbers, its first row (the shared example x) boxed and named, its name above."""
        colors = self.palette
        cells = cell_rectangles(batch.shape, 0.78, 0.36, colors.muted)
        texts = [self.fmt.fixed(v) for v in batch.ravel()]
        numbers = number_cells(batch, texts, cells, self.spec.lang, colors.text, SMALL_SIZE - 4)
        mark = SurroundingRectangle(VGroup(*cells[: batch.shape[1]]), color=colors.emphasis, buff=0.03, stroke_width=3)
        x = text_mobject("$x$", self.spec.lang, colors.emphasis, SMALL_SIZE + 4).next_to(mark, LEFT, buff=0.12)
        label = self.text(key, font_size=SMALL_SIZE, color=colors.muted).next_to(cells, UP, buff=0.12)
        return VGroup(cells, numbers, mark, label, x)

    def lay_out_plots(self) -> None:
        """Two log-log plots over the batch sizes: the spread of the batch mean (left), the gap (right);
        tick marks at the batch sizes and the decades, axis titles at the axes' ends."""
        colors, lang, spread = self.palette, self.spec.lang, self.spread
        self.positions = np.log2(spread.batch_sizes)
        labels = {float(p): str(int(b)) for p, b in zip(self.positions, spread.batch_sizes)}
        x_range = (float(self.positions[0]) - 0.4, float(self.positions[-1]) + 0.4, 1)
        y_range = (-1.5, 0.3, 0.5)
        size = self.layout.pick((5.6, 2.0), (self.layout.content_width - 1.6, 2.3))
        self.spread_axes, self.gap_axes = (make_axes(x_range, y_range, *size, colors, log_y=True, x_tick_labels=labels,
                                                     lang=lang) for _ in range(2))
        for axes in (self.spread_axes, self.gap_axes):
            _tick_at(axes.x_axis, self.positions)
            _tick_at(axes.y_axis, [10.0 ** k for k in range(int(np.ceil(y_range[0])), int(np.floor(y_range[1])) + 1)])
        if self.layout.stacked:  # one above the other, under the outputs, sharing their left edge
            self.spread_axes.next_to(self.outputs, DOWN, buff=1.0).align_to((self.layout.left + 0.9, 0, 0), LEFT)
            self.gap_axes.next_to(self.spread_axes, DOWN, buff=1.4).align_to(self.spread_axes, LEFT)
        else:
            self.spread_axes.to_corner(DOWN + LEFT, buff=0.75).shift(RIGHT * 0.3)
            self.gap_axes.to_corner(DOWN + RIGHT, buff=0.75).align_to(self.spread_axes, DOWN)
        self.spread_labels = axis_labels(self.spread_axes, self.words("batch-size"), self.words("spread-axis"), lang,
                                         colors.text, font_size=SMALL_SIZE)
        self.gap_labels = axis_labels(self.gap_axes, self.words("batch-size"), self.words("gap-axis"), lang,
                                      colors.text, font_size=SMALL_SIZE)

    def plot_batch_mean_spread(self) -> None:
        """Small batches: the measured spread of the batch mean (dots) against σ/√B (the line), each
        named on the plot."""
        colors, spread, axes = self.palette, self.spread, self.spread_axes
        self.measured_dots = VGroup(*(dot_at(axes, (p, m), colors.batchnorm, radius=0.07)
                                      for p, m in zip(self.positions, spread.measured)))
        predicted = curve(axes, self.positions, spread.predicted, colors.muted, stroke_width=2.5)
        law = text_mobject("$sigma \\/ sqrt(B)$", self.spec.lang, colors.muted, SMALL_SIZE)
        law.next_to(axes.c2p(float(self.positions[-1]), float(spread.predicted[-1])), UP, buff=0.3)
        measured = self.text("measured", font_size=SMALL_SIZE, color=colors.batchnorm)
        measured.next_to(self.measured_dots[0], RIGHT + UP, buff=0.12)
        self.say("small", Create(axes), FadeIn(self.spread_labels), Create(predicted),
                 FadeIn(self.measured_dots, lag_ratio=0.1), FadeIn(law), FadeIn(measured), run_time=2.0, hold=1.0,
                 when=claim(spread, "follows_law"), small=self.fmt.number(spread.measured[0], 2), b_small=int(spread.batch_sizes[0]),
                 large=self.fmt.number(spread.measured[-1], 2), b_large=int(spread.batch_sizes[-1]))

    def plot_train_eval_gap(self) -> None:
        """Inference: the gap between the training-mode and eval-mode outputs."""
        colors, axes = self.palette, self.gap_axes
        self.gap_dots = VGroup(*(dot_at(axes, (p, g), colors.emphasis, radius=0.07)
                                 for p, g in zip(self.positions, self.gap.gaps)))
        gap_line = _rounded_curve(axes, self.positions, self.gap.gaps, colors.emphasis, 2.5)
        gap, fmt = self.gap, self.fmt
        self.say("inference", Create(axes), FadeIn(self.gap_labels), Create(gap_line),
                 FadeIn(self.gap_dots, lag_ratio=0.1), run_time=2.0, hold=1.0,
                 when=claim(gap, "largest_at_smallest_batch"), gap_small=fmt.plain_scientific(gap.gaps[0], 2),
                 b_small=int(gap.batch_sizes[0]), gap_large=fmt.plain_scientific(gap.gaps[-1], 2), b_large=int(gap.batch_sizes[-1]))

    def point_to_layernorm(self) -> None:
        ln_mark = SurroundingRectangle(self.ln_outputs, color=self.palette.layernorm, buff=0.1, corner_radius=0.06)
        self.say("layernorm", Create(ln_mark), run_time=0.8, hold=1.0)



def _tick_at(axis, values) -> None:
    """Put ``axis``'s tick marks at ``values`` (its labels' positions) instead of at its range's
    start plus whole steps."""
    axis.remove(axis.ticks)
    axis.add(VGroup(*(axis.get_tick(value) for value in values)))


def _rounded_curve(axes, xs, ys, color: str, stroke_width: float) -> VMobject:
    """The kit's ``curve`` with rounded joins (no spikes at sharp turns of a thick polyline): a
    polyline through (xs, ys) in axes coordinates."""
    line = VMobject(color=color, stroke_width=stroke_width, joint_type=LineJointType.ROUND)
    return line.set_points_as_corners(np.array([axes.c2p(float(x), float(y)) for x, y in zip(xs, ys)]))
