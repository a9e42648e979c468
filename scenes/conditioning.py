"""Scene 9, ``conditioning`` (B4, B5): κ before and after standardizing, and gradient descent on both."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, UP, Create, FadeIn, VGroup, VMobject

from normgeo import conditioning_demo, contour_levels, quadratic_contours
from scenes.kit.adapters import make_plane, to_points
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
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
        if not self.small_scale < self.large_scale:
            raise SpecError(f"small_scale: must be below large_scale ({as_setting_text(self.large_scale)}), "
                            f"got {as_setting_text(self.small_scale)}")


class Conditioning(NormGeoScene):
    """Contours and descent paths before (drawn κ) and after standardizing, with the real numbers."""

    spec_class = ConditioningSpec

    def construct(self) -> None:
        spec, colors = self.spec, self.palette
        demo = conditioning_demo(scales=(spec.small_scale, spec.large_scale), correlation=spec.correlation,
                                 drawn_kappa=spec.drawn_kappa, step_fraction=spec.step_fraction, n_steps=spec.steps_drawn)
        self.demo = demo
        title = self.make_title()
        self.say("intro", FadeIn(title), run_time=1.0, hold=1.0)

        panels = []
        for run, center, color in ((demo.drawn_before, (-3.55, -0.15, 0), colors.rmsnorm),
                                   (demo.drawn_after, (3.55, -0.15, 0), colors.layernorm)):
            contours = quadratic_contours(run.hessian, contour_levels(run.hessian, run.path[0]))
            extent = 1.1 * float(np.abs(np.vstack(contours)).max())
            plane = make_plane(extent, 4.6, center, colors)
            curves = VGroup(*(closed_curve(plane, c, colors.muted, 2) for c in contours))
            path = VMobject(color=color, stroke_width=3.5).set_points_as_corners(to_points(plane, run.path))
            dots = VGroup(*(dot_at(plane, p, color, radius=0.035) for p in run.path))
            panels.append((plane, curves, path, dots))
        (plane_a, curves_a, path_a, dots_a), (plane_b, curves_b, path_b, dots_b) = panels
        self.before_path, self.after_path = path_a, path_b
        self.before_plane, self.after_plane = plane_a, plane_b

        scales = {"small": self.fmt.scientific(spec.small_scale), "large": self.fmt.scientific(spec.large_scale)}
        spoken_scales = {"small": self.fmt.plain_scientific(spec.small_scale), "large": self.fmt.plain_scientific(spec.large_scale)}
        caption_a = self.text("before", font_size=SMALL_SIZE, **scales).next_to(plane_a, UP, buff=0.12)
        caption_b = self.text("after", font_size=SMALL_SIZE).next_to(plane_b, UP, buff=0.12)
        kappa_a = self.text("kappa", font_size=SMALL_SIZE + 4, color=colors.rmsnorm,
                            kappa=self.fmt.scientific(demo.kappa_raw))
        drawn = self.text("drawn", font_size=SMALL_SIZE - 4, color=colors.muted,
                          kappa=self.fmt.number(demo.drawn_before.kappa))
        steps_a = self.text("steps", font_size=SMALL_SIZE, steps=self.fmt.scientific(demo.steps_raw))
        readout_a = VGroup(kappa_a, drawn, steps_a).arrange(DOWN, buff=0.12).next_to(plane_a, DOWN, buff=0.15)
        kappa_b = self.text("kappa", font_size=SMALL_SIZE + 4, color=colors.layernorm,
                            kappa=self.fmt.number(demo.kappa_standardized, 1))
        steps_b = self.text("steps", font_size=SMALL_SIZE, steps=self.fmt.scientific(demo.steps_standardized))
        readout_b = VGroup(kappa_b, steps_b).arrange(DOWN, buff=0.12).next_to(plane_b, DOWN, buff=0.15)
        for readout in (readout_a, readout_b):
            fit_width(readout, 6.4)
        self.readouts = (readout_a, readout_b)

        self.say("before", Create(plane_a), FadeIn(caption_a), FadeIn(kappa_a), run_time=1.2, hold=1.5,
                 kappa=self.fmt.plain_scientific(demo.kappa_raw), **spoken_scales)
        self.say("drawn", Create(curves_a), FadeIn(drawn), run_time=1.2, hold=0.5,
                 drawn=self.fmt.number(demo.drawn_before.kappa))
        rule = self.text("step-rule", font_size=SMALL_SIZE, color=colors.highlight,
                         fraction=self.fmt.number(demo.step_fraction))
        fit_width(rule, 13.0).next_to(title, DOWN, buff=0.25).align_to(title, LEFT)
        self.say("descent", Create(path_a), FadeIn(dots_a, lag_ratio=0.05), FadeIn(steps_a), FadeIn(rule),
                 run_time=2.5, hold=1.0, steps=self.fmt.plain_scientific(demo.steps_raw))
        self.say("after", Create(plane_b), FadeIn(caption_b), Create(curves_b), Create(path_b),
                 FadeIn(dots_b, lag_ratio=0.05), FadeIn(readout_b), run_time=2.5, hold=1.5,
                 kappa=self.fmt.number(demo.kappa_standardized, 1), steps=self.fmt.plain_scientific(demo.steps_standardized))
        self.say("mechanisms", run_time=0.0, hold=2.0)
