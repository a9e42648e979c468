"""Scene 17, ``prenorm-postnorm`` (B10): where LN sits decides whether the residual path is clean.

Two toys on the same random linear stack: the gradient that reaches each block's input (a
geometric mean over random stacks), and which step sizes of a grid train the stack on a small
regression task, pre-norm against post-norm; the wording of the second follows its outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    DR,
    LEFT,
    RIGHT,
    UP,
    UR,
    Arrow,
    Circle,
    Create,
    DashedLine,
    DashedVMobject,
    Dot,
    FadeIn,
    FadeOut,
    Line,
    RoundedRectangle,
    VGroup,
    VMobject,
)
from manim.constants import LineJointType

from normgeo import prenorm_postnorm_study, step_size_sweep
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.plots import axis_labels, make_axes
from scenes.kit.spec import SceneSpec, SpecError, setting
from scenes.kit.widgets import text_mobject

__all__ = ["PrenormPostnormSpec", "PrenormPostnorm"]

FORMULAS = {"pre": "x + op(\"F\")(op(\"LN\")(x))", "post": "op(\"LN\")(x + op(\"F\")(x))"}
# The step-size sweep trains the stack 2 × 9 times for 100 steps: depth × width² is capped at the
# cost of 24 blocks of width 64 (a few seconds on one core).
SWEEP_BUDGET = 24 * 64**2


@dataclass(frozen=True)
class PrenormPostnormSpec(SceneSpec):
    """The stack: depth, width, sub-layer scale, how many random stacks are averaged, seed."""

    depth: int = setting(24, low=2, high=96)
    width: int = setting(16, low=4, high=256)
    sublayer_scale: float = setting(1.0, low=0.05, high=4)
    stacks: int = setting(8, low=1, high=64)
    seed: int = setting(0, low=0, high=2**32 - 1)

    def validate(self) -> None:
        if self.depth * self.width**2 > SWEEP_BUDGET:
            raise SpecError(f"depth, width: depth × width² must be at most {SWEEP_BUDGET} (the step-size sweep trains "
                            f"the stack 18 times), got {self.depth} × {self.width}² = {self.depth * self.width**2}")


class PrenormPostnorm(NormGeoScene):
    """Two block diagrams (residual path highlighted) and the gradient reaching each block."""

    spec_class = PrenormPostnormSpec

    def construct(self) -> None:
        self.backpropagate()
        self.introduce()
        self.draw_prenorm()
        self.draw_postnorm()
        self.plot_gradients()
        self.sweep_step_sizes()
        self.conclude()

    def backpropagate(self) -> None:
        """Everything the scene shows, from the core: the gradient reaching each block, both ways."""
        spec = self.spec
        self.study = prenorm_postnorm_study(spec.depth, spec.width, spec.sublayer_scale, spec.stacks, spec.seed)
        self.sweep = step_size_sweep(spec.depth, spec.width, spec.sublayer_scale, spec.seed)

    def introduce(self) -> None:
        self.say("intro", FadeIn(self.make_title()), run_time=1.0, hold=0.5)

    def draw_prenorm(self) -> None:
        pre = self.block_diagram("pre", self.palette.emphasis).move_to(self.diagram_place(0))
        self.diagrams = {"pre": pre}
        self.say("pre", FadeIn(pre), run_time=1.2, hold=1.5)

    def draw_postnorm(self) -> None:
        post = self.block_diagram("post", self.palette.emphasis).move_to(self.diagram_place(1))
        self.diagrams["post"] = post
        self.say("post", FadeIn(post), run_time=1.2, hold=1.5)

    def styled_curve(self, axes, xs, ys, arrangement: str) -> VMobject:
        """Pre-norm solid and heavy in the emphasis colour, post-norm dashed in the text colour: neutral
        weights and dashes, never a layer's hue; rounded joins."""
        colors = self.palette
        line = VMobject(color=colors.emphasis if arrangement == "pre" else colors.text,
                        stroke_width=4.5 if arrangement == "pre" else 3.5, joint_type=LineJointType.ROUND)
        line.set_points_as_corners(np.array([axes.c2p(float(x), float(y)) for x, y in zip(xs, ys)]))
        return line

    @staticmethod
    def drawn(line, arrangement: str, pieces: int):
        """The curve as drawn: post-norm's dashed."""
        return line if arrangement == "pre" else DashedVMobject(line, num_dashes=max(12, 3 * pieces))

    def curve_name(self, arrangement: str, line, direction):
        colors = self.palette
        name = self.text(arrangement, font_size=SMALL_SIZE,
                         color=colors.emphasis if arrangement == "pre" else colors.text)
        return name.next_to(line, direction, buff=0.12)

    def plot_gradients(self) -> None:
        """The gradient norm reaching each block, log scale, pre-norm against post-norm; ticks at blocks."""
        spec, colors, study, fmt = self.spec, self.palette, self.study, self.fmt
        blocks = np.arange(1, spec.depth + 1)
        low = float(np.floor(np.log10(min(study.pre.min(), study.post.min()))))
        high = float(np.ceil(np.log10(max(study.pre.max(), study.post.max()))))
        every = max(1, spec.depth // 6)
        ticks = {float(b): str(b) for b in blocks if b == 1 or b % every == 0}
        layout = self.layout
        axes = make_axes((1, spec.depth, 1), (low, max(high, low + 1), 1), min(10.0, layout.content_width - 3.4),
                         layout.pick(2.6, 3.0), colors, log_y=True, x_tick_labels=ticks, lang=self.spec.lang)
        if layout.stacked:  # in the bottom third, under the two diagrams
            axes.move_to(layout.band_center(2, 3)).shift(LEFT * 0.8 + UP * 0.6)
        else:
            axes.to_edge(DOWN, buff=0.85).shift(LEFT * 0.4)
        labels = axis_labels(axes, self.words("block-axis"), self.words("grad-axis"), spec.lang, colors.text,
                             font_size=SMALL_SIZE)
        self.axes = axes
        self.curves = {"pre": self.styled_curve(axes, blocks, study.pre, "pre"),
                       "post": self.styled_curve(axes, blocks, study.post, "post")}
        pre_curve = self.drawn(self.curves["pre"], "pre", spec.depth)
        post_curve = self.drawn(self.curves["post"], "post", spec.depth)
        above = study.pre[-1] >= study.post[-1]
        names = VGroup(self.curve_name("pre", self.curves["pre"].get_end(), UR if above else DR),
                       self.curve_name("post", self.curves["post"].get_end(), DR if above else UR))
        for name in names:
            name.shift(RIGHT * max(0.0, axes.get_right()[0] + 0.1 - name.get_left()[0]))
        parts = {}
        for arrangement, gradients in (("pre", study.pre), ("post", study.post)):
            # the wording follows this run: does the first block get at least what the last one gets?
            kept = "kept" if gradients[0] >= gradients[-1] else "lost"
            parts[f"{arrangement}_part"] = self.words(f"{arrangement}-part.{kept}", first=fmt.number(gradients[0], 2),
                                                      last=fmt.number(gradients[-1], 2))
        self.gradient_plot = VGroup(axes, labels, pre_curve, post_curve, names)
        self.say("gradients", Create(axes), FadeIn(labels), Create(pre_curve), Create(post_curve), FadeIn(names),
                 run_time=2.5, hold=1.5, depth=spec.depth, width=spec.width, stacks=spec.stacks, **parts)

    def sweep_step_sizes(self) -> None:
        """The second toy, alone on screen: final over initial loss against the step size (both log), a
        dashed line at the target; a filled mark where the run reaches it. The sentence follows which
        arrangement reaches it at more step sizes, whether any run diverged, and whether a run sits
        within 5 % of the line."""
        colors, sweep, fmt, layout = self.palette, self.sweep, self.fmt, self.layout
        # x is log₁₀ η measured from the smallest step size, so that the y axis stands at the left end
        exponents = np.log10(sweep.step_sizes) - np.log10(sweep.step_sizes[0])
        start = float(np.log10(sweep.step_sizes[0]))
        ratios = {a: sweep.ratios(a) for a in ("pre", "post")}
        finite = np.concatenate([r[np.isfinite(r)] for r in ratios.values()] + [[sweep.target]])
        low, high = int(np.floor(np.log10(finite.min()))), max(0, int(np.ceil(np.log10(finite.max()))))
        step = float(np.min(np.diff(exponents)))
        ticks = {float(e): f"10^({int(round(e + start))})" for e in exponents if abs(e + start - round(e + start)) < 1e-9}
        axes = make_axes((float(exponents[0]), float(exponents[-1]), step), (low, high, 1),
                         layout.pick(9.6, layout.content_width - 3.0), layout.pick(4.9, 5.4), colors, log_y=True,
                         x_tick_labels=ticks, lang=self.spec.lang)
        if layout.stacked:
            axes.move_to(layout.band_center(1, 3)).shift(LEFT * 0.9)
        else:
            axes.move_to((-0.7, -0.55, 0))
        labels = axis_labels(axes, self.words("sweep.axis"), self.words("sweep.ratio-axis"), self.spec.lang,
                             colors.text, font_size=SMALL_SIZE)
        top = 10.0 ** high
        self.sweep_marks, curves, names = {}, VGroup(), VGroup()
        for arrangement in ("pre", "post"):
            shown = np.minimum(ratios[arrangement], top)  # a diverged run is drawn at the top edge
            line = self.drawn(self.styled_curve(axes, exponents, shown, arrangement), arrangement, len(exponents))
            color = colors.emphasis if arrangement == "pre" else colors.text
            marks = VGroup(*(Dot(axes.c2p(float(x), float(y)), radius=0.11, color=color) if reached else
                             Circle(radius=0.11, color=color, stroke_width=3).set_fill(colors.background, 1)
                             .move_to(axes.c2p(float(x), float(y)))
                             for x, y, reached in zip(exponents, shown, sweep.trains(arrangement))))
            self.sweep_marks[arrangement] = marks
            curves.add(line, marks)
        last_pre, last_post = np.minimum(ratios["pre"][-1], top), np.minimum(ratios["post"][-1], top)
        names.add(self.curve_name("pre", self.sweep_marks["pre"][-1], RIGHT),
                  self.curve_name("post", self.sweep_marks["post"][-1], RIGHT))
        if abs(np.log10(last_pre / last_post)) < 0.15:  # the two ends nearly meet: one name above, one below
            names[0].shift(UP * 0.3 if last_pre >= last_post else DOWN * 0.3)
            names[1].shift(DOWN * 0.3 if last_pre >= last_post else UP * 0.3)
        target = DashedLine(axes.c2p(float(exponents[0]), sweep.target), axes.c2p(float(exponents[-1]), sweep.target),
                            color=colors.muted, stroke_width=2.5, dash_length=0.12)
        target_name = self.text("sweep.target", font_size=SMALL_SIZE, color=colors.muted, steps=sweep.steps,
                                target=fmt.number(100 * sweep.target))
        target_name.next_to(target, RIGHT, buff=0.15)
        if target_name.get_right()[0] > layout.right:
            fit_width(target_name, layout.right - target_name.get_left()[0])
        self.sweep_panel = VGroup(axes, labels, target, target_name, curves, names)
        outcome = sweep.wider or "tie"
        result = self.words(f"result.{outcome}", pre=sweep.count("pre"), post=sweep.count("post"))
        diverged = sweep.diverged("pre") + sweep.diverged("post")
        result += " " + self.words(f"diverged.{'some' if diverged else 'none'}", count=diverged)
        near = sweep.near_target()
        if near:
            arrangement, index = near[0]
            result += " " + self.words(f"near.{arrangement}", ratio=fmt.number(float(ratios[arrangement][index]), 4),
                                       eta=fmt.plain_scientific(float(sweep.step_sizes[index])))
        ratio_values = {a: ", ".join(self.ratio_text(float(r)) for r in ratios[a]) for a in ("pre", "post")}
        self.say("steps", FadeOut(self.diagrams["pre"]), FadeOut(self.diagrams["post"]), FadeOut(self.gradient_plot),
                 FadeIn(self.sweep_panel), run_time=1.5, hold=2.0, steps=sweep.steps, total=sweep.step_sizes.size,
                 smallest=fmt.plain_scientific(sweep.step_sizes[0]), largest=fmt.plain_scientific(sweep.step_sizes[-1]),
                 target=fmt.number(100 * sweep.target), result=result, pre_ratios=ratio_values["pre"],
                 post_ratios=ratio_values["post"])

    def ratio_text(self, ratio: float) -> str:
        """A loss ratio to 2 significant figures, more where that would round it onto the target."""
        if not np.isfinite(ratio):
            return "∞"
        digits = max(1, 1 - int(np.floor(np.log10(ratio))))
        while round(ratio, digits) == self.sweep.target and digits < 8:
            digits += 1
        return self.fmt.number(ratio, digits)

    def conclude(self) -> None:
        """What the toys show and what real transformers show (narration only)."""
        self.say("conclusion", run_time=0.0, hold=1.5)

    def diagram_place(self, index: int):
        """Where block diagram ``index`` goes: side by side at 16:9, one above the other (the top two
        thirds) in a square or tall frame."""
        return self.layout.pick(((-3.55, 1.55, 0), (3.55, 1.55, 0))[index], self.layout.band_center(index, 3))

    def block_diagram(self, arrangement: str, color: str) -> VGroup:
        """x → … → (+) → out, with the residual path drawn thick; LN on it for post-norm."""
        colors, lang = self.palette, self.spec.lang

        def box(label: str, fill: str):
            frame = RoundedRectangle(width=0.9, height=0.55, corner_radius=0.1, stroke_color=fill, fill_color=fill,
                                     fill_opacity=0.2, stroke_width=2.5)
            return VGroup(frame, text_mobject(label, lang, colors.text, SMALL_SIZE))

        start, plus_at, end = np.array([-2.6, -0.35, 0]), np.array([1.4, -0.35, 0]), np.array([2.7, -0.35, 0])
        plus = VGroup(Circle(radius=0.2, color=colors.text, stroke_width=2.5),
                      text_mobject("$+$", lang, colors.text, SMALL_SIZE)).move_to(plus_at)
        x_label = text_mobject("$x$", lang, colors.text, SMALL_SIZE + 4).next_to(start, LEFT, buff=0.1)
        if arrangement == "pre":
            branch = [box("LN", colors.layernorm).move_to((-0.9, 0.45, 0)), box("F", colors.muted).move_to((0.3, 0.45, 0))]
            residual = Line(start, plus_at + LEFT * 0.2, color=color, stroke_width=7)
            tail = Arrow(plus_at + RIGHT * 0.2, end, buff=0, color=color, stroke_width=7, tip_length=0.2)
            extra = VGroup()
        else:
            branch = [box("F", colors.muted).move_to((-0.3, 0.45, 0))]
            residual = Line(start, plus_at + LEFT * 0.2, color=color, stroke_width=7)
            ln = box("LN", colors.layernorm).move_to((2.05, -0.35, 0))
            tail = VGroup(Line(plus_at + RIGHT * 0.2, ln.get_left(), color=color, stroke_width=7),
                          Arrow(ln.get_right(), end + RIGHT * 0.5, buff=0, color=color, stroke_width=7, tip_length=0.2))
            extra = ln
        up_from = start + RIGHT * 0.5
        wires = VGroup(Line(up_from, (up_from[0], 0.45, 0), color=colors.muted, stroke_width=2.5),
                       Line((up_from[0], 0.45, 0), branch[0].get_left(), color=colors.muted, stroke_width=2.5))
        for left, right in zip(branch, branch[1:]):
            wires.add(Line(left.get_right(), right.get_left(), color=colors.muted, stroke_width=2.5))
        wires.add(Line(branch[-1].get_right(), (plus_at[0], 0.45, 0), color=colors.muted, stroke_width=2.5),
                  Arrow((plus_at[0], 0.45, 0), plus.get_top(), buff=0, color=colors.muted, stroke_width=2.5, tip_length=0.15))
        heading = text_mobject(self.words(f"{arrangement}"), lang, colors.text, SMALL_SIZE + 6)
        formula = text_mobject(f"${FORMULAS[arrangement]}$", lang, colors.text, SMALL_SIZE + 2)
        top = VGroup(heading, formula).arrange(RIGHT, buff=0.35).move_to((0, 1.3, 0))
        path_label = text_mobject(self.words("residual"), lang, color, SMALL_SIZE)
        path_label.next_to(residual, DOWN, buff=0.12)
        diagram = VGroup(top, x_label, residual, tail, extra, wires, *branch, plus, path_label)
        return fit_width(diagram, 6.6)


