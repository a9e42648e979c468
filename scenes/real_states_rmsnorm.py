"""Scene ``real-states-rmsnorm`` (D1): a real pre-norm RMSNorm decoder's states (SmolLM2-135M by default).

Every norm, ratio and radius is the core's, computed from the states file; each sentence that
states a trend or an outlier is chosen by what the numbers show (``--set source=FILE`` renders any
model's states captured with ``normgeo states``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from manim import Create, FadeIn, VGroup

from scenes.kit.base import SMALL_SIZE
from scenes.kit.plots import axis_labels, make_axes, nice_step
from scenes.kit.real_states import RealStatesScene, RealStatesSpec, as_markup, rounded_curve, token_label

__all__ = ["RealStatesRmsnormSpec", "RealStatesRmsnorm", "VISIBLE_GAP"]

VISIBLE_GAP = 1e-3  # a radius more than 0.1 % below √n is said to be below it (3 decimals show it)


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
        self.show_landing(self.plot)
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
        """The median token's ‖x‖₂ at every RMSNorm call (counted from 1), on a log scale."""
        summary, colors = self.study.summary, self.palette
        calls = np.arange(1, len(self.study.layers) + 1)
        low = int(np.floor(np.log10(summary.median_norms.min())))
        high = int(np.ceil(np.log10(summary.max_norms.max())))
        step = nice_step(calls[-1])
        ticks = {float(c): str(c) for c in calls if c == 1 or c % step == 0}
        axes = make_axes((1, calls[-1], 1), (low, max(high, low + 1), 1), *self.plot_size(), colors,
                         log_y=True, x_tick_labels=ticks, lang=self.spec.lang)
        self.place_plot(axes)
        labels = axis_labels(axes, self.words("axis.call"), self.words("axis.norm"), self.spec.lang, colors.text,
                             font_size=SMALL_SIZE)
        self.median_curve = rounded_curve(axes, calls, summary.median_norms, colors.rmsnorm, stroke_width=4)
        self.max_curve = rounded_curve(axes, calls, summary.max_norms, colors.emphasis, stroke_width=3)
        self.plot_axes = axes
        self.curve_names = self.name_curves(axes, [
            (self.median_curve, self.text("legend.median", font_size=SMALL_SIZE, color=colors.rmsnorm)),
            (self.max_curve, self.text("legend.max", font_size=SMALL_SIZE, color=colors.emphasis))])
        self.plot = VGroup(axes, labels, self.median_curve, self.max_curve, self.curve_names)
        self.pin(self.plot)
        trend = summary.norm_trend
        self.drift_values = {"first": self.fmt.number(trend.first, 1), "last": self.fmt.number(trend.last, 0),
                             "ratio": self.ratio_text(trend.ratio), "rises": trend.rises, "steps": trend.steps}
        grows = "grows" if trend.grows else "not"
        self.drift_text = self.first_readout(f"readout.drift-{grows}", **self.drift_values)
        self.show_readout("drift", self.drift_text, Create(axes), FadeIn(labels), Create(self.median_curve),
                          FadeIn(self.curve_names[0]), run_time=2.0, hold=1.5,
                          lead=self.words(f"lead.drift-{grows}", **self.drift_values), **self.drift_values)

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
            "token": token_label(self.token_text(token)), "position": token + 1, "call": where + 1,
            "norm": self.fmt.number(float(profile.norms[token]), 0),
            "median": self.fmt.number(profile.massive.median, 0),
            "ratio": self.ratio_text(float(summary.largest_ratios[where])),
            "count": int(np.sum(summary.massive_counts > 0)), "calls": len(study.layers),
            "factor": self.fmt.number(self.spec.factor, 1),
        }
        found = "found" if summary.massive_counts.any() else "none"
        self.massive_text = self.first_readout(f"readout.massive-{found}", **as_markup(self.massive_values))
        self.show_readout("massive", self.massive_text, Create(self.max_curve), FadeIn(self.curve_names[1]),
                          run_time=1.5, hold=2.0, lead=self.words(f"lead.massive-{found}", **self.massive_values),
                          **self.massive_values)

    def show_epsilon(self) -> None:
        """The radius before γ: √n·r/√(r² + ε), smallest where the RMS is smallest; and as measured.
        A radius is said to be below √n only when it is more than 0.1 % below (``VISIBLE_GAP``), and
        the measured radii as a range only when their ends differ as shown."""
        summary, study = self.study.summary, self.study
        where = int(np.argmin(summary.min_radii))
        root = float(np.sqrt(study.profiles[0].n))
        smallest = float(summary.min_radii[where])
        measured = bool(np.isfinite(summary.min_measured).any())
        low = float(np.nanmin(summary.min_measured)) if measured else root
        high = float(np.nanmax(summary.max_measured)) if measured else root
        self.epsilon_values = {
            "call": where + 1, "eps": self.fmt.scientific(study.layers[where].eps, 1),
            "eps_plain": self.fmt.plain_scientific(study.layers[where].eps, 1),
            "dtype": study.states.stored_as or "?",
            "smallest": self.fmt.number(smallest, 3), "root": self.fmt.number(root, 3), "n": study.profiles[0].n,
            "low": self.fmt.number(low, 2), "high": self.fmt.number(high, 2),
        }
        below = "below" if smallest < (1 - VISIBLE_GAP) * root else "close"
        spread = ("none" if not measured else
                  "range" if self.epsilon_values["low"] != self.epsilon_values["high"] else "one")
        self.epsilon_key = f"{below}-{spread}"
        self.epsilon_text = self.view_readout(f"readout.epsilon-{below}", **self.epsilon_values)
        lead = (self.words(f"lead.epsilon-{below}", **self.epsilon_values) + " "
                + self.words(f"lead.measured-{spread}", **self.epsilon_values))
        self.show_readout("epsilon", self.epsilon_text, run_time=1.0, hold=2.5, lead=lead, **self.epsilon_values)
