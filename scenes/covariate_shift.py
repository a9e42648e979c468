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
from manim import DOWN, LEFT, RIGHT, Create, FadeIn, Line, VGroup

from normgeo import VARIANTS, InvalidParameterError, covariate_shift_study
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.claims import claim
from scenes.kit.plots import axis_labels, curve, make_axes, nice_step
from scenes.kit.spec import SceneSpec, SpecError, check_range, setting
from scenes.kit.text import math_number
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
        self.lay_out_numbers()
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
        self.hues = {"none": colors.input, "batchnorm": colors.batchnorm, "noisy-batchnorm": colors.emphasis}

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
        """The running mean of the training loss of each variant."""
        spec, colors = self.spec, self.palette
        top = float(max(s.max() for s in self.smoothed.values()))
        axes = make_axes((0, spec.steps, nice_step(spec.steps)), (0, 1.1 * top, nice_step(top)),
                         self.layout.pick(6.6, self.layout.content_width - 0.8), self.layout.pick(3.9, 5.2), colors, lang=self.spec.lang)
        if self.layout.stacked:  # under the note, the numbers under the plot
            axes.next_to(self.note, DOWN, buff=0.9).align_to(self.note, LEFT).shift(RIGHT * 0.3)
        else:
            axes.to_corner(DOWN + LEFT, buff=0.6).shift(RIGHT * 0.3)
        labels = axis_labels(axes, self.words("x-axis"), self.words("y-axis", window=spec.window), spec.lang,
                             colors.text)
        steps = np.arange(1, spec.steps + 1)
        curves = VGroup(*(curve(axes, steps, self.smoothed[v], self.hues[v], stroke_width=3.5) for v in VARIANTS))
        self.axes, self.curves, self.plot = axes, curves, VGroup(axes, labels)
        self.say("curves", Create(axes), FadeIn(labels), *(Create(c) for c in curves),
                 run_time=2.5, hold=0.5, lr=self.fmt.number(spec.learning_rate))

    def lay_out_numbers(self) -> None:
        """The numbers: shift per step, mean loss, landscape variation, per variant (right of the plot)."""
        table = self.numbers_table(self.study, self.mean_loss, self.hues)
        fit_width(table, min(5.6, self.layout.content_width))
        if self.layout.stacked:
            table.next_to(self.plot, DOWN, buff=0.5).align_to(self.note, LEFT)
        else:
            table.to_edge(RIGHT, buff=0.45).align_to(self.axes, (0, 1, 0)).shift(DOWN * 0.2)
        self.table = table

    def compare_the_shift(self) -> None:
        study = self.study
        ratio = study.mean_shift("noisy-batchnorm") / study.mean_shift("batchnorm")
        self.say("shift", FadeIn(self.table[0]), FadeIn(self.table[1]), run_time=1.2, hold=1.0,
                 ratio=self.fmt.number(ratio, 1))

    def compare_the_loss(self) -> None:
        mean_loss, fixed = self.mean_loss, self.fmt.fixed
        self.say("fast", FadeIn(self.table[2]), run_time=1.0, hold=1.0, when=claim(self.study, "noisy_closer_to_batchnorm"),
                 noisy=fixed(mean_loss["noisy-batchnorm"], 3), plain=fixed(mean_loss["batchnorm"], 3),
                 none=fixed(mean_loss["none"], 3))

    def separate_the_explanations(self) -> None:
        """Whether this toy can tell "less shift" from BatchNorm's other effects (the table's first column)."""
        study, fixed = self.study, self.fmt.fixed
        self.say("separate", run_time=0.0, hold=1.0, when=claim(study, "shift_separation"),
                 noisy_shift=fixed(study.mean_shift("noisy-batchnorm"), 3), none_shift=fixed(study.mean_shift("none"), 3))

    def compare_the_landscape(self) -> None:
        study, fixed = self.study, self.fmt.fixed
        self.say("landscape", FadeIn(self.table[3]), run_time=1.0, hold=1.0, when=claim(study, "batchnorm_smooths"),
                 none=fixed(study.mean_landscape_variation("none")),
                 plain=fixed(study.mean_landscape_variation("batchnorm")))

    def conclude(self) -> None:
        conclusion = self.text("conclusion", font_size=SMALL_SIZE + 2, color=self.palette.emphasis)
        fit_width(conclusion, 5.6).next_to(self.table, DOWN, buff=0.6).align_to(self.table, LEFT)
        self.say("conclusion", FadeIn(conclusion), run_time=1.0, hold=2.0)

    def numbers_table(self, study, mean_loss, hues) -> VGroup:
        """Columns: variant | shift per step | mean loss | variation along ∇ (each a VGroup column)."""
        colors, lang = self.palette, self.spec.lang
        size = SMALL_SIZE
        names = [text_mobject(self.words(f"variant.{v}"), lang, hues[v], size) for v in VARIANTS]

        def cell(value: float, digits: int) -> str:
            return f"${math_number(self.fmt.fixed(value, digits))}$"

        columns = [
            [self.words("shift-header")] + [cell(study.mean_shift(v), 3) for v in VARIANTS],
            [self.words("loss-header")] + [cell(mean_loss[v], 3) for v in VARIANTS],
            [self.words("landscape-header")] + [cell(study.mean_landscape_variation(v), 2) for v in VARIANTS],
        ]
        header_blank = text_mobject(" ", lang, colors.text, size)
        cells = [header_blank] + [text_mobject(c[0], lang, colors.muted, size - 4) for c in columns]
        for row, name in enumerate(names, start=1):
            cells += [name] + [text_mobject(c[row], lang, colors.text, size) for c in columns]
        table = VGroup(*cells).arrange_in_grid(rows=len(names) + 1, cols=4, buff=(0.35, 0.25), col_alignments="lrrr")
        names_column = VGroup(*(table[i * 4] for i in range(len(names) + 1)))
        by_column = [VGroup(*(table[i * 4 + k] for i in range(len(names) + 1))) for k in (1, 2, 3)]
        header_bottom = VGroup(*table[:4]).get_bottom()[1] - 0.1
        rule = Line((table.get_left()[0], header_bottom, 0), (table.get_right()[0], header_bottom, 0), color=colors.muted,
                    stroke_width=1.5)
        return VGroup(VGroup(names_column, rule), by_column[0], by_column[1], by_column[2])
