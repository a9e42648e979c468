"""Scene 10, ``scale-invariance`` (B6): LN((cW)x) = LN(Wx); weight decay sets the effective step (it rises
when the norm falls, which the core's ``norm_trend`` decides for the run shown)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, Transform

from normgeo import scaled_outputs, weight_decay_run
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.claims import claim
from scenes.kit.plots import axis_labels, bar_chart, curve, make_axes, nice_step
from scenes.kit.numbers import vector_separator
from scenes.kit.spec import SceneSpec, setting

__all__ = ["ScaleInvarianceSpec", "ScaleInvariance"]


@dataclass(frozen=True)
class ScaleInvarianceSpec(SceneSpec):
    """The factors c shown, and the SGD run with weight decay."""

    factors: tuple[float, ...] = setting((1.0, 2.0, 0.5), low=0.1, high=4, items=(1, 5))
    steps: int = setting(150, low=10, high=2000)
    learning_rate: float = setting(0.2, low=1e-4, high=1)
    weight_decay: float = setting(0.02, low=1e-4, high=0.5)
    seed: int = setting(0, low=0, high=2**32 - 1)


class ScaleInvariance(NormGeoScene):
    """Bars before and after LN for several c; then ‖W‖ and η/‖W‖² along a weight-decay run."""

    spec_class = ScaleInvarianceSpec

    def construct(self) -> None:
        self.run_core()
        self.show_charts()
        self.scale_the_weights()
        self.conclude_direction()
        self.lay_out_run_plots()
        self.shrink_the_norm()
        self.grow_the_effective_step()

    def left_part(self, x: float, y: float) -> np.ndarray:
        """A point of the bar charts (the left half at 16:9, the top half in a square or tall frame)."""
        return np.array(self.layout.moved((x, y, 0.0), (-2.9, -0.05, 0.0), self.layout.band_center(0, 2, 0.5)))

    def right_part(self, x: float, y: float) -> np.ndarray:
        """A point of the run's plots (the right half at 16:9, the bottom half in a square or tall frame)."""
        return np.array(self.layout.moved((x, y, 0.0), (3.7, -0.45, 0.0), self.layout.band_center(1, 2, 0.5)))

    def run_core(self) -> None:
        """Everything the scene shows, from the core: LN outputs for each c, and the weight-decay run."""
        spec = self.spec
        self.outputs = scaled_outputs(spec.factors, seed=spec.seed)
        self.run = weight_decay_run(spec.steps, spec.learning_rate, spec.weight_decay, seed=spec.seed)

    def show_charts(self) -> None:
        """Bars of cWx (top) and LN(cWx) (bottom) for the first c; the charts for the others wait."""
        colors, outputs = self.palette, self.outputs
        self.title = self.make_title()
        at = self.left_part
        # one unit per chart for every c (scene units per 1.0), so that the top bars visibly scale with c
        self.pre_unit = pre_unit = 1.3 / float(np.abs(outputs.pre_activations).max())
        self.post_unit = post_unit = 1.1 / float(np.abs(outputs.outputs).max())
        self.pre_charts = [bar_chart(p, pre_unit, colors.input, colors.muted).move_to(at(-3.6, 1.0),
                                                                                   aligned_edge=DOWN * 0)
                           for p in outputs.pre_activations]
        self.post_charts = [bar_chart(p, post_unit, colors.layernorm, colors.muted) for p in outputs.outputs]
        for chart in self.pre_charts:
            chart.shift(at(-3.6, 1.15) - chart[0].get_center())
        for chart in self.post_charts:
            chart.shift(at(-3.6, -2.05) - chart[0].get_center())
        pre_label = self.text("pre", font_size=SMALL_SIZE).move_to(at(-3.6, 2.75))
        post_label = self.text("post", font_size=SMALL_SIZE).move_to(at(-3.6, -0.45))
        self.factor = self.factor_label(outputs.factors[0]).move_to(at(-0.55, 1.15))
        self.pre_chart, self.post_chart = self.pre_charts[0].copy(), self.post_charts[0].copy()
        self.say("intro", FadeIn(self.title), FadeIn(pre_label), FadeIn(post_label), FadeIn(self.pre_chart),
                 FadeIn(self.post_chart), FadeIn(self.factor), run_time=1.2, hold=0.8)

    def scale_the_weights(self) -> None:
        """Each further c in turn: the top bars scale, the bottom ones do not move."""
        factors = self.outputs.factors
        # "2, 0.5" in English, "2; 0,5" in Russian (the comma is the decimal sign there)
        spoken = (vector_separator(self.spec.lang).join(self.fmt.number(c) for c in factors[1:])
                  or self.fmt.number(factors[0]))
        hold = self.caption("scale", run_time=1.0 * max(1, len(factors) - 1), hold=0.5, factors=spoken)
        for c, pre, post in zip(factors[1:], self.pre_charts[1:], self.post_charts[1:]):
            new_factor = self.factor_label(c).move_to(self.factor)
            self.play(Transform(self.pre_chart, pre), Transform(self.post_chart, post),
                      Transform(self.factor, new_factor), run_time=1.0)
        self.wait(hold)

    def conclude_direction(self) -> None:
        self.say("direction", run_time=0.0, hold=1.0)

    def lay_out_run_plots(self) -> None:
        """B6: ‖W‖ (top) and η/‖W‖² (bottom) along the weight-decay run, on one iteration axis."""
        colors, run, lang = self.palette, self.run, self.spec.lang
        self.iterations = np.arange(run.weight_norms.size)
        last = self.iterations[-1]
        x_range = (0, last, nice_step(last))
        top_norm = float(run.weight_norms.max())
        self.norm_axes = make_axes(x_range, (0, 1.1 * top_norm, nice_step(top_norm)), 5.2, 1.9, colors, lang=self.spec.lang)
        self.norm_axes.move_to(self.right_part(3.7, 1.2))
        top_step = float(run.effective_steps.max())
        self.step_axes = make_axes(x_range, (0, 1.1 * top_step, nice_step(top_step)), 5.2, 1.9, colors, lang=self.spec.lang)
        self.step_axes.move_to(self.right_part(3.7, -1.8))
        iteration = self.words("iteration")
        self.norm_labels = axis_labels(self.norm_axes, iteration, self.words("norm-axis"), lang, colors.text,
                                       font_size=SMALL_SIZE)
        self.step_labels = axis_labels(self.step_axes, iteration, self.words("step-axis"), lang, colors.text,
                                       font_size=SMALL_SIZE)
        # ‖W‖ and η/‖W‖² are neither a layer nor the direction 1: neutral text and emphasis colours
        self.norm_curve = curve(self.norm_axes, self.iterations, run.weight_norms, colors.text)
        self.step_curve = curve(self.step_axes, self.iterations, run.effective_steps, colors.emphasis)

    def shrink_the_norm(self) -> None:
        run, fmt = self.run, self.fmt
        settings = self.text("run", font_size=SMALL_SIZE, color=self.palette.muted,
                             lr=fmt.scientific(run.learning_rate), wd=fmt.scientific(run.weight_decay))
        if self.layout.stacked:
            fit_width(settings, self.layout.content_width).next_to(self.title, DOWN, buff=0.2).align_to(self.title, LEFT)
        else:
            settings.next_to(self.norm_labels[1], UP, buff=0.2).align_to(self.norm_axes, LEFT)
        self.say("decay", Create(self.norm_axes), FadeIn(self.norm_labels), Create(self.norm_curve), FadeIn(settings),
                 run_time=2.0, hold=1.0, when=claim(run, "norm_trend"),
                 wd=fmt.plain_scientific(run.weight_decay), lr=fmt.plain_scientific(run.learning_rate),
                 start=fmt.number(run.weight_norms[0], 2),
                 end=fmt.number(run.weight_norms[-1], 2), steps=self.iterations[-1])

    def grow_the_effective_step(self) -> None:
        run = self.run
        self.say("effective", Create(self.step_axes), FadeIn(self.step_labels), Create(self.step_curve),
                 run_time=2.0, hold=1.5, when=claim(run, "norm_trend"),
                 first=self.fmt.plain_scientific(run.effective_steps[0], 2),
                 last=self.fmt.plain_scientific(run.effective_steps[-1], 2))

    def factor_label(self, c: float):
        return self.text("factor", font_size=SMALL_SIZE + 8, color=self.palette.emphasis, c=self.fmt.number(c))
