"""Scene 12, ``batch-dependence`` (B9): one example in two batches; small-batch noise; train vs eval."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, config, FadeIn, SurroundingRectangle, VGroup

from normgeo import batch_mean_spread, same_example_in_two_batches, train_eval_gap
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.claims import claim
from scenes.kit.grids import cell_rectangles, number_cells
from scenes.kit.plots import axis_labels, curve, make_axes
from scenes.kit.spec import SceneSpec, SpecError, as_setting_text, setting
from scenes.kit.widgets import dot_at

__all__ = ["BatchDependenceSpec", "BatchDependence"]

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
        """B9: both batches as grids (the shared example boxed), and what each layer makes of it."""
        colors, pair, fmt = self.palette, self.pair, self.fmt
        grids = VGroup(self.batch_grid(pair.batch_a, "batch-a"), self.batch_grid(pair.batch_b, "batch-b"))
        grids.arrange(RIGHT, buff=0.6)
        fit_width(grids, self.layout.content_width).next_to(self.title, DOWN, buff=0.35).to_edge(LEFT, buff=0.5)
        same = self.text("same-example", font_size=SMALL_SIZE - 2, color=colors.emphasis)
        bn = self.text("bn-outputs", font_size=SMALL_SIZE, color=colors.batchnorm,
                       a=fmt.vector(pair.batchnorm_a, 2), b=fmt.vector(pair.batchnorm_b, 2))
        mode = self.text("bn-mode", font_size=SMALL_SIZE - 6, color=colors.muted, eps=self.fmt.scientific(EPS))
        self.ln_outputs = self.text("ln-outputs", font_size=SMALL_SIZE, color=colors.layernorm,
                                    a=fmt.vector(pair.layernorm_a, 2), b=fmt.vector(pair.layernorm_b, 2))
        self.grids, self.bn_outputs = grids, bn
        outputs = VGroup(same, bn, mode, self.ln_outputs).arrange(DOWN, aligned_edge=LEFT, buff=0.22)
        if self.layout.stacked:  # under the grids, the plots under it
            fit_width(outputs, self.layout.content_width).next_to(grids, DOWN, buff=0.4).align_to(grids, LEFT)
        else:
            fit_width(outputs, config.frame_x_radius - 0.45 - grids.get_right()[0] - 0.45)
            outputs.next_to(grids, RIGHT, buff=0.45).align_to(grids, UP)
        self.outputs = outputs
        self.say("two-batches", FadeIn(grids), FadeIn(outputs, lag_ratio=0.3), run_time=1.5, hold=1.5,
                 when=claim(pair, "batchnorm_outcome"))

    def batch_grid(self, batch, key: str) -> VGroup:
        """One batch as a grid of numbers, its first row (the shared example) boxed, its name above."""
        colors = self.palette
        cells = cell_rectangles(batch.shape, 0.78, 0.36, colors.muted)
        texts = [self.fmt.fixed(v) for v in batch.ravel()]
        numbers = number_cells(batch, texts, cells, self.spec.lang, colors.text, SMALL_SIZE - 4)
        mark = SurroundingRectangle(VGroup(*cells[: batch.shape[1]]), color=colors.emphasis, buff=0.03, stroke_width=3)
        label = self.text(key, font_size=SMALL_SIZE, color=colors.muted).next_to(cells, UP, buff=0.12)
        return VGroup(cells, numbers, mark, label)

    def lay_out_plots(self) -> None:
        """Two log-log plots over the batch sizes: the spread of the batch mean (left), the gap (right)."""
        colors, lang, spread, gap = self.palette, self.spec.lang, self.spread, self.gap
        self.positions = np.log2(spread.batch_sizes)
        labels = {float(p): str(int(b)) for p, b in zip(self.positions, spread.batch_sizes)}
        x_range = (float(self.positions[0]) - 0.3, float(self.positions[-1]) + 0.3, 1)
        self.spread_axes = make_axes(x_range, (-1.5, 0.3, 0.5), 5.6, 2.3, colors, log_y=True, x_tick_labels=labels, lang=self.spec.lang)
        self.gap_axes = make_axes(x_range, (-1.5, 0.3, 0.5), 5.6, 2.3, colors, log_y=True, x_tick_labels=labels, lang=self.spec.lang)
        if self.layout.stacked:  # one above the other, under the outputs
            self.spread_axes.next_to(self.outputs, DOWN, buff=0.9).set_x(0)
            self.gap_axes.next_to(self.spread_axes, DOWN, buff=1.3).set_x(0)
        else:
            self.spread_axes.to_corner(DOWN + LEFT, buff=0.7).shift(RIGHT * 0.3)
            self.gap_axes.to_corner(DOWN + RIGHT, buff=0.7)
        self.spread_labels = axis_labels(self.spread_axes, self.words("batch-size"), self.words("spread-axis"), lang,
                                         colors.text)
        self.gap_labels = axis_labels(self.gap_axes, self.words("batch-size"), self.words("gap-axis"), lang,
                                      colors.text)

    def plot_batch_mean_spread(self) -> None:
        """Small batches: the measured spread of the batch mean against σ/√B."""
        colors, spread, axes = self.palette, self.spread, self.spread_axes
        self.measured_dots = VGroup(*(dot_at(axes, (p, m), colors.batchnorm, radius=0.06)
                                      for p, m in zip(self.positions, spread.measured)))
        predicted = curve(axes, self.positions, spread.predicted, colors.muted, stroke_width=2.5)
        legend = self.text("predicted", font_size=SMALL_SIZE - 6, color=colors.muted)
        legend.next_to(axes, UP, buff=0.1).align_to(axes, RIGHT)
        self.say("small", Create(axes), FadeIn(self.spread_labels), Create(predicted),
                 FadeIn(self.measured_dots, lag_ratio=0.1), FadeIn(legend), run_time=2.0, hold=1.0,
                 when=claim(spread, "follows_law"), small=self.fmt.number(spread.measured[0], 2), b_small=int(spread.batch_sizes[0]),
                 large=self.fmt.number(spread.measured[-1], 2), b_large=int(spread.batch_sizes[-1]))

    def plot_train_eval_gap(self) -> None:
        """Inference: the gap between the training-mode and eval-mode outputs."""
        colors, axes = self.palette, self.gap_axes
        self.gap_dots = VGroup(*(dot_at(axes, (p, g), colors.emphasis, radius=0.06)
                                 for p, g in zip(self.positions, self.gap.gaps)))
        gap_line = curve(axes, self.positions, self.gap.gaps, colors.emphasis, stroke_width=2.5)
        gap, fmt = self.gap, self.fmt
        self.say("inference", Create(axes), FadeIn(self.gap_labels), Create(gap_line),
                 FadeIn(self.gap_dots, lag_ratio=0.1), run_time=2.0, hold=1.0,
                 when=claim(gap, "largest_at_smallest_batch"), gap_small=fmt.plain_scientific(gap.gaps[0], 2),
                 b_small=int(gap.batch_sizes[0]), gap_large=fmt.plain_scientific(gap.gaps[-1], 2), b_large=int(gap.batch_sizes[-1]))

    def point_to_layernorm(self) -> None:
        ln_mark = SurroundingRectangle(self.ln_outputs, color=self.palette.layernorm, buff=0.08, corner_radius=0.06)
        self.say("layernorm", Create(ln_mark), run_time=0.8, hold=1.0)

