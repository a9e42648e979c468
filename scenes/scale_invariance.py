"""Scene 10, ``scale-invariance`` (B6): LN((cW)x) = LN(Wx); weight decay raises the effective step."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, RIGHT, Create, FadeIn, Transform

from normgeo import scaled_outputs, weight_decay_run
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.plots import axis_labels, bar_chart, curve, make_axes, nice_step
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
        spec, colors = self.spec, self.palette
        outputs = scaled_outputs(spec.factors, seed=spec.seed)
        run = weight_decay_run(spec.steps, spec.learning_rate, spec.weight_decay, seed=spec.seed)
        self.outputs, self.run = outputs, run
        title = self.make_title()

        pre_unit = 1.3 / float(np.abs(outputs.pre_activations).max())
        post_unit = 1.1 / float(np.abs(outputs.outputs).max())
        pre_charts = [bar_chart(p, pre_unit, colors.raw, colors.muted).move_to((-3.6, 1.0, 0), aligned_edge=DOWN * 0)
                      for p in outputs.pre_activations]
        post_charts = [bar_chart(p, post_unit, colors.layernorm, colors.muted) for p in outputs.outputs]
        for chart in pre_charts:
            chart.shift((-3.6, 1.15, 0) - chart[0].get_center())
        for chart in post_charts:
            chart.shift((-3.6, -2.05, 0) - chart[0].get_center())
        pre_label = self.text("pre", font_size=SMALL_SIZE).move_to((-3.6, 2.75, 0))
        post_label = self.text("post", font_size=SMALL_SIZE).move_to((-3.6, -0.45, 0))
        factor = self.text("factor", font_size=SMALL_SIZE + 8, color=colors.highlight,
                           c=self.fmt.number(outputs.factors[0]))
        factor.move_to((-0.55, 1.15, 0))
        pre_chart, post_chart = pre_charts[0].copy(), post_charts[0].copy()
        self.pre_chart, self.post_chart = pre_chart, post_chart
        self.say("intro", FadeIn(title), FadeIn(pre_label), FadeIn(post_label), FadeIn(pre_chart),
                 FadeIn(post_chart), FadeIn(factor), run_time=1.2, hold=0.8)
        spoken = ", ".join(self.fmt.number(c) for c in outputs.factors[1:]) or self.fmt.number(outputs.factors[0])
        hold = self.caption("scale", run_time=1.0 * max(1, len(outputs.factors) - 1), hold=0.5,
                            factors=spoken)
        for c, pre, post in zip(outputs.factors[1:], pre_charts[1:], post_charts[1:]):
            new_factor = self.text("factor", font_size=SMALL_SIZE + 8, color=colors.highlight,
                                   c=self.fmt.number(c)).move_to(factor)
            self.play(Transform(pre_chart, pre), Transform(post_chart, post), Transform(factor, new_factor), run_time=1.0)
        self.wait(hold)
        self.say("direction", run_time=0.0, hold=1.0)

        # The weight-decay run: ‖W‖ falls, η/‖W‖² rises.
        iterations = np.arange(run.weight_norms.size)
        top_norm = float(run.weight_norms.max())
        x_range = (0, iterations[-1], nice_step(iterations[-1]))
        norm_axes = make_axes(x_range, (0, 1.1 * top_norm, nice_step(top_norm)), 5.2, 1.9, colors).move_to((3.7, 1.2, 0))
        top_step = float(run.effective_steps.max())
        step_axes = make_axes(x_range, (0, 1.1 * top_step, nice_step(top_step)), 5.2, 1.9, colors).move_to((3.7, -2.0, 0))
        norm_labels = axis_labels(norm_axes, self.words("iteration"),
                                  self.words("norm-axis"), self.spec.lang, colors.text)
        step_labels = axis_labels(step_axes, self.words("iteration"),
                                  self.words("step-axis"), self.spec.lang, colors.text)
        norm_curve = curve(norm_axes, iterations, run.weight_norms, colors.mean_part)
        step_curve = curve(step_axes, iterations, run.effective_steps, colors.highlight)
        self.norm_axes, self.step_axes = norm_axes, step_axes
        self.norm_curve, self.step_curve = norm_curve, step_curve
        settings = self.text("run", font_size=SMALL_SIZE - 2, color=colors.muted,
                             lr=self.fmt.number(run.learning_rate), wd=self.fmt.number(run.weight_decay))
        fit_width(settings, 5.5).next_to(title, RIGHT, buff=0.6).align_to(title, DOWN)
        self.say("decay", Create(norm_axes), FadeIn(norm_labels), Create(norm_curve), FadeIn(settings),
                 run_time=2.0, hold=1.0, start=self.fmt.number(run.weight_norms[0], 2), end=self.fmt.number(run.weight_norms[-1], 2),
                 steps=iterations[-1])
        self.say("effective", Create(step_axes), FadeIn(step_labels), Create(step_curve),
                 run_time=2.0, hold=1.5, first=self.fmt.number(run.effective_steps[0], 4), last=self.fmt.number(run.effective_steps[-1], 4))


