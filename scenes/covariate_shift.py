"""Scene 11, ``covariate-shift`` (B5, B7): Santurkar et al.'s noisy-BatchNorm test as a toy run.

Which sentences are true is the core's: whether the noisy network trains closer to BatchNorm than to
no normalization, whether its shift even exceeds the unnormalized one's (only then could the toy
separate the explanations) and whether BatchNorm smooths the loss along the gradient. A setting
where any run diverges is refused by the spec.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from manim import DOWN, LEFT, RIGHT, UL, UP, Create, DashedLine, DashedVMobject, FadeIn, FadeOut, Line, LineJointType, VGroup, VMobject

from normgeo import VARIANTS, InvalidParameterError, covariate_shift_study
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.claims import claim
from scenes.kit.plots import axis_labels, make_axes, nice_step
from scenes.kit.spec import SceneSpec, SpecError, check_range, setting
from scenes.kit.widgets import text_mobject

__all__ = ["CovariateShiftSpec", "CovariateShift"]


@dataclass(frozen=True)
class CovariateShiftSpec(SceneSpec):
    """The training runs: steps, learning rate, seed, and the window of the plotted running mean."""

    steps: int = setting(200, low=20, high=2000)
    learning_rate: float = setting(1.0, low=0.01, high=2.0)
    seed: int = setting(0, low=0, high=2**32 - 1)
    window: int = setting(10, low=1, high=1000)

    def validate(self) -> None:
        check_range("window", self.window, 1, self.steps // 2)
        try:  # a run that diverges is bad input, said before anything renders
            study(self.steps, self.learning_rate, self.seed)
        except InvalidParameterError as error:
            raise SpecError(f"learning_rate: {error}; try a smaller learning_rate (0.3 trains most seeds) or another seed") from None


@lru_cache(maxsize=8)
def study(steps: int, learning_rate: float, seed: int):
    """The three training runs (computed once per setting: the spec checks them, the scene plots them)."""
    return covariate_shift_study(steps=steps, learning_rate=learning_rate, seed=seed)


class CovariateShift(NormGeoScene):
    """The claim, the noisy-BatchNorm test, three loss curves and what they measure."""

    spec_class = CovariateShiftSpec

    def construct(self) -> None:
        self.train_three_ways()
        self.state_the_claim()
        self.describe_the_test()
        self.plot_the_curves()
        self.compare_the_shift()
        self.compare_the_loss()
        self.separate_the_explanations()
        self.compare_the_landscape()
        self.conclude()

    def train_three_ways(self) -> None:
        """Everything the scene shows, from the core: three training runs and what they measure."""
        spec, colors = self.spec, self.palette
        self.study = study(spec.steps, spec.learning_rate, spec.seed)
        self.smoothed = {v: self.study.runs[v].smoothed_losses(spec.window) for v in VARIANTS}
        self.mean_loss = {v: self.study.mean_loss(v) for v in VARIANTS}
        # with/without are neutral: told apart by weight and dashes, never by a layer's hue (issue 33)
        self.styles = {"none": (colors.muted, 3.5, False), "batchnorm": (colors.emphasis, 6.0, False),
                       "noisy-batchnorm": (colors.emphasis, 3.0, True)}

    def state_the_claim(self) -> None:
        """The claim and the test, laid out together under the title; the claim appears first."""
        self.title = self.make_title()
        self.claim_text = self.text("claim", font_size=SMALL_SIZE + 2)
        self.test_text = self.text("test", font_size=SMALL_SIZE + 2, color=self.palette.muted)
        note = VGroup(self.claim_text, self.test_text).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        fit_width(note, min(13.2, self.layout.content_width)).next_to(self.title, DOWN, buff=0.3).align_to(self.title, LEFT)
        self.note = note
        self.say("claim", FadeIn(self.title), FadeIn(self.claim_text), run_time=1.2, hold=1.0)

    def describe_the_test(self) -> None:
        self.say("test", FadeIn(self.test_text), run_time=1.0, hold=1.0)

    def plot_the_curves(self) -> None:
        """The running mean of the training loss of each variant, named in a key inside the plot (the two
        BatchNorm curves run together, so labels on them would overlap)."""
        spec, colors = self.spec, self.palette
        top = float(max(s.max() for s in self.smoothed.values()))
        axes = make_axes((0, spec.steps, nice_step(spec.steps)), (0, 1.1 * top, nice_step(top)),
                         self.layout.pick(11.0, self.layout.content_width - 0.8), self.layout.pick(4.3, self.layout.height - 6.2), colors,
                         lang=self.spec.lang)
        axes.next_to(self.note, DOWN, buff=0.9).align_to(self.note, LEFT).shift(RIGHT * 0.5)
        labels = axis_labels(axes, self.words("x-axis"), self.words("y-axis", window=spec.window), spec.lang,
                             colors.text, font_size=SMALL_SIZE)
        steps = np.arange(1, spec.steps + 1)
        curves, self.lines = VGroup(), []  # the lines: the polylines through the losses, a dashed one cut from its line
        for variant in VARIANTS:
            color, width, dashed = self.styles[variant]
            line = _rounded_curve(axes, steps, self.smoothed[variant], color, width)
            self.lines.append(line)
            curves.add(DashedVMobject(line, num_dashes=60, dashed_ratio=0.55) if dashed else line)
        key = VGroup()
        for variant in VARIANTS:
            color, width, dashed = self.styles[variant]
            sample = Line(LEFT * 0.45, RIGHT * 0.45, color=color, stroke_width=width)
            if dashed:
                sample = DashedLine(LEFT * 0.45, RIGHT * 0.45, color=color, stroke_width=width, dash_length=0.1)
            name = text_mobject(self.words(f"variant.{variant}"), spec.lang, colors.text, SMALL_SIZE)
            key.add(VGroup(sample, name).arrange(RIGHT, buff=0.2))
        key.arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        key.move_to(axes.c2p(spec.steps, 1.1 * top), aligned_edge=UP + RIGHT)
        self.axes, self.curves, self.plot = axes, curves, VGroup(axes, labels)
        self.say("curves", Create(axes), FadeIn(labels), *(Create(c) for c in curves), FadeIn(key),
                 run_time=2.5, hold=0.5, lr=self.fmt.number(spec.learning_rate))

    def compare_the_shift(self) -> None:
        study = self.study
        ratio = study.mean_shift("noisy-batchnorm") / study.mean_shift("batchnorm")
        self.say("shift", run_time=0.0, hold=1.0, when=claim(study, "batchnorm_cuts_shift"),
                 ratio=self.fmt.number(ratio, 1), cut=self.fmt.number(study.shift_cut, 1),
                 plain=self.fmt.fixed(study.mean_shift("batchnorm"), 3), none=self.fmt.fixed(study.mean_shift("none"), 3))

    def compare_the_loss(self) -> None:
        mean_loss, fixed = self.mean_loss, self.fmt.fixed
        self.say("fast", run_time=0.0, hold=1.0, when=claim(self.study, "noisy_closer_to_batchnorm"),
                 noisy=fixed(mean_loss["noisy-batchnorm"], 3), plain=fixed(mean_loss["batchnorm"], 3),
                 none=fixed(mean_loss["none"], 3))

    def separate_the_explanations(self) -> None:
        """Whether this toy can tell "less shift" from BatchNorm's other effects."""
        study, fixed = self.study, self.fmt.fixed
        self.say("separate", run_time=0.0, hold=1.0, when=claim(study, "shift_separation"),
                 noisy_shift=fixed(study.mean_shift("noisy-batchnorm"), 3), none_shift=fixed(study.mean_shift("none"), 3))

    def compare_the_landscape(self) -> None:
        study, fixed = self.study, self.fmt.fixed
        self.say("landscape", run_time=0.0, hold=1.0, when=claim(study, "batchnorm_smooths"),
                 none=fixed(study.mean_landscape_variation("none")),
                 plain=fixed(study.mean_landscape_variation("batchnorm")))

    def conclude(self) -> None:
        """The claim and the test give way to the lesson, under the title."""
        conclusion = self.text("conclusion", font_size=SMALL_SIZE + 4, color=self.palette.emphasis)
        fit_width(conclusion, min(13.2, self.layout.content_width)).move_to(self.note, aligned_edge=UL)
        self.say("conclusion", FadeOut(self.note), FadeIn(conclusion), run_time=1.0, hold=2.0)


def _rounded_curve(axes, xs, ys, color: str, stroke_width: float) -> VMobject:
    """The kit's ``curve`` with rounded joins (no spikes at sharp turns of a thick polyline): a
    polyline through (xs, ys) in axes coordinates."""
    line = VMobject(color=color, stroke_width=stroke_width, joint_type=LineJointType.ROUND)
    return line.set_points_as_corners(np.array([axes.c2p(float(x), float(y)) for x, y in zip(xs, ys)]))
