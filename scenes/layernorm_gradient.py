"""Scene ``layernorm-gradient`` (C3): the backward pass keeps only the part of g tangent to the circle.

LayerNorm's Jacobian at ε = 0 is (1/σ)(I − 11ᵀ/n − x̂x̂ᵀ/n): an incoming gradient loses its parts
along 1 and along x̂ and is scaled by 1/σ. Because x = μ·1 + σ·x̂, the gradient with respect to
weights in front of the norm is orthogonal to them: plain SGD only lengthens W; what weight decay does
to it over the run shown (holds it, shrinks it, slows it, or barely) is the core's ``decay_effect``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DEGREES, DOWN, DR, LEFT, RIGHT, UL, UP, UR, Create, FadeIn, FadeOut, VGroup

from normgeo import (
    circle_in_plane,
    euclidean_norm,
    hyperplane_basis,
    norm_growth_run,
    ones_direction,
    output_radius,
    square_in_plane,
)
from normgeo.gradient_orthogonality import layer_norm_gradient_split, norm_growth_summary, round_up
from scenes.kit.adapters import make_space_axes
from scenes.kit.base import EDGE, SMALL_SIZE, NormGeoThreeDScene, fit_width
from scenes.kit.frame_layout import keep_clear
from scenes.kit.claims import claim
from scenes.kit.plots import axis_labels, curve, make_axes, nice_step
from scenes.kit.spec import SceneSpec, SpecError, Vector, check_vectors, setting
from scenes.kit.depth import DepthSphere, axis_names
from scenes.kit.widgets import space_polygon, space_polyline, space_segment

__all__ = ["LayerNormGradientSpec", "LayerNormGradient"]

# One oblique view for the whole scene; the geometry fills a disc of GEOMETRY_RADIUS scene units
# around GEOMETRY_CENTER (left half of the screen), the right column holds the numbers and the plot.
GEOMETRY_RADIUS = 3.3
GEOMETRY_CENTER = np.array([-3.6, -0.5, 0.0])
VIEW = {"phi": 80 * DEGREES, "theta": 10 * DEGREES}
COLUMN_LEFT = 0.35
COLUMN_WIDTH = 6.4
STACKED_GEOMETRY_RADIUS = 2.8  # in a square or tall frame, above the readout
JACOBIAN = "J = 1 / sigma (I - (bold(1) bold(1)^T) / n - (hat(x) hat(x)^T) / n)"


@dataclass(frozen=True)
class LayerNormGradientSpec(SceneSpec):
    """The 3-D input x and the incoming gradient g; the toy SGD run on LN(Wx) with and without decay."""

    vector: Vector = setting((2.2, 0.4, 1.6), items=(3, 3))
    gradient: Vector = setting((1.5, 0.5, -0.3), items=(3, 3))
    steps: int = setting(300, low=10, high=2000)
    learning_rate: float = setting(0.5, low=1e-3, high=2)
    initial_norm: float = setting(2.0, low=0.1, high=20)
    weight_decay: float = setting(0.02, low=1e-4, high=0.2)
    seed: int = setting(0, low=0, high=2**32 - 1)

    def validate(self) -> None:
        check_vectors("vector", (self.vector,), dim=3, max_length=20)
        check_vectors("gradient", (self.gradient,), dim=3, max_length=5)
        if max(self.vector) - min(self.vector) < 1e-2:
            raise SpecError("vector: its entries must not all be equal (σ = 0: LayerNorm is undefined at ε = 0)")
        split = layer_norm_gradient_split(self.vector, self.gradient)
        if euclidean_norm(split.tangent) < 0.05 * euclidean_norm(split.gradient):
            raise SpecError("gradient: it lies (almost) in the span of 1 and x̂, so nothing would be left to show")


class LayerNormGradient(NormGeoThreeDScene):
    """x̂ on the circle; g at x̂ split into its parts along 1, along x̂ and tangent; Jᵀg = t/σ;
    then ‖W‖ along a toy SGD run with and without weight decay."""

    spec_class = LayerNormGradientSpec

    def construct(self) -> None:
        self.compute()
        self.show_output_on_circle()
        self.bring_gradient()
        self.drop_normal_parts()
        self.scale_tangent_part()
        self.turn_to_weights()
        self.plot_plain_sgd()
        self.plot_weight_decay()

    def compute(self) -> None:
        """Everything the scene shows, from the core: the split of g and Jᵀg, and the two SGD runs."""
        spec, fmt = self.spec, self.fmt
        self.split = split = layer_norm_gradient_split(spec.vector, spec.gradient)
        self.radius = output_radius("layernorm", 3)
        self.u, self.w = hyperplane_basis(3)
        self.plain = norm_growth_run(spec.steps, spec.learning_rate, 0.0, spec.initial_norm, seed=spec.seed)
        self.decayed = norm_growth_run(spec.steps, spec.learning_rate, spec.weight_decay, spec.initial_norm,
                                       seed=spec.seed)
        self.plain_summary, self.decayed_summary = norm_growth_summary(self.plain), norm_growth_summary(self.decayed)
        drawn = np.array([split.output + split.gradient, split.output + split.input_gradient,
                          split.output + split.along_ones, split.output + split.along_output])
        self.extent = 1.15 * max(float(euclidean_norm(drawn).max()), self.radius)
        self.values = {
            "x": fmt.vector(spec.vector),
            "sigma": fmt.number(split.sigma),
            "output": fmt.vector(split.output, 2),
            "g": fmt.vector(split.gradient, 2),
            "ones_part": fmt.vector(split.along_ones, 2),
            "output_part": fmt.vector(split.along_output, 2),
            "jg": fmt.vector(split.input_gradient, 2),
            "ones_inner": fmt.scientific(split.ones_inner),
            "output_inner": fmt.scientific(split.output_inner),
            "input_inner": fmt.scientific(split.input_inner),
            # the bound rounded up: rounded to nearest it could sit below the largest cosine of the runs
            "cosine": fmt.scientific(round_up(max(self.plain_summary.largest_cosine,
                                                  self.decayed_summary.largest_cosine), 3)),
            "lr": fmt.scientific(spec.learning_rate),
            "wd": fmt.scientific(spec.weight_decay),
        }
        self.caption_norms = {
            "start": fmt.number(self.plain.weight_norms[0], 2),
            "end": fmt.number(self.plain.weight_norms[-1], 2),
            "decayed_end": fmt.number(self.decayed.weight_norms[-1], 2),
        }

    # ------------------------------------------------------------------ steps
    def show_output_on_circle(self) -> None:
        """Axes, plane, sphere (faint), the circle plane ∩ sphere and x̂; the formula and the first readout line."""
        colors, extent, layout = self.palette, self.extent, self.layout
        radius = layout.pick(GEOMETRY_RADIUS, STACKED_GEOMETRY_RADIUS)
        title = self.make_title()
        heading = self.text("jacobian-heading", font_size=SMALL_SIZE, color=colors.muted)
        formula = self.formula(JACOBIAN, font_size=26)
        self.jacobian = VGroup(heading, formula).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        fit_width(self.jacobian, layout.pick(COLUMN_WIDTH, layout.content_width))
        if layout.stacked:  # the Jacobian under the title, the geometry under it, the readout and plot below
            self.jacobian.next_to(title, DOWN, buff=0.25).to_edge(LEFT, buff=EDGE)
            center = np.array([0.0, self.jacobian.get_bottom()[1] - 0.25 - radius, 0.0])
        else:
            self.jacobian.to_corner(UR, buff=EDGE)
            center = GEOMETRY_CENTER
        self.geometry_bottom = center[1] - radius
        self.set_camera_orientation(zoom=radius / extent, **VIEW)
        self.axes = axes = make_space_axes(0.85 * extent, 1.7 * extent, colors)  # short of the title
        self.place_origin_at(center, radius / extent)
        plane = space_polygon(axes, square_in_plane(self.u, self.w, 0.75 * extent), colors.hyperplane, opacity=0.14)
        ones = ones_direction(3)
        ones_line = space_polyline(axes, [-extent * ones, extent * ones], colors.ones, 2).set_stroke(opacity=0.5)
        sphere = DepthSphere(axes, self.renderer.camera, self.radius, colors.rmsnorm, stroke_width=1.5)
        names = axis_names(self, axes, 0.85 * extent, colors.muted)
        self.circle = space_polyline(axes, circle_in_plane(self.u, self.w, self.radius, samples=120),
                                     colors.layernorm, 4, closed=True)
        self.output_arrow = self.tipped(space_segment(axes, np.zeros(3), self.split.output, colors.layernorm, 6))
        self.fix_in_frame(title)
        self.readout = self.make_readout()
        self.fix_in_frame(self.jacobian)
        self.renderer.camera.add_fixed_in_frame_mobjects(self.readout)  # each line shown by its step
        self.output_label = self.arrow_label("label.output", self.split.output / 2, UP, colors.layernorm)
        self.say("intro", FadeIn(title), self.output_label.animate.set_opacity(1), Create(axes), Create(plane), Create(ones_line), Create(sphere),
                 FadeIn(names), Create(self.circle), Create(self.output_arrow), FadeIn(self.jacobian),
                 FadeIn(self.readout[0]), run_time=2.0, hold=0.8)

    def bring_gradient(self) -> None:
        colors, split = self.palette, self.split
        self.gradient_arrow = self.tipped(space_segment(self.axes, split.output, split.output + split.gradient,
                                                       colors.input, 5))
        self.gradient_label = self.arrow_label("label.gradient", split.output + split.gradient, LEFT, colors.input)
        self.say("gradient", Create(self.gradient_arrow), self.gradient_label.animate.set_opacity(1), FadeIn(self.readout[1]),
                 run_time=1.2, hold=0.5, g=self.values["g"])

    def drop_normal_parts(self) -> None:
        """The parts along 1 and along x̂ (drawn from x̂, then dimmed) and the tangent part that stays."""
        colors, split, axes = self.palette, self.split, self.axes
        start = split.output
        self.ones_arrow = self.tipped(space_segment(axes, start, start + split.along_ones, colors.ones, 5))
        self.radial_arrow = self.tipped(space_segment(axes, start, start + split.along_output, colors.rmsnorm, 5))
        self.tangent_arrow = self.tipped(space_segment(axes, start, start + split.tangent, colors.hyperplane, 5))
        hold = self.caption("drop", run_time=2.5, hold=1.0)
        self.play(Create(self.ones_arrow), Create(self.radial_arrow), run_time=1.0)
        self.play(Create(self.tangent_arrow), FadeOut(self.readout[0]), FadeOut(self.readout[1]), FadeIn(self.readout[2]),
                  self.ones_arrow.animate.set_opacity(0.45), self.radial_arrow.animate.set_opacity(0.45),
                  self.gradient_arrow.animate.set_opacity(0.45), self.gradient_label.animate.set_opacity(0.45),
                  run_time=1.5)
        self.wait(hold)

    def scale_tangent_part(self) -> None:
        """Jᵀg = t/σ from the Jacobian, drawn from x̂; its inner products with 1 and x̂."""
        split = self.split
        self.input_gradient_arrow = self.tipped(space_segment(self.axes, split.output, split.output + split.input_gradient,
                                                              self.palette.emphasis, 7))
        label = self.arrow_label("label.input-gradient", split.output + split.input_gradient, RIGHT,
                                 self.palette.emphasis)
        keep_clear(label, self.gradient_label, self.output_label)  # g's tip may lie beside Jᵀg's
        self.say("scale", Create(self.input_gradient_arrow), label.animate.set_opacity(1), FadeOut(self.readout[2]),
                 FadeIn(self.readout[3]), FadeIn(self.readout[4]), run_time=1.5, hold=1.0,
                 sigma=self.values["sigma"])

    def turn_to_weights(self) -> None:
        self.say("weights", FadeOut(self.readout[3]), FadeOut(self.readout[4]), FadeIn(self.readout[5]),
                 run_time=1.0, hold=1.0)

    def plot_plain_sgd(self) -> None:
        """‖W‖ along plain SGD (λ = 0) on the toy problem, the curve named at its end."""
        colors, spec = self.palette, self.spec
        steps = np.arange(self.plain.weight_norms.size)
        top = float(max(self.plain.weight_norms.max(), self.decayed.weight_norms.max()))
        self.plot_axes = make_axes((0, spec.steps, nice_step(spec.steps)), (0, 1.12 * top, nice_step(top)),
                                   5.4, 1.85, colors, lang=self.spec.lang)
        self.plot_axes.next_to(self.readout, DOWN, buff=0.6).align_to(self.readout, LEFT).shift(RIGHT * 0.4)
        labels = axis_labels(self.plot_axes, self.words("step-axis"), self.words("norm-axis"), spec.lang, colors.text,
                             font_size=SMALL_SIZE)
        # the decayed run is drawn thinner, on top: where the two coincide (a small λ) both stay visible
        self.plain_curve = curve(self.plot_axes, steps, self.plain.weight_norms, colors.input, 6)
        self.decayed_curve = curve(self.plot_axes, steps, self.decayed.weight_norms, colors.emphasis, 2.5)
        self.decayed_curve.set_stroke(opacity=0.9)
        effective = self.plain_summary.effective_steps
        end = self.plot_axes.c2p(spec.steps, self.plain.weight_norms[-1])
        self.plain_label = self.text("label.plain", font_size=SMALL_SIZE, color=colors.input,
                                     first=self.fmt.number(effective[0], 2), last=self.fmt.number(effective[-1], 2))
        self.plain_label.next_to(end, UL, buff=0.1)
        decayed_end = self.plot_axes.c2p(spec.steps, self.decayed.weight_norms[-1])
        self.decay_label = self.text("label.decay", font_size=SMALL_SIZE, color=colors.emphasis, wd=self.values["wd"])
        self.decay_label.next_to(decayed_end, DOWN + LEFT, buff=0.1)
        keep_clear(self.decay_label, self.plain_label)
        self.fix_in_frame(self.plot_axes, labels, self.plain_curve)
        self.renderer.camera.add_fixed_in_frame_mobjects(self.plain_label, self.decay_label)
        self.say("growth", Create(self.plot_axes), FadeIn(labels), Create(self.plain_curve), FadeIn(self.plain_label),
                 FadeIn(self.readout[6]), run_time=2.0, hold=0.8, when=claim(self.plain, "norm_trend"),
                 lr=self.fmt.plain_scientific(spec.learning_rate), steps=spec.steps, **self.caption_norms)

    def plot_weight_decay(self) -> None:
        self.fix_in_frame(self.decayed_curve)
        self.say("decay", Create(self.decayed_curve), FadeIn(self.decay_label), run_time=1.5, hold=1.5,
                 when=claim(self.decayed, "decay_effect", self.plain), wd=self.fmt.plain_scientific(self.spec.weight_decay),
                 **self.caption_norms)

    # ------------------------------------------------------------------ helpers
    def make_readout(self) -> VGroup:
        """The right column's lines, in the colours of the arrows they describe, shown a step or two at a
        time in one place under the Jacobian: (x̂; g), (the dropped parts), (Jᵀg; inner products),
        (the weights; the toy run)."""
        colors, values = self.palette, self.values
        lines = VGroup(
            self.text("readout.output", font_size=SMALL_SIZE, color=colors.layernorm, **values),
            self.text("readout.gradient", font_size=SMALL_SIZE, color=colors.input, **values),
            self.text("readout.dropped", font_size=SMALL_SIZE, color=colors.ones, **values),
            self.text("readout.input-gradient", font_size=SMALL_SIZE, color=colors.emphasis, **values),
            self.text("readout.inner", font_size=SMALL_SIZE, **values),
            self.text("readout.weights", font_size=SMALL_SIZE, **values),
            self.text("readout.run", font_size=SMALL_SIZE, color=colors.muted, **values),
        )
        layout = self.layout
        for line in lines:
            fit_width(line, layout.pick(COLUMN_WIDTH, layout.content_width))  # each on its own: one long line shrinks no other
        gap = layout.pick(0.15, 0.1)
        for pair in ((0, 1), (2,), (3, 4), (5, 6)):
            VGroup(*(lines[i] for i in pair)).arrange(DOWN, aligned_edge=LEFT, buff=gap)
        top = lines[0].get_top()
        for first in (2, 3, 5):
            group = VGroup(*(lines[i] for i in ((first,) if first == 2 else (first, first + 1))))
            group.shift(top - group[0].get_top() + (lines[0].get_left() - group[0].get_left()) * np.array([1, 0, 0]))
        if layout.stacked:
            lines.next_to(np.array([0.0, self.geometry_bottom, 0.0]), DOWN, buff=0.2).to_edge(LEFT, buff=EDGE)
        else:
            lines.next_to(self.jacobian, DOWN, buff=0.3).align_to(np.array([COLUMN_LEFT, 0, 0]), LEFT)
        return lines

    def place_origin_at(self, screen_point, zoom: float) -> None:
        """Move the axes (and so everything drawn on them) to the 3-D point that the camera shows at
        ``screen_point`` (a layout choice: it lies in the screen plane, so it keeps its size)."""
        rotation = self.renderer.camera.generate_rotation_matrix()
        self.axes.shift(rotation.T @ (np.asarray(screen_point) / zoom))

    def arrow_label(self, key: str, point, direction, color: str):
        """A label fixed in the frame beside where the camera shows the core point ``point``."""
        camera = self.renderer.camera
        camera.reset_rotation_matrix()  # the view set in the first step, even before a frame is drawn
        screen = camera.project_point(self.axes.c2p(*point))
        label = self.text(key, font_size=SMALL_SIZE + 2, color=color).next_to(screen, direction, buff=0.12)
        self.fix_in_frame(label)
        label.set_opacity(0)
        return label

    def tipped(self, segment: VGroup) -> VGroup:
        """Keep a segment's tip dot facing the camera."""
        self.renderer.camera.add_fixed_orientation_mobjects(segment[1])
        return segment
