"""Scene 17, ``prenorm-postnorm`` (B10): where LN sits decides whether the residual path is clean.

Two toys on the same random linear stack: the gradient that reaches each block's input (a
geometric mean over random stacks), and which step sizes of a grid train the stack on a small
regression task, pre-norm against post-norm; the wording of the second follows its outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Arrow, Circle, Create, Dot, FadeIn, FadeOut, Line, RoundedRectangle, VGroup

from normgeo import prenorm_postnorm_study, step_size_sweep
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.plots import axis_labels, curve, make_axes
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
        pre = self.block_diagram("pre", self.palette.layernorm).move_to(self.diagram_place(0))
        self.diagrams = {"pre": pre}
        self.say("pre", FadeIn(pre), run_time=1.2, hold=1.5)

    def draw_postnorm(self) -> None:
        post = self.block_diagram("post", self.palette.rmsnorm).move_to(self.diagram_place(1))
        self.diagrams["post"] = post
        self.say("post", FadeIn(post), run_time=1.2, hold=1.5)

    def plot_gradients(self) -> None:
        """The gradient norm reaching each block, log scale, pre-norm against post-norm."""
        spec, colors, study, fmt = self.spec, self.palette, self.study, self.fmt
        blocks = np.arange(1, spec.depth + 1)
        low = float(np.floor(np.log10(min(study.pre.min(), study.post.min()))))
        high = float(np.ceil(np.log10(max(study.pre.max(), study.post.max()))))
        ticks = {float(b): str(int(b)) for b in blocks if b == 1 or b % max(1, spec.depth // 6) == 0}
        layout = self.layout
        axes = make_axes((0.5, spec.depth + 0.5, 1), (low, high, 1), min(11.0, layout.content_width - 2.4),
                         layout.pick(2.5, 3.0), colors, log_y=True, x_tick_labels=ticks, lang=self.spec.lang)
        if layout.stacked:  # in the bottom third, under the two diagrams
            axes.move_to(layout.band_center(2, 3)).shift(LEFT * 0.3 + UP * 0.6)
        else:
            axes.to_edge(DOWN, buff=0.75).shift(RIGHT * 0.4)
        labels = axis_labels(axes, self.words("block-axis"), self.words("grad-axis"), spec.lang, colors.text)
        pre_curve = curve(axes, blocks, study.pre, colors.layernorm, stroke_width=4)
        post_curve = curve(axes, blocks, study.post, colors.rmsnorm, stroke_width=4)
        self.axes, self.curves = axes, {"pre": pre_curve, "post": post_curve}
        setup = self.text("setup", font_size=SMALL_SIZE - 4, color=colors.muted, depth=spec.depth,
                          width=spec.width, stacks=spec.stacks)
        if layout.stacked:  # under the plot, the whole width
            fit_width(setup, layout.content_width).next_to(labels[0], DOWN, buff=0.15).to_edge(LEFT, buff=0.45)
        else:
            fit_width(setup, axes.get_right()[0] - labels[1].get_right()[0] - 0.4)  # beside the y-axis name
            setup.next_to(axes, UP, buff=0.1).align_to(axes, RIGHT)
        names = VGroup(
            self.text("pre", font_size=SMALL_SIZE, color=colors.layernorm).next_to(pre_curve.get_end(), UP, 0.1),
            self.text("post", font_size=SMALL_SIZE, color=colors.rmsnorm).next_to(post_curve.get_end(), DOWN, 0.1),
        )
        parts = {}
        for arrangement, gradients in (("pre", study.pre), ("post", study.post)):
            # the wording follows this run: does the first block get at least what the last one gets?
            kept = "kept" if gradients[0] >= gradients[-1] else "lost"
            parts[f"{arrangement}_part"] = self.words(f"{arrangement}-part.{kept}", first=fmt.number(gradients[0], 2),
                                                      last=fmt.number(gradients[-1], 2))
        self.say("gradients", Create(axes), FadeIn(labels), FadeIn(setup), Create(pre_curve),
                 Create(post_curve), FadeIn(names), run_time=2.5, hold=1.5, depth=spec.depth, **parts)

    def sweep_step_sizes(self) -> None:
        """The second toy in the diagrams' place: one mark per step size and arrangement, filled where
        the stack trains; the sentence follows which arrangement trains at more step sizes."""
        colors, sweep, fmt = self.palette, self.sweep, self.fmt
        layout = self.layout
        xs = np.linspace(*layout.pick((-4.2, 5.4), (layout.left + 2.0, layout.right - 0.25)), sweep.step_sizes.size)
        at = self.sweep_place
        rows = {"pre": (at(1.75), colors.layernorm), "post": (at(1.05), colors.rmsnorm)}
        self.sweep_marks, names = {}, VGroup()
        for arrangement, (y, color) in rows.items():
            marks = VGroup(*(Dot((x, y, 0), radius=0.13, color=color) if trains else
                             Circle(radius=0.13, color=colors.muted, stroke_width=2.5).move_to((x, y, 0))
                             for x, trains in zip(xs, sweep.trains(arrangement))))
            self.sweep_marks[arrangement] = marks
            names.add(self.text(arrangement, font_size=SMALL_SIZE, color=color).next_to(marks, LEFT, buff=0.45))
        decades = [(x, int(round(np.log10(size)))) for x, size in zip(xs, sweep.step_sizes)
                   if abs(np.log10(size) - round(np.log10(size))) < 1e-9]
        ticks = VGroup(*(text_mobject(f"$10^({power})$", self.spec.lang, colors.muted, SMALL_SIZE - 4).move_to((x, at(0.5), 0))
                         for x, power in decades))
        axis_name = self.text("sweep.axis", font_size=SMALL_SIZE - 4, color=colors.muted).next_to(ticks, LEFT, buff=0.45)
        caption = self.text("sweep.caption", font_size=SMALL_SIZE - 4, color=colors.muted, steps=sweep.steps,
                            target=fmt.number(100 * sweep.target))
        key = self.text("sweep.key", font_size=SMALL_SIZE - 4, color=colors.muted)
        heading = VGroup(caption, key).arrange(RIGHT, buff=0.5)
        if layout.stacked:
            heading.arrange(DOWN, aligned_edge=LEFT, buff=0.15)
            fit_width(heading, layout.content_width).move_to((0, at(2.45), 0)).to_edge(LEFT, buff=0.45)
        else:
            fit_width(heading, 13.0).move_to((0.4, 2.45, 0))
        self.sweep_panel = VGroup(heading, names, *self.sweep_marks.values(), ticks, axis_name)
        outcome = sweep.wider or "tie"
        result = self.words(f"result.{outcome}", pre=sweep.count("pre"), post=sweep.count("post"))
        self.say("steps", FadeOut(self.diagrams["pre"]), FadeOut(self.diagrams["post"]), FadeIn(self.sweep_panel),
                 run_time=1.5, hold=2.0, steps=sweep.steps, total=sweep.step_sizes.size,
                 smallest=fmt.plain_scientific(sweep.step_sizes[0]), largest=fmt.plain_scientific(sweep.step_sizes[-1]),
                 result=result)

    def conclude(self) -> None:
        """What the toys show and what real transformers show (narration only)."""
        self.say("conclusion", run_time=0.0, hold=1.5)

    def diagram_place(self, index: int):
        """Where block diagram ``index`` goes: side by side at 16:9, one above the other (the top two
        thirds) in a square or tall frame."""
        return self.layout.pick(((-3.55, 1.55, 0), (3.55, 1.55, 0))[index], self.layout.band_center(index, 3))

    def sweep_place(self, y: float) -> float:
        """The height of a row of the step-size sweep (drawn where the diagrams were)."""
        middle = self.layout.band_center(0, 1.5)[1] - 0.3  # between the two diagrams
        return self.layout.moved((0.0, y, 0.0), (0.0, 1.5, 0.0), (0.0, middle, 0.0))[1]

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
            ln = box("LN", colors.rmsnorm).move_to((2.05, -0.35, 0))
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
        heading = text_mobject(self.words(f"{arrangement}"), lang, color, SMALL_SIZE + 6)
        formula = text_mobject(f"${FORMULAS[arrangement]}$", lang, colors.text, SMALL_SIZE + 2)
        top = VGroup(heading, formula).arrange(RIGHT, buff=0.35).move_to((0, 1.3, 0))
        path_label = text_mobject(self.words("residual"), lang, color, SMALL_SIZE - 4)
        path_label.next_to(residual, DOWN, buff=0.12)
        diagram = VGroup(top, x_label, residual, tail, extra, wires, *branch, plus, path_label)
        return fit_width(diagram, 6.6)


