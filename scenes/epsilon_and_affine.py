"""Scene 4, ``epsilon-and-affine`` (C1): ε pulls outputs inside the sphere; γ, β move the circle S ∩ H."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from manim import DEGREES, DL, DOWN, DR, LEFT, RIGHT, UL, UP, UR, Create, DashedLine, FadeIn, FadeOut, ReplacementTransform, VGroup

from normgeo import (
    SMALLEST_REAL_EPS,
    TYPICAL_EPS,
    affine_output_set,
    circle_in_plane,
    euclidean_norm,
    hyperplane_basis,
    layer_norm,
    layer_norm_output_curve,
    layer_norm_output_radius,
    ones_direction,
    output_radius,
    spread_pulled_inside,
    square_in_plane,
    view_angles,
)
from normgeo.centring_parts import mean_and_spread
from scenes.kit.adapters import make_space_axes, to_points
from scenes.kit.base import EDGE, SMALL_SIZE, NormGeoThreeDScene, fit_width
from scenes.kit.plots import axis_labels, curve, make_axes, nice_step
from scenes.kit.spec import SceneSpec, SpecError, Vector, Vectors, check_vectors, setting
from scenes.kit.claims import claim
from scenes.kit.depth import DepthSphere, axis_names, outermost, pin_label
from scenes.kit.widgets import dot_at, math_mobject, space_polygon, space_polyline, space_segment

__all__ = ["EpsilonAndAffineSpec", "EpsilonAndAffine"]

# The geometry fills a disc of GEOMETRY_RADIUS scene units around the centre of the screen; the
# corners hold the title, the readout (lower left) and the plot of ‖x̂‖₂ against σ (lower right);
# every part of the figure is named beside it. The ε part is seen along 1 (the plane face-on, radii
# at their true length), the camera moving in (CLOSE_RADIUS) while ε pulls the outputs inside; the
# γ, β part from an oblique view, zoomed out to hold the ellipse. That view is chosen so that
# neither the plane nor the default ellipse is seen edge-on (the usual overview, θ = −35°, looks
# along the default ellipse's plane and shows it as a line).
GEOMETRY_RADIUS = 2.7
CLOSE_RADIUS = 3.6  # face-on, the sphere's rim 3.1 units from the centre: the circle fills 3/4 of the height
AFFINE_RADIUS = 3.4  # the oblique view foreshortens: the ellipse may fill a larger disc
OVERVIEW = {"phi": 68 * DEGREES, "theta": -35 * DEGREES}
AFFINE_VIEW = {"phi": 62 * DEGREES, "theta": 95 * DEGREES}
FACE_ON = dict(zip(("phi", "theta"), view_angles(ones_direction(3)), strict=True))
CURVE_SAMPLES = 120
SHORTFALL = 0.05  # "falls visibly inside": more than 5 % short of √n
# y = β + γ ⊙ x̂ and the set it lies on at ε = 0 (Typst math; the same in every language). The spec's
# ε is always > 0, where the outputs fall inside that set: the formula carries its condition.
OUTPUT_SET = "y = beta + gamma dot.o hat(x) in beta + gamma dot.o (S inter H) quad (epsilon = 0)"
PLOT_WIDTH, PLOT_HEIGHT = 3.5, 1.9
COLUMN = 4.0  # width of the text columns beside the geometry
ROW_WIDTH = 9.0  # a frame this wide holds the readout and the plot in one row under the geometry


@dataclass(frozen=True)
class EpsilonAndAffineSpec(SceneSpec):
    """ε, the 3-D inputs (spreads σ of 0.15, 0.4, 1 and 2.2 by default), and LayerNorm's γ and β."""

    eps: float = setting(0.25, low=1e-4, high=4)
    inputs: Vectors = setting(((0.5, 0.55, 0.21), (-0.86, 0.03, -0.06), (1.27, -0.81, 1.35), (2.87, -1.32, -2.16)),
                              items=(2, 6))
    gamma: Vector = setting((1.5, 0.6, 1.0), low=0.1, high=3, items=(3, 3))
    beta: Vector = setting((0.5, -0.4, 0.3), low=-3, high=3, items=(3, 3))

    def validate(self) -> None:
        check_vectors("inputs", self.inputs, dim=3, max_length=50)
        for index, x in enumerate(self.inputs):
            if max(x) - min(x) < 1e-3:
                raise SpecError(f"inputs: vector {index + 1} has (nearly) equal entries: "
                                "give each input a spread σ > 0")
        if max(self.gamma) - min(self.gamma) < 1e-3:
            raise SpecError("gamma: its entries must not all be equal "
                            "(the scene shows γ stretching the circle into an ellipse)")
        if max(abs(b) for b in self.beta) < 1e-3:
            raise SpecError("beta: must not be zero (the scene shows β moving the ellipse's centre)")


class EpsilonAndAffine(NormGeoThreeDScene):
    """‖LN_ε(x)‖₂ = √n·σ/√(σ² + ε) < √n; then y = β + γ ⊙ x̂ lives on β + γ ⊙ (S ∩ H)."""

    spec_class = EpsilonAndAffineSpec

    def construct(self) -> None:
        self.normalize()
        self.recall_the_circle()
        self.land_at_zero_epsilon()
        self.pull_inside()
        self.plot_radius()
        self.stretch_by_gamma()
        self.shift_by_beta()
        self.name_the_output_set()

    # ------------------------------------------------------------------ numbers
    def normalize(self) -> None:
        """Everything the scene shows, from the core: σ of each input, LN at ε = 0 and at ε, the radii,
        the radius curve, the outputs after γ, β and the curve β + γ ⊙ (S ∩ H)."""
        spec, fmt = self.spec, self.fmt
        self.n = 3
        self.inputs = np.array(spec.inputs, dtype=float)
        self.gamma, self.beta = np.array(spec.gamma), np.array(spec.beta)
        self.placement = affine_output_set(self.gamma, self.beta)
        self.sigmas = mean_and_spread(self.inputs).spread
        self.ideal = layer_norm(self.inputs, eps=0.0)
        self.outputs = layer_norm(self.inputs, eps=spec.eps)
        self.stretched_outputs = layer_norm(self.inputs, eps=spec.eps, weight=self.gamma)
        self.affine_outputs = layer_norm(self.inputs, eps=spec.eps, weight=self.gamma, bias=self.beta)
        self.radii = layer_norm_output_radius(self.sigmas, self.n, spec.eps)
        self.radius = output_radius("layernorm", self.n)
        self.u, self.w = hyperplane_basis(self.n)
        self.circle_points = circle_in_plane(self.u, self.w, self.radius, samples=CURVE_SAMPLES)
        self.stretched_points = layer_norm_output_curve(self.gamma, None, samples=CURVE_SAMPLES)
        self.curve_points = layer_norm_output_curve(self.gamma, self.beta, samples=CURVE_SAMPLES)
        self.sigma_top = nice_ceiling(1.1 * float(self.sigmas.max()))
        self.plot_sigmas = np.linspace(0.0, self.sigma_top, CURVE_SAMPLES)
        self.plot_radii = layer_norm_output_radius(self.plot_sigmas, self.n, spec.eps)
        self.near_extent = 1.15 * self.radius
        self.far_extent = 1.15 * max(self.radius, float(euclidean_norm(self.curve_points).max()),
                                     float(euclidean_norm(self.stretched_points).max()))
        self.origin = np.zeros(self.n)
        order = np.argsort(self.sigmas)
        self.values = {
            "eps": fmt.number(spec.eps),
            "n": self.n,
            "count": len(self.inputs),
            "low": fmt.number(float(self.sigmas[order[0]])),
            "high": fmt.number(float(self.sigmas[order[-1]])),
            "radius": fmt.number(self.radius, 2),
            "shortest": fmt.number(float(self.radii[order[0]])),
            "gamma": fmt.vector(self.gamma),
            "beta": fmt.vector(self.beta),
            "beta_sum": fmt.number(float(self.beta.sum())),
            "shortfall": fmt.number(100 * SHORTFALL),
            "visible": fmt.number(spread_pulled_inside(spec.eps, SHORTFALL), 2),
            "typical": fmt.plain_scientific(TYPICAL_EPS),
            "typical_visible": fmt.number(spread_pulled_inside(TYPICAL_EPS, SHORTFALL), 2),
            "smallest": fmt.plain_scientific(SMALLEST_REAL_EPS),
            "smallest_visible": fmt.plain_scientific(spread_pulled_inside(SMALLEST_REAL_EPS, SHORTFALL), 1),
        }

    # ------------------------------------------------------------------ steps
    def recall_the_circle(self) -> None:
        """Axes, the zero-mean plane H, the sphere S of radius √3 and their circle, each named on the figure."""
        colors, extent = self.palette, self.near_extent
        self.look_from(zoom=GEOMETRY_RADIUS / extent, **OVERVIEW)
        self.axes = make_space_axes(extent, 2 * extent, colors).set_stroke(opacity=0.55)
        self.axis_names = axis_names(self, self.axes, extent, colors.muted)
        title = self.make_title()
        self.fix_in_frame(title)
        corners = self.plane_corners = square_in_plane(self.u, self.w, 0.85 * extent)
        plane = space_polygon(self.axes, corners, colors.hyperplane, opacity=0.1)
        self.sphere = DepthSphere(self.axes, self.renderer.camera, self.radius, colors.rmsnorm)
        self.circle = space_polyline(self.axes, self.circle_points, colors.layernorm, 5, closed=True)
        camera = self.renderer.camera
        self.labels = VGroup(
            self.label("label.plane", outermost(camera, self.axes, corners, DOWN), colors.hyperplane, UP),
            self.label("label.sphere", self.radius * np.array([0.0, 0.0, 1.0]), colors.rmsnorm, UR),
            self.label("label.circle", outermost(camera, self.axes, self.circle_points, LEFT), colors.layernorm, RIGHT),
        )
        self.say("intro", FadeIn(title), Create(self.axes), FadeIn(self.axis_names), Create(plane), Create(self.sphere),
                 Create(self.circle), FadeIn(self.labels), run_time=2.0, hold=1.0, **self.values)

    def land_at_zero_epsilon(self) -> None:
        """At ε = 0 every input lands on the circle; the camera turns to look along 1 (the plane face-on)."""
        self.epsilon_dots = VGroup(*(self.facing(dot_at(self.axes, p, self.palette.input, radius=0.08))
                                     for p in self.ideal))
        hold = self.caption("ideal", run_time=2.5, hold=1.0, **self.values)
        self.turn_to(run_time=2.5, added_anims=[FadeIn(self.epsilon_dots), FadeOut(self.axis_names), FadeOut(self.labels[0]),
                                                FadeOut(self.labels[1])],
                     **FACE_ON)
        self.wait(hold)

    def pull_inside(self) -> None:
        """ε > 0: the camera moves in, each output slides inward along its ray to √n·σ/√(σ² + ε), and
        each is named by its σ; the readout lists σ and the length."""
        colors, fmt = self.palette, self.fmt
        header = self.text("readout.epsilon", font_size=SMALL_SIZE, **self.values)
        rows = [self.text("readout.row", font_size=SMALL_SIZE, sigma=fmt.number(float(s)), length=fmt.number(float(r)))
                for s, r in zip(self.sigmas, self.radii)]
        self.readout = VGroup(*(fit_width(line, COLUMN) for line in (header, *rows)))
        self.readout.arrange(DOWN, aligned_edge=LEFT, buff=0.14).to_corner(DL, buff=EDGE)
        self.renderer.camera.add_fixed_in_frame_mobjects(self.readout)  # shown by FadeIn
        self.shortfalls = VGroup(*(DashedLine(to_points(self.axes, p), to_points(self.axes, q), color=colors.input,
                                              stroke_width=2, dash_length=0.06)
                                   for p, q in zip(self.outputs, self.ideal)))
        moves = [dot.animate.move_to(to_points(self.axes, p)) for dot, p in zip(self.epsilon_dots, self.outputs)]
        hold = self.caption("epsilon", run_time=2.5, hold=1.5, **self.values)
        self.turn_to(run_time=2.5, zoom=CLOSE_RADIUS / self.near_extent, added_anims=[
            *moves, FadeIn(self.readout, lag_ratio=0.2), Create(self.shortfalls)], **FACE_ON)
        self.sigma_labels = VGroup(*(
            pin_label(self, self.axes, p, math_mobject(f"sigma = {fmt.number(float(s))}", colors.input, 26),
                      _outward(p), buff=0.08)
            for p, s in zip(self.outputs, self.sigmas)))
        self.play(FadeIn(self.sigma_labels), run_time=0.5)
        self.wait(hold)

    def plot_radius(self) -> None:
        """The radius against σ at this ε, with the sphere's √n as its ceiling and the inputs marked."""
        colors, spec = self.palette, self.spec
        y_top = math.ceil(self.radius / 0.5 + 0.2) * 0.5
        x_range = (0, self.sigma_top, nice_step(self.sigma_top))
        axes = make_axes(x_range, (0, y_top, 0.5), PLOT_WIDTH, PLOT_HEIGHT, colors, lang=self.spec.lang)
        labels = axis_labels(axes, self.words("plot.x"), self.words("plot.y", **self.values), spec.lang, colors.text,
                             font_size=SMALL_SIZE)
        ceiling = DashedLine(axes.c2p(0, self.radius), axes.c2p(self.sigma_top, self.radius), color=colors.rmsnorm,
                             stroke_width=2, dash_length=0.08)
        ceiling_label = self.formula(f"sqrt({self.n})", font_size=SMALL_SIZE, color=colors.rmsnorm)
        ceiling_label.next_to(axes.c2p(self.sigma_top, self.radius), RIGHT, buff=0.1)
        self.radius_curve = curve(axes, self.plot_sigmas, self.plot_radii, colors.layernorm, stroke_width=3)
        self.plot_marks = VGroup(*(dot_at(axes, (float(s), float(r)), colors.input, radius=0.06)
                                   for s, r in zip(self.sigmas, self.radii)))
        plot = VGroup(axes, labels, ceiling, ceiling_label, self.radius_curve, self.plot_marks)
        if self.layout.stacked and self.layout.content_width < ROW_WIDTH:  # a tall frame: above the readout
            plot.next_to(self.readout, UP, buff=0.35).to_edge(LEFT, buff=EDGE + 0.3)
        else:
            plot.to_corner(DR, buff=EDGE).shift(UL * 0.1)
        self.plot_axes, self.plot = axes, plot
        self.renderer.camera.add_fixed_in_frame_mobjects(plot)  # shown by FadeIn
        self.say("radius", FadeIn(VGroup(axes, labels, ceiling, ceiling_label)), Create(self.radius_curve),
                 FadeIn(self.plot_marks), run_time=2.0, hold=1.5, **self.values)

    def stretch_by_gamma(self) -> None:
        """γ ⊙: the circle becomes an ellipse tilted out of the plane; the outputs follow (the ε outputs
        stay, faint). The camera returns to an oblique view and zooms out to hold the ellipse."""
        colors = self.palette
        self.affine_dots = VGroup(*(self.facing(dot_at(self.axes, p, colors.input, radius=0.08))
                                    for p in self.outputs))
        self.add(self.affine_dots)
        self.stretched = space_polyline(self.axes, self.stretched_points, colors.layernorm, 5, closed=True)
        self.settings = VGroup(*(fit_width(line, COLUMN + 1.2) for line in (
            self.text("readout.gamma", font_size=SMALL_SIZE, **self.values),
            self.text("readout.beta", font_size=SMALL_SIZE, **self.values),
            self.formula(OUTPUT_SET, font_size=28, color=colors.layernorm),
        )), self.text("credit", font_size=SMALL_SIZE, color=colors.muted)).arrange(DOWN, aligned_edge=LEFT, buff=0.16).to_corner(DL, buff=EDGE)
        self.fix_in_frame(self.settings)
        self.settings.set_opacity(0)
        moves = [dot.animate.move_to(to_points(self.axes, p))
                 for dot, p in zip(self.affine_dots, self.stretched_outputs)]
        hold = self.caption("gamma", run_time=3.0, hold=1.0, **self.values)
        self.turn_to(run_time=3.0, zoom=AFFINE_RADIUS / self.far_extent, added_anims=[
            ReplacementTransform(self.circle.copy(), self.stretched), *moves,
            self.epsilon_dots.animate.set_opacity(0.3), FadeOut(self.shortfalls), FadeOut(self.sigma_labels),
            FadeOut(self.readout), self.settings[0].animate.set_opacity(1), FadeOut(self.labels[2]),
            self.circle.animate.set_stroke(opacity=0.45), FadeOut(self.sphere)], **AFFINE_VIEW)
        self.wait(hold)

    def shift_by_beta(self) -> None:
        """+ β: the ellipse and the outputs move by the same vector; β named at its tip."""
        colors = self.palette
        arrow = space_segment(self.axes, self.origin, self.beta, colors.emphasis, stroke_width=4)
        self.beta_arrow = self.tipped(arrow)
        beta_label = pin_label(self, self.axes, self.beta, math_mobject("beta", colors.emphasis, 32), _outward(self.beta))
        self.output_curve = space_polyline(self.axes, self.curve_points, colors.layernorm, 6, closed=True)
        self.output_label = self.label("label.ellipse", outermost(self.renderer.camera, self.axes, self.curve_points,
                                                                self.layout.pick(RIGHT, UP)),
                                       colors.layernorm, self.layout.pick(RIGHT, UP))
        moves = [dot.animate.move_to(to_points(self.axes, p)) for dot, p in zip(self.affine_dots, self.affine_outputs)]
        # the plane named again (H, as it was named first), at its lowest corner in this view
        plane_label = pin_label(self, self.axes, outermost(self.renderer.camera, self.axes, self.plane_corners, DOWN),
                                math_mobject("H", colors.hyperplane, 34), DL)
        self.say("beta", Create(self.beta_arrow), FadeIn(beta_label), FadeIn(plane_label), ReplacementTransform(self.stretched, self.output_curve),
                 *moves, FadeIn(self.output_label), self.settings[1].animate.set_opacity(1), run_time=2.5, hold=1.5,
                 when=claim(self.placement, "leaves_hyperplane"), **self.values)

    def name_the_output_set(self) -> None:
        """The set, as a formula credited to Riechers (2024); the narration says when the sphere and the hyperplane hold."""
        self.say("summary", self.settings[2].animate.set_opacity(1), self.settings[3].animate.set_opacity(1), run_time=1.5, hold=2.5, **self.values)

    # ------------------------------------------------------------------ helpers
    def label(self, key: str, point, color: str, direction):
        """Text ``key`` beside the core point ``point``, following it as the camera turns."""
        return pin_label(self, self.axes, point, self.text(key, font_size=SMALL_SIZE, color=color, **self.values),
                         direction)

    def facing(self, mobject):
        """Keep a flat mark (a dot) facing the camera, wherever it moves."""
        self.renderer.camera.add_fixed_orientation_mobjects(mobject)
        return mobject

    def tipped(self, segment: VGroup) -> VGroup:
        """A segment whose tip dot faces the camera."""
        self.facing(segment[1])
        return segment


def _outward(point) -> np.ndarray:
    """The screen direction a label of a point takes: away from the figure's centre in the point's
    first two coordinates' quadrant (a drawing choice, not geometry)."""
    return UR if point[0] >= point[1] else DL


def nice_ceiling(value: float) -> float:
    """The smallest multiple of a round step (1, 2 or 5 × 10^k, about four per ``value``) at or above ``value``."""
    step = nice_step(value)
    return step * math.ceil(value / step - 1e-9)
