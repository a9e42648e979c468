"""Scene 12, ``conditioning`` (B4, B5): κ before and after standardizing, and gradient descent on both."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, UP, Create, FadeIn, LineJointType, VGroup, VMobject

from normgeo import conditioning_demo, contour_levels, quadratic_contours
from scenes.kit.adapters import make_plane, to_points
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.claims import claim
from scenes.kit.spec import SceneSpec, SpecError, as_setting_text, setting
from scenes.kit.widgets import closed_curve, dot_at

__all__ = ["ConditioningSpec", "Conditioning"]


@dataclass(frozen=True)
class ConditioningSpec(SceneSpec):
    """Feature scales, their correlation, the κ drawn for "before", and the step as a fraction of 2/L."""

    small_scale: float = setting(1.0, low=1e-4, high=1e8)
    large_scale: float = setting(1e4, low=1e-4, high=1e8)
    correlation: float = setting(0.9, low=0.0, high=0.98)
    drawn_kappa: float = setting(60.0, low=2, high=400)
    step_fraction: float = setting(0.9, low=0.05, high=0.99)
    steps_drawn: int = setting(30, low=2, high=200)

    def validate(self) -> None:
        if self.large_scale > 1e6 * self.small_scale:
            raise SpecError(f"large_scale: must be at most 10⁶ times small_scale ({as_setting_text(self.small_scale)}): "
                            f"the descent's step count grows as κ = (large/small)² (over 7·10¹² steps at 10⁶; "
                            f"not finite in float64 at 10¹²), got {as_setting_text(self.large_scale)}")
        if not 10 * self.small_scale <= self.large_scale:
            raise SpecError(f"large_scale: must be at least 10 times small_scale ({as_setting_text(self.small_scale)}): "
                            f"the scene shows features of very different scales, got {as_setting_text(self.large_scale)}")


class Conditioning(NormGeoScene):
    """Contours and descent paths before (drawn κ) and after standardizing, with the real numbers."""

    spec_class = ConditioningSpec

    def construct(self) -> None:
        self.run_demo()
        self.introduce()
        self.lay_out_panels()
        self.show_raw_features()
        self.explain_drawn_ellipse()
        self.descend_before()
        self.descend_after_standardizing()
        self.keep_the_correlation()
        self.name_the_mechanisms()

    def run_demo(self) -> None:
        """Everything the scene shows, from the core: κ and descent runs, real and drawn."""
        spec = self.spec
        self.demo = conditioning_demo(scales=(spec.small_scale, spec.large_scale), correlation=spec.correlation,
                                      drawn_kappa=spec.drawn_kappa, step_fraction=spec.step_fraction,
                                      n_steps=spec.steps_drawn)
        # the real ellipse fits on screen only when its κ is no larger than the one drawn
        self.drawn_reason = "narrow" if self.demo.kappa_raw > self.demo.drawn_before.kappa else "wide"

    def introduce(self) -> None:
        self.title = self.make_title()
        self.say("intro", FadeIn(self.title), run_time=1.0, hold=1.0)

    def lay_out_panels(self) -> None:
        """Two panels, before (left) and after (right): contours, descent path, captions and readouts."""
        colors, demo = self.palette, self.demo
        if self.layout.stacked:  # before above after, the step rule under the title
            places = self.layout.stacked_panels(2, at_most=4.6, above=0.45, below=1.35, top_gap=0.45)
        else:
            places = [((-3.55, -0.15, 0), 4.6), ((3.55, -0.15, 0), 4.6)]
        # raw against standardized is before/after: neutral, told by weight, never a layer's hue (issue 33)
        panels = [self.panel(demo.drawn_before, *places[0], colors.text, 3.0),
                  self.panel(demo.drawn_after, *places[1], colors.emphasis, 5.0)]
        (plane_a, self.curves_a, path_a, self.dots_a), (plane_b, self.curves_b, path_b, self.dots_b) = panels
        self.before_path, self.after_path = path_a, path_b
        self.before_plane, self.after_plane = plane_a, plane_b

        fmt = self.fmt
        scales = {"small": fmt.scientific(self.spec.small_scale), "large": fmt.scientific(self.spec.large_scale)}
        self.caption_a = self.text("before", font_size=SMALL_SIZE, **scales).next_to(plane_a, UP, buff=0.12)
        self.caption_b = self.text("after", font_size=SMALL_SIZE).next_to(plane_b, UP, buff=0.12)
        self.kappa_a = self.text("kappa", font_size=SMALL_SIZE + 4, color=colors.text,
                                 kappa=fmt.scientific(demo.kappa_raw))
        self.drawn = self.text(f"drawn.{self.drawn_reason}", font_size=SMALL_SIZE, color=colors.muted,
                               kappa=fmt.number(demo.drawn_before.kappa))
        tol = fmt.scientific(demo.tolerance)
        self.steps_a = self.text("steps", font_size=SMALL_SIZE, steps=fmt.scientific(demo.steps_raw), tol=tol)
        readout_a = VGroup(self.kappa_a, self.drawn, self.steps_a).arrange(DOWN, buff=0.12)
        readout_a.next_to(plane_a, DOWN, buff=0.15)
        kappa_b = self.text("kappa", font_size=SMALL_SIZE + 4, color=colors.emphasis,
                            kappa=fmt.number(demo.kappa_standardized, 1))
        steps_b = self.text("steps", font_size=SMALL_SIZE, steps=fmt.scientific(demo.steps_standardized), tol=tol)
        self.rho_label = self.text("correlation", font_size=SMALL_SIZE, color=colors.muted,
                                   rho=fmt.number(self.spec.correlation))
        readout_b = VGroup(kappa_b, steps_b, self.rho_label).arrange(DOWN, buff=0.12).next_to(plane_b, DOWN, buff=0.15)
        for readout in (readout_a, readout_b):
            fit_width(readout, min(6.7, self.layout.content_width))
        self.readouts = (readout_a, readout_b)

    def panel(self, run, center, side, color, width):
        """A plane with the run's contours, its descent path (rounded joins: no spikes at its sharp
        turns) and the path's points."""
        colors = self.palette
        contours = quadratic_contours(run.hessian, contour_levels(run.hessian, run.path[0]))
        extent = 1.1 * float(np.abs(np.vstack(contours)).max())
        plane = make_plane(extent, side, center, colors)
        curves = VGroup(*(closed_curve(plane, c, colors.muted, 1.5) for c in contours))
        path = VMobject(color=color, stroke_width=width, joint_type=LineJointType.ROUND)
        path.set_points_as_corners(to_points(plane, run.path))
        dots = VGroup(*(dot_at(plane, p, color, radius=0.045) for p in run.path))
        return plane, curves, path, dots

    def show_raw_features(self) -> None:
        """B4: the real κ of features with very different scales."""
        spec, fmt = self.spec, self.fmt
        self.say("before", Create(self.before_plane), FadeIn(self.caption_a), FadeIn(self.kappa_a),
                 run_time=1.2, hold=1.5, kappa=fmt.plain_scientific(self.demo.kappa_raw),
                 small=fmt.plain_scientific(spec.small_scale), large=fmt.plain_scientific(spec.large_scale))

    def explain_drawn_ellipse(self) -> None:
        why = self.words(f"why.{self.drawn_reason}", drawn=self.fmt.number(self.demo.drawn_before.kappa))
        self.say("drawn", Create(self.curves_a), FadeIn(self.drawn), run_time=1.2, hold=0.5, why=why)

    def descend_before(self) -> None:
        """Gradient descent at a fraction of 2/L: above 1/L it zig-zags across the valley, below it
        approaches from one side (worded from the drawn run); the step rule goes under the title."""
        demo = self.demo
        how = self.words("how", when=claim(demo.drawn_before, "path_shape"))
        rule = self.text("step-rule", font_size=SMALL_SIZE, color=self.palette.emphasis,
                         fraction=self.fmt.number(demo.step_fraction))
        fit_width(rule, min(13.0, self.layout.content_width)).next_to(self.title, DOWN, buff=0.25).align_to(self.title, LEFT)
        self.say("descent", Create(self.before_path), FadeIn(self.dots_a, lag_ratio=0.05), FadeIn(self.steps_a),
                 FadeIn(rule), run_time=2.5, hold=1.0, steps=self.fmt.plain_scientific(demo.steps_raw),
                 fraction=self.fmt.number(demo.step_fraction), how=how)

    def descend_after_standardizing(self) -> None:
        """The same descent on the standardized problem; whether a slow way along the valley or the
        fixed step's overshoot sets its step count is the core's predicate."""
        demo = self.demo
        self.say("after", Create(self.after_plane), FadeIn(self.caption_b), Create(self.curves_b),
                 Create(self.after_path), FadeIn(self.dots_b, lag_ratio=0.05), FadeIn(self.readouts[1][:2]),
                 run_time=2.5, hold=1.5, when=claim(demo.drawn_after, "slow_along_valley"),
                 fraction=self.fmt.number(demo.step_fraction), kappa=self.fmt.number(demo.kappa_standardized, 1),
                 steps=self.fmt.plain_scientific(demo.steps_standardized))

    def keep_the_correlation(self) -> None:
        """B4: the κ left after standardizing is the correlation's, (1 + |ρ|)/(1 − |ρ|); ρ = 0 would give 1.
        With ρ ≠ 0 the correlation is also part of κ before standardizing (5.3·10⁸ against 10⁸)."""
        fmt, demo = self.fmt, self.demo
        values = {"rho": fmt.number(self.spec.correlation), "kappa": fmt.number(demo.kappa_standardized, 1),
                  "uncorrelated": fmt.number(demo.kappa_standardized_uncorrelated, 1),
                  "kappa_raw": fmt.plain_scientific(demo.kappa_raw),
                  "raw_uncorrelated": fmt.plain_scientific(demo.kappa_raw_uncorrelated)}
        detail = self.words("detail.uncorrelated" if self.spec.correlation == 0 else "detail.correlated", **values)
        self.say("correlation", FadeIn(self.rho_label), run_time=1.0, hold=1.5, detail=detail)

    def name_the_mechanisms(self) -> None:
        """B5: what normalization layers do inside the network (narration only)."""
        self.say("mechanisms", run_time=0.0, hold=2.0)
