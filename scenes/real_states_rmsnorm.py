"""Scene ``real-states-rmsnorm`` (D1): a real pre-norm RMSNorm decoder's states (SmolLM2-135M by default).

Every norm, ratio and radius is the core's, computed from the states file; each sentence that
states a trend or an outlier is chosen by what the numbers show (``--set source=FILE`` renders any
model's states captured with ``normgeo states``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from manim import DOWN, LEFT, UP, Create, FadeIn, VGroup

from scenes.kit.base import EDGE, SMALL_SIZE, fit_width
from scenes.kit.plots import axis_labels, curve, make_axes, nice_step
from scenes.kit.real_states import RealStatesScene, RealStatesSpec, as_markup, token_label
from scenes.kit.widgets import legend

__all__ = ["RealStatesRmsnormSpec", "RealStatesRmsnorm"]



@dataclass(frozen=True)
class RealStatesRmsnormSpec(RealStatesSpec):
    """A states file with RMSNorm layers (default: SmolLM2-135M-Instruct on one sentence)."""

    default_file: ClassVar[str] = "smollm2.safetensors"
    kinds: ClassVar[tuple[str, ...]] = ("rmsnorm", "unknown")


class RealStatesRmsnorm(RealStatesScene):
    """Drift of ‖x‖₂ across depth, massive tokens, every token landing on the sphere √n."""

    spec_class = RealStatesRmsnormSpec

    def construct(self) -> None:
        self.introduce()
        self.plot_drift()
        self.mark_massive()
        self.show_landing(VGroup(self.plot, self.column))
        self.show_epsilon()
        self.show_dimension()
        self.show_gamma()

    def intro_lead(self) -> dict:
        """The intro says whether the file's states were dequantized; the shipped file's scheme (Q4_1)
        is named, a user's quantized file is only said to be quantized."""
        if "dequantized" not in self.study.states.notes:
            return {"lead": self.words("lead.plain")}
        return {"lead": self.words("lead.quantized-" + ("user" if self.spec.source else "bundled"))}

    def plot_drift(self) -> None:
        """The median token's ‖x‖₂ at every RMSNorm call, on a log scale."""
        summary, colors = self.study.summary, self.palette
        calls = np.arange(len(self.study.layers))
        low = int(np.floor(np.log10(summary.median_norms.min())))
        high = int(np.ceil(np.log10(summary.max_norms.max())))
        axes = make_axes((0, calls[-1], nice_step(calls[-1])), (low, max(high, low + 1), 1), 6.0, 3.4, colors,
                         log_y=True, lang=self.spec.lang)
        self.place_plot(axes)
        labels = axis_labels(axes, self.words("axis.call"), self.words("axis.norm"), self.spec.lang, colors.text)
        self.median_curve = curve(axes, calls, summary.median_norms, colors.rmsnorm, stroke_width=3.5)
        self.max_curve = curve(axes, calls, summary.max_norms, colors.emphasis, stroke_width=2.5)
        self.plot_axes = axes
        key = legend([(colors.rmsnorm, self.words("legend.median")), (colors.emphasis, self.words("legend.max"))],
                     self.spec.lang, colors.text, SMALL_SIZE - 2)
        self.place_plot_key(key, axes, labels)
        key[1].set_opacity(0)
        self.plot_key = key
        self.plot = VGroup(axes, labels, self.median_curve, self.max_curve, key)
        self.max_curve.set_stroke(opacity=0)
        self.fix_in_frame(self.plot)
        trend = summary.norm_trend
        self.drift_values = {"first": self.fmt.number(trend.first, 1), "last": self.fmt.number(trend.last, 0),
                             "ratio": self.ratio_text(trend.ratio), "rises": trend.rises, "steps": trend.steps}
        self.drift_text = self.text(f"readout.drift-{'grows' if trend.grows else 'not'}", font_size=SMALL_SIZE,
                                    **self.drift_values)
        fit_width(self.drift_text, self.column_width).next_to(self.column_top(self.plot), DOWN, buff=0.5)
        self.drift_text.to_edge(LEFT, buff=EDGE)
        self.column = VGroup(self.drift_text)
        self.fix_in_frame(self.column)
        self.say("drift", Create(axes), FadeIn(labels), Create(self.median_curve), FadeIn(key[0]),
                 FadeIn(self.drift_text), run_time=2.0, hold=1.5,
                 lead=self.words(f"lead.drift-{'grows' if trend.grows else 'not'}", **self.drift_values),
                 **self.drift_values)

    def ratio_text(self, ratio: float) -> str:
        """A ratio with 1 decimal below 10 (so 1.3 is not said as "1 times"), whole above."""
        return self.fmt.number(ratio, 0 if ratio >= 10 else 1)

    def mark_massive(self) -> None:
        """The largest token norm per call: the massive tokens, if the file has any."""
        summary, study = self.study.summary, self.study
        where = int(np.argmax(summary.largest_ratios))
        profile = study.profiles[where]
        token = int(np.argmax(profile.norms))
        self.massive_values = {
            "token": token_label(self.token_text(token)), "position": token + 1, "call": where,
            "norm": self.fmt.number(float(profile.norms[token]), 0),
            "median": self.fmt.number(profile.massive.median, 0),
            "ratio": self.ratio_text(float(summary.largest_ratios[where])),
            "count": int(np.sum(summary.massive_counts > 0)), "calls": len(study.layers),
            "factor": self.fmt.number(self.spec.factor, 1),
        }
        found = "found" if summary.massive_counts.any() else "none"
        self.massive_text = self.text(f"readout.massive-{found}", font_size=SMALL_SIZE,
                                      **as_markup(self.massive_values))
        fit_width(self.massive_text, self.column_width).next_to(self.drift_text, DOWN, buff=0.3, aligned_edge=LEFT)
        self.column.add(self.massive_text)
        self.fix_in_frame(self.massive_text)
        self.say("massive", self.max_curve.animate.set_stroke(opacity=1), self.plot_key[1].animate.set_opacity(1),
                 FadeIn(self.massive_text), run_time=1.5, hold=2.0,
                 lead=self.words(f"lead.massive-{found}", **self.massive_values), **self.massive_values)

    def show_epsilon(self) -> None:
        """The radius before γ: √n·r/√(r² + ε), smallest where the RMS is smallest; and as measured."""
        summary, study = self.study.summary, self.study
        where = int(np.argmin(summary.min_radii))
        measured = bool(np.isfinite(summary.min_measured).any())
        self.epsilon_values = {
            "call": where, "eps": self.fmt.scientific(study.layers[where].eps, 1),
            "eps_plain": self.fmt.plain_scientific(study.layers[where].eps, 1),
            "dtype": study.states.stored_as or "?",
            "smallest": self.fmt.number(float(summary.min_radii[where]), 3),
            "root": self.fmt.number(float(np.sqrt(study.profiles[0].n)), 3), "n": study.profiles[0].n,
            "low": self.fmt.number(float(np.nanmin(summary.min_measured)), 2) if measured else "",
            "high": self.fmt.number(float(np.nanmax(summary.max_measured)), 2) if measured else "",
        }
        key = "measured" if measured else "unmeasured"
        self.epsilon_text = self.text(f"readout.epsilon-{key}", font_size=SMALL_SIZE, **self.epsilon_values)
        fit_width(self.epsilon_text, self.readout_width).next_to(self.stack_top, UP, buff=0.2, aligned_edge=LEFT)
        self.fix_in_frame(self.epsilon_text)
        self.stack_top = self.epsilon_text
        self.say("epsilon", FadeIn(self.epsilon_text), run_time=1.0, hold=2.5,
                 lead=self.words(f"lead.epsilon-{key}", **self.epsilon_values), **self.epsilon_values)
