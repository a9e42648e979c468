"""Scene ``real-states-layernorm`` (D2): a real post-norm LayerNorm encoder's states (all-MiniLM-L6-v2 by
default): how far its LayerNorms' inputs are from the zero-mean hyperplane, the angle between
RMSNorm(x) and LN(x) on real tokens (C2 measured), the tokens landing on the sphere in the
hyperplane, and how many directions they use. Every number is the core's, from the states file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from manim import Create, FadeIn, VGroup

from scenes.kit.base import SMALL_SIZE
from scenes.kit.numbers import nice_step
from scenes.kit.plots import axis_labels, make_axes
from scenes.kit.real_states import RealStatesScene, RealStatesSpec, rounded_curve

__all__ = ["RealStatesLayernormSpec", "RealStatesLayernorm", "NEAR_SHARE"]

NEAR_SHARE = 0.1  # a mean part below a tenth of the length (an angle under 5.7°) counts as "near the hyperplane"


@dataclass(frozen=True)
class RealStatesLayernormSpec(RealStatesSpec):
    """A states file with LayerNorm layers (default: all-MiniLM-L6-v2 on one sentence)."""

    default_file: ClassVar[str] = "minilm.safetensors"
    kinds: ClassVar[tuple[str, ...]] = ("layernorm",)


class RealStatesLayernorm(RealStatesScene):
    """The mean's share of each token's length per layer, the RMSNorm–LN angle, the sphere in H."""

    spec_class = RealStatesLayernormSpec
    centred = True

    def construct(self) -> None:
        self.introduce()
        self.plot_shares()
        self.state_angles()
        self.show_landing(self.plot)
        self.show_dimension()
        self.show_gamma()

    def plot_shares(self) -> None:
        """|μ|·√n/‖x‖₂ per LayerNorm call (counted from 1): the median token and the largest."""
        summary, colors = self.study.summary, self.palette
        calls = np.arange(1, len(self.study.layers) + 1)
        top = float(summary.max_shares.max())
        step = nice_step(top)
        every = nice_step(calls[-1])
        ticks = {float(c): str(c) for c in calls if c == 1 or c % every == 0}
        axes = make_axes((1, calls[-1], 1), (0, step * np.ceil(1.1 * top / step), step), *self.plot_size(),
                         colors, x_tick_labels=ticks, lang=self.spec.lang)
        self.place_plot(axes)
        labels = axis_labels(axes, self.words("axis.call"), self.words("axis.share"), self.spec.lang, colors.text,
                             font_size=SMALL_SIZE)
        median = rounded_curve(axes, calls, summary.median_shares, colors.layernorm, stroke_width=4)
        largest = rounded_curve(axes, calls, summary.max_shares, colors.emphasis, stroke_width=3)
        self.plot_axes, self.median_curve, self.max_curve = axes, median, largest
        names = self.name_curves(axes, [
            (median, self.text("legend.median", font_size=SMALL_SIZE, color=colors.layernorm)),
            (largest, self.text("legend.max", font_size=SMALL_SIZE, color=colors.emphasis))])
        self.plot = VGroup(axes, labels, median, largest, names)
        self.pin(self.plot)
        worst = int(np.argmax(summary.max_shares))
        self.share_values = {"median": self.fmt.number(float(np.median(summary.median_shares)), 3),
                             "largest": self.fmt.number(top, 3), "call": worst + 1,
                             "near": self.fmt.number(NEAR_SHARE, 1)}
        near = "near" if top < NEAR_SHARE else "far"
        self.share_text = self.first_readout(f"readout.share-{near}", **self.share_values)
        self.show_readout("share", self.share_text, Create(axes), FadeIn(labels), Create(median), Create(largest),
                          FadeIn(names), run_time=2.0, hold=2.0,
                          lead=self.words(f"lead.share-{near}", **self.share_values), **self.share_values)

    def state_angles(self) -> None:
        """The angle between RMSNorm(x) and LN(x), arctan(|μ|/σ), over every token of every call."""
        summary = self.study.summary
        worst = int(np.nanargmax(summary.max_angles))
        self.angle_values = {"largest": self.fmt.number(float(np.degrees(summary.max_angles[worst])), 1),
                             "median": self.fmt.number(float(np.degrees(np.nanmedian(summary.median_angles))), 1),
                             "call": worst + 1}
        self.angle_text = self.first_readout("readout.angle", **self.angle_values)
        near = "near" if float(self.study.summary.max_shares.max()) < NEAR_SHARE else "far"  # share = sin(angle)
        self.show_readout("angle", self.angle_text, run_time=1.0, hold=2.5,
                          lead=self.words(f"lead.angle-{near}", **self.angle_values), **self.angle_values)
