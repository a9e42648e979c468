"""Scene 6, ``rmsnorm-vs-layernorm`` (C2): LN(x) = RMSNorm(x − μ·1); the two differ by arctan(|μ|/σ)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    Dot,
    DL,
    DR,
    DOWN,
    LEFT,
    RIGHT,
    UL,
    UP,
    UR,
    Circle,
    Create,
    DashedLine,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromPoint,
    Line,
    Square,
    ReplacementTransform,
    VGroup,
    VMobject,
)

from normgeo import (
    centring_angle_sweep,
    decompose,
    euclidean_norm,
    hyperplane_basis,
    layer_norm,
    ones_direction,
    output_radius,
    rms_layer_norm_angle,
    rms_norm,
)
from normgeo.centring_parts import arc_between, mean_and_spread
from scenes.kit.adapters import make_plane, to_points
from scenes.kit.base import SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.plots import axis_labels, curve, make_axes, nice_step
from scenes.kit.spec import SceneSpec, SpecError, Vectors, check_vectors, setting
from scenes.kit.widgets import circle_of_radius, dot_at, segment, vector_arrow

__all__ = ["RmsNormVsLayerNormSpec", "RmsNormVsLayerNorm"]

# LN(x) = RMSNorm(x − μ·1) at ε = 0, before γ and β (Typst math, the same in every language).
IDENTITY = 'op("LN")(x) = op("RMSNorm")(x - mu bold(1))'
NAMES = ("x", "z")  # the two inputs, as the text calls them
SWEEP_SAMPLES = 161
ARC_RADIUS = 0.75  # in plane units
PLOT_WIDTH, PLOT_HEIGHT = 5.0, 1.7
# The inset: the neighbourhood of the second input's two outputs magnified INSET_ZOOM times, drawn in the
# empty wedge above the origin (between the direction 1 and the zero-mean line), INSET_SIDE of the figure.
INSET_ZOOM = 6.0
INSET_SIDE = 0.36
INSET_AT = (0.0, 0.6)  # its centre, in the figure's extent


@dataclass(frozen=True)
class RmsNormVsLayerNormSpec(SceneSpec):
    """Two 2-D inputs (by default one with a large mean, one nearly orthogonal to 1) and the μ/σ range plotted."""

    vectors: Vectors = setting(((2.2, 0.6), (1.3, -1.1)), items=(2, 2))
    max_ratio: float = setting(4.0, low=1, high=20)

    def validate(self) -> None:
        check_vectors("vectors", self.vectors, dim=2, max_length=50)
        for index, v in enumerate(self.vectors):
            if abs(v[0] - v[1]) < 1e-3:
                raise SpecError(f"vectors: vector {index + 1} has equal entries (σ = 0: LayerNorm is undefined)")
        for index, ratio in enumerate(mean_and_spread(np.array(self.vectors)).ratio):
            if abs(ratio) > self.max_ratio:
                raise SpecError(f"vectors: vector {index + 1} has μ/σ = {ratio:.3g}, outside the plotted range "
                                f"±{self.max_ratio:g} (raise max_ratio)")


class RmsNormVsLayerNorm(NormGeoScene):
    """RMSNorm(x) on the circle √2 along x; LN(x) = RMSNorm(x − μ·1) on the line; the angle between them."""

    spec_class = RmsNormVsLayerNormSpec
    stacked_column_height = 7.6  # identity, readout, plot and remark

    def construct(self) -> None:
        self.normalize()
        self.draw_circle_and_line()
        self.apply_rms_norm(0)
        self.subtract_mean(0)
        self.rms_norm_of_centred(0)
        self.mark_angle(0)
        self.plot_angle()
        self.second_input()
        self.when_they_coincide()

    # ------------------------------------------------------------------ numbers
    def normalize(self) -> None:
        """Everything the scene shows, from the core: for each input μ, σ, μ/σ, RMSNorm(x), the centred
        part, RMSNorm of it and LN(x), the angle and its arc; the sweep of the angle against μ/σ."""
        spec, fmt = self.spec, self.fmt
        self.inputs = np.array(spec.vectors, dtype=float)
        self.n = 2
        self.parts = decompose(self.inputs)
        self.stats = mean_and_spread(self.inputs)
        self.rms = rms_norm(self.inputs, eps=0.0)
        self.rms_of_centred = rms_norm(self.parts.centred_part, eps=0.0)
        self.ln = layer_norm(self.inputs, eps=0.0)
        self.angles = np.degrees(rms_layer_norm_angle(self.inputs))
        self.arcs = [arc_between(r, ln, ARC_RADIUS, samples=40) for r, ln in zip(self.rms, self.ln)]
        self.radius = output_radius("rmsnorm", self.n)
        (self.direction,) = hyperplane_basis(self.n)
        self.ones = ones_direction(self.n)
        self.sweep = centring_angle_sweep(np.linspace(-spec.max_ratio, spec.max_ratio, SWEEP_SAMPLES), n=self.n)
        self.sweep_degrees = np.degrees(self.sweep.measured)
        self.extent = 1.12 * max(float(euclidean_norm(self.inputs).max()), self.radius)
        self.origin = np.zeros(self.n)
        self.values = [
            {
                "name": NAMES[k],
                "x": fmt.vector(self.inputs[k]),
                "mean": fmt.number(float(self.stats.mean[k])),
                "spread": fmt.number(float(self.stats.spread[k])),
                "ratio": fmt.number(float(self.stats.ratio[k])),
                "mean_part": fmt.vector(self.parts.mean_part[k]),
                "centred": fmt.vector(self.parts.centred_part[k]),
                "rms": fmt.vector(self.rms[k]),
                "ln": fmt.vector(self.ln[k]),
                "angle": fmt.number(float(self.angles[k]), 1),
                "radius": fmt.number(self.radius),
                "n": self.n,
            }
            for k in range(len(self.inputs))
        ]
        self.drawn: list[dict] = [{} for _ in self.inputs]

    # ------------------------------------------------------------------ steps
    def draw_circle_and_line(self) -> None:
        """The plane, RMSNorm's circle √2, the zero-mean line and the direction 1, each labelled."""
        colors, extent = self.palette, self.extent
        title = self.make_title()
        self.plane = make_plane(extent, self.layout.figure_height, self.layout.figure_center, colors)
        circle = circle_of_radius(self.plane, self.radius, colors.rmsnorm)
        line = segment(self.plane, -extent * self.direction, extent * self.direction, colors.hyperplane, 4)
        ones = DashedLine(*to_points(self.plane, [-extent * self.ones, extent * self.ones]), color=colors.ones,
                          stroke_width=2, dash_length=0.1).set_opacity(0.6)
        circle_label = self.text("label.circle", font_size=SMALL_SIZE, color=colors.rmsnorm, **self.values[0])
        circle_label.next_to(to_points(self.plane, [0.0, -self.radius]), DOWN, buff=0.12)
        line_label = self.text("label.line", font_size=SMALL_SIZE, color=colors.hyperplane)
        line_label.next_to(to_points(self.plane, 0.82 * extent * self.direction), RIGHT, buff=0.15)
        self.identity = VGroup(self.formula(IDENTITY, font_size=30, color=colors.layernorm),
                               self.text("identity-note", font_size=SMALL_SIZE, color=colors.muted))
        self.identity.arrange(RIGHT, buff=0.3)
        self.layout.start_column(fit_width(self.identity, self.layout.column_width), self.plane)
        self.say("intro", FadeIn(title), Create(self.plane), Create(circle), Create(line), Create(ones),
                 FadeIn(circle_label), FadeIn(line_label), run_time=1.8, hold=0.8, **self.values[0])

    def apply_rms_norm(self, k: int) -> None:
        """The input and RMSNorm of it: on the circle, in the input's direction."""
        colors, drawn = self.palette, self.drawn[k]
        drawn["x"] = vector_arrow(self.plane, self.inputs[k], colors.input, stroke_width=4)
        drawn["rms"] = dot_at(self.plane, self.rms[k], colors.rmsnorm, radius=0.09)
        drawn["ray"] = self.ray(k)
        drawn["readout"] = self.readout(k)
        self.say("rms", GrowArrow(drawn["x"]), Create(drawn["ray"]), FadeIn(drawn["rms"]),
                 FadeIn(drawn["readout"][0]), FadeIn(drawn["readout"][1]), run_time=1.5, hold=0.8, **self.values[k])

    def subtract_mean(self, k: int) -> None:
        """x = μ·1 + (x − μ·1): the mean part along 1, the centred part moved to the origin lands on the line."""
        colors, drawn, parts = self.palette, self.drawn[k], self.parts
        drawn["mean"] = vector_arrow(self.plane, parts.mean_part[k], colors.ones, stroke_width=4)
        from_mean = vector_arrow(self.plane, self.inputs[k], colors.hyperplane, stroke_width=4,
                                 start=parts.mean_part[k])
        drawn["centred"] = vector_arrow(self.plane, parts.centred_part[k], colors.hyperplane, stroke_width=4)
        hold = self.caption("centre", run_time=2.5, hold=0.8, **self.values[k])
        self.play(GrowArrow(drawn["mean"]), GrowArrow(from_mean), run_time=1.0)
        self.play(ReplacementTransform(from_mean, drawn["centred"]), drawn["x"].animate.set_opacity(0.4), run_time=1.5)
        self.wait(hold)

    def rms_norm_of_centred(self, k: int) -> None:
        """RMSNorm of the centred part lands exactly where LN(x) does (the ring): LN(x) = RMSNorm(x − μ·1)."""
        colors, drawn = self.palette, self.drawn[k]
        drawn["rms_of_centred"] = dot_at(self.plane, self.rms_of_centred[k], colors.layernorm, radius=0.09)
        drawn["ln"] = self.ring(k)
        to_circle = vector_arrow(self.plane, self.rms_of_centred[k], colors.hyperplane, stroke_width=4)
        anims = [ReplacementTransform(drawn["centred"], to_circle), FadeIn(drawn["rms_of_centred"]),
                 Create(drawn["ln"]), FadeIn(drawn["readout"][2])]
        if k == 0:
            anims.append(FadeIn(self.identity))
        drawn["centred"] = to_circle
        self.say("centred-rms", *anims, run_time=1.5, hold=1.0, **self.values[k])

    def mark_angle(self, k: int) -> None:
        """The arc from RMSNorm(x) to LN(x): arctan(|μ|/σ)."""
        drawn = self.drawn[k]
        drawn["arc"] = self.arc(k)
        self.say("angle", Create(drawn["arc"]), FadeIn(drawn["readout"][3]), run_time=1.2, hold=1.0, **self.values[k])

    def plot_angle(self) -> None:
        """The angle against μ/σ from the sweep (measured between the two outputs), with x marked on it."""
        colors, spec = self.palette, self.spec
        limit = spec.max_ratio
        axes = make_axes((-limit, limit, nice_step(2 * limit)), (0, 90, 30), PLOT_WIDTH, PLOT_HEIGHT, colors, lang=self.spec.lang)
        labels = axis_labels(axes, self.words("plot.x"), self.words("plot.y"), spec.lang, colors.text,
                             font_size=SMALL_SIZE)
        self.angle_curve = curve(axes, self.sweep.ratios, self.sweep_degrees, colors.emphasis, stroke_width=3)
        self.plot_marks = VGroup(*(dot_at(axes, (float(r), float(a)), colors.input, radius=0.07)
                                   for r, a in zip(self.stats.ratio, self.angles)))
        self.mark_labels = VGroup(*(
            self.formula(name, font_size=22, color=colors.input).next_to(mark, label_side(r), buff=0.05)
            for name, mark, r in zip(NAMES, self.plot_marks, self.stats.ratio)))
        plot = VGroup(axes, labels, self.angle_curve, self.plot_marks, self.mark_labels)
        self.plot_axes, self.plot = axes, plot
        fit_width(plot, self.layout.column_width)
        plot.next_to(self.drawn[0]["readout"], DOWN, buff=0.3, aligned_edge=LEFT)
        self.say("plot", Create(axes), FadeIn(labels), Create(self.angle_curve), FadeIn(self.plot_marks[0]),
                 FadeIn(self.mark_labels[0]), run_time=2.0, hold=1.0, **self.values[0])

    def second_input(self) -> None:
        """The second input all at once: its RMSNorm, LN and angle; the first input's drawing dims."""
        colors, first, k = self.palette, self.drawn[0], 1
        drawn = self.drawn[k]
        drawn["x"] = vector_arrow(self.plane, self.inputs[k], colors.input, stroke_width=4)
        drawn["ray"] = self.ray(k)
        drawn["rms"] = dot_at(self.plane, self.rms[k], colors.rmsnorm, radius=0.09)
        drawn["centred"] = vector_arrow(self.plane, self.rms_of_centred[k], colors.hyperplane, stroke_width=4)
        drawn["rms_of_centred"] = dot_at(self.plane, self.rms_of_centred[k], colors.layernorm, radius=0.09)
        drawn["ln"] = self.ring(k)
        drawn["arc"] = self.arc(k)
        drawn["readout"] = self.readout(k)
        faded = [first[key] for key in ("x", "ray", "rms", "mean", "centred", "arc")]
        self.say("second", *(m.animate.set_opacity(0.25) for m in faded), FadeOut(first["readout"]),
                 GrowArrow(drawn["x"]), Create(drawn["ray"]), FadeIn(drawn["rms"]), GrowArrow(drawn["centred"]),
                 FadeIn(drawn["rms_of_centred"]), Create(drawn["arc"]), FadeIn(drawn["readout"]),
                 FadeIn(self.plot_marks[k]), FadeIn(self.mark_labels[k]), run_time=2.0, hold=0.5, **self.values[k])
        self.inset = self.zoom_inset(k)
        self.play(GrowFromPoint(self.inset, to_points(self.plane, self.ln[k])), run_time=1.2)
        self.wait(1.0)

    def when_they_coincide(self) -> None:
        """μ ≈ 0: the two layers coincide; the reason Zhang & Sennrich (2019) offered for dropping the centring."""
        remark = self.text("remark", font_size=SMALL_SIZE, color=self.palette.text)
        fit_width(remark, self.layout.column_width).next_to(self.plot, DOWN, buff=0.3, aligned_edge=LEFT)
        self.remark = remark
        self.say("coincide", FadeIn(remark), run_time=1.2, hold=3.0)

    # ------------------------------------------------------------------ helpers
    def readout(self, k: int) -> VGroup:
        """Four lines for input k, under the identity: x, μ, σ; RMSNorm(x); RMSNorm(x − μ·1) = LN(x); the angle."""
        colors, values = self.palette, self.values[k]
        lines = VGroup(
            self.text("readout.input", font_size=SMALL_SIZE, **values),
            self.text("readout.rms", font_size=SMALL_SIZE, color=colors.rmsnorm, **values),
            self.text("readout.ln", font_size=SMALL_SIZE, color=colors.layernorm, **values),
            self.text("readout.angle", font_size=SMALL_SIZE, color=colors.emphasis, **values),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.16)
        fit_width(lines, self.layout.column_width).next_to(self.identity, DOWN, buff=0.35, aligned_edge=LEFT)
        return lines

    def zoom_inset(self, k: int) -> VGroup:
        """The neighbourhood of RMSNorm(input k) and LN(input k) magnified INSET_ZOOM times in a framed
        panel: the circle's arc, the input's ray and the zero-mean line through it, the two outputs and
        the angle between them, so that a few degrees read at a glance. Drawing only: every point is a
        core point mapped by one similarity (centre c, factor INSET_ZOOM)."""
        colors, plane = self.palette, self.plane
        unit = float(np.linalg.norm(to_points(plane, [1.0, 0.0]) - to_points(plane, [0.0, 0.0])))
        side = INSET_SIDE * self.layout.figure_height
        half = side / 2 / (INSET_ZOOM * unit)  # the half-side of the magnified window, in plane units
        centre_core = (self.rms[k] + self.ln[k]) / 2
        centre = to_points(plane, np.array(INSET_AT) * self.extent)

        def place(points):
            return centre + INSET_ZOOM * (to_points(plane, np.atleast_2d(points)) - to_points(plane, centre_core))

        def clipped_line(direction, color, width, dashed=False):
            along = float(direction @ centre_core)
            ts = np.linspace(along - 0.98 * half, along + 0.98 * half, 2)
            ends = place(np.outer(ts, direction))
            cls = DashedLine if dashed else Line
            return cls(ends[0], ends[1], color=color, stroke_width=width, **({"dash_length": 0.08} if dashed else {}))

        frame = Square(side_length=side, color=colors.muted, stroke_width=2, fill_color=colors.panel, fill_opacity=1)
        frame.move_to(centre)
        angle_mid = float(np.arctan2(centre_core[1], centre_core[0]))
        arc_angles = np.linspace(angle_mid - 0.9 * half / self.radius, angle_mid + 0.9 * half / self.radius, 40)
        arc = VMobject(color=colors.rmsnorm, stroke_width=4)
        arc.set_points_smoothly(place(self.radius * np.column_stack([np.cos(arc_angles), np.sin(arc_angles)])))
        rms_direction = self.rms[k] / np.linalg.norm(self.rms[k])
        ray = clipped_line(rms_direction, colors.rmsnorm, 2, dashed=True)
        line = clipped_line(self.direction, colors.hyperplane, 4)
        rms_dot = Dot(place(self.rms[k])[0], radius=0.09, color=colors.rmsnorm)
        ln_dot = Dot(place(self.ln[k])[0], radius=0.09, color=colors.layernorm)
        gap = VMobject(color=colors.emphasis, stroke_width=4)
        gap.set_points_as_corners(place(self.arcs[k] * (self.radius / ARC_RADIUS)))
        angle = self.formula(f"{self.values[k]['angle']} degree", font_size=30, color=colors.emphasis)
        angle.next_to(gap.get_center(), UL, buff=0.12)
        names = VGroup(self.formula('op("RMSNorm")', font_size=24, color=colors.rmsnorm).next_to(rms_dot, RIGHT, buff=0.15),
                       self.formula('op("LN")', font_size=24, color=colors.layernorm).next_to(ln_dot, DL, buff=0.08))
        zoom = self.formula(f"times {INSET_ZOOM:g}", font_size=24, color=colors.muted)
        zoom.next_to(frame.get_corner(UL), DR, buff=0.1)
        return VGroup(frame, arc, ray, line, gap, rms_dot, ln_dot, angle, names, zoom)

    def ray(self, k: int) -> DashedLine:
        """The dashed ray from the origin to RMSNorm(x): RMSNorm keeps the input's direction."""
        return DashedLine(*to_points(self.plane, [self.origin, self.rms[k]]), color=self.palette.rmsnorm,
                          stroke_width=2, dash_length=0.08)

    def ring(self, k: int) -> Circle:
        """A ring around LN(x), computed directly (not from the centred vector)."""
        ring = Circle(radius=0.16, color=self.palette.layernorm, stroke_width=3)
        return ring.move_to(to_points(self.plane, self.ln[k]))

    def arc(self, k: int) -> VMobject:
        """The arc from RMSNorm(x) to LN(x), ARC_RADIUS from the origin."""
        arc = VMobject(color=self.palette.emphasis, stroke_width=4)
        arc.set_points_as_corners(to_points(self.plane, self.arcs[k]))
        return arc


def label_side(ratio: float):
    """Where a mark's name goes on the plot of arctan|μ/σ|: away from the curve, which rises on both sides
    of μ/σ = 0 (up and to the left on the right half, up and to the right on the left half); beside a mark
    near 0, to its right, clear of the y axis."""
    if abs(ratio) < 0.5:
        return RIGHT
    return UL if ratio > 0 else UR
