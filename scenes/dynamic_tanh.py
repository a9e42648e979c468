"""Scene ``dynamic-tanh`` (C5): normalization-free transformers replace LayerNorm by DyT(x) = γ·tanh(αx) + β.

From the core's seeded toy simulation (not a trained model): each token's LayerNorm map is a straight
line of slope 1/σ_token; whether the union is S-shaped (a tanh fits it clearly better than a line:
the core's ``is_s_curve``) decides the words. DyT is elementwise: no sphere, no lost degree of
freedom; its outputs are squashed into a box |DyT(x)ᵢ − βᵢ| ≤ |γᵢ|, a cube for one scalar γ (as fitted here).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, ReplacementTransform, VGroup

from normgeo import dynamic_tanh, dynamic_tanh_fit, layer_norm, sample_vectors
from scenes.kit.adapters import make_plane
from scenes.kit.base import EDGE, SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.claims import claim
from scenes.kit.plots import axis_labels, curve, make_axes, nice_step
from scenes.kit.spec import SceneSpec, SpecError, setting
from scenes.kit.widgets import dot_at

__all__ = ["DynamicTanhSpec", "DynamicTanh"]

DYT = 'op("DyT")(x) = gamma tanh(alpha x) + beta'
PLOT_CENTER = (-3.05, -0.45, 0.0)
PLOT_SIZE = (7.3, 5.4)
COLUMN_LEFT = 1.35
COLUMN_WIDTH = 5.6
INSET_SIZE = 2.5
STACKED_PLOT_HEIGHT, STACKED_INSET_SIZE = 4.6, 2.9  # a square or tall frame: the column is below the plot
# Inputs this large saturate tanh exactly (tanh(20) rounds to 1 in float64 as soon as αx > 19.1):
# DyT of them is the corner β ± γ of the box its outputs approach.
SATURATING = 1e6


@dataclass(frozen=True)
class DynamicTanhSpec(SceneSpec):
    """The toy simulation (tokens, channels, channels with large values, their largest size, seed)
    and the 2-D inputs of the inset that compares DyT's box with LayerNorm's two points."""

    tokens: int = setting(12, low=2, high=40)
    channels: int = setting(64, low=4, high=256)
    massive_channels: int = setting(2, low=1, high=8)
    largest_massive: float = setting(30.0, low=2, high=500)
    seed: int = setting(0, low=0, high=2**32 - 1)
    inset_count: int = setting(80, low=2, high=400)
    inset_spread: float = setting(15.0, low=0.1, high=500)

    def validate(self) -> None:
        if self.massive_channels >= self.channels:
            raise SpecError(f"massive_channels: must be fewer than channels ({self.channels}), got {self.massive_channels}")


class DynamicTanh(NormGeoScene):
    """Per-token straight lines; their S-shaped union; the fitted tanh; DyT's box against LayerNorm's points."""

    spec_class = DynamicTanhSpec

    def construct(self) -> None:
        self.compute()
        self.introduce_the_picture()
        self.draw_token_lines()
        self.show_the_union()
        self.fit_the_tanh()
        self.replace_layer_norm()
        self.squash_into_a_cube()

    def compute(self) -> None:
        """Everything the scene shows, from the core: the simulation and its fit, DyT's box and the inset."""
        spec, fmt = self.spec, self.fmt
        self.fit = fit = dynamic_tanh_fit(spec.tokens, spec.channels, spec.massive_channels, spec.largest_massive, spec.seed)
        self.samples = np.linspace(fit.inputs.min(), fit.inputs.max(), 240)
        self.fitted = fit.fitted(self.samples)
        weight, bias = np.full(2, fit.weight), np.full(2, fit.bias)
        self.inset_inputs = sample_vectors(spec.inset_count, 2, seed=spec.seed, scale=spec.inset_spread, min_spread=1e-3)
        self.inset_dyt = dynamic_tanh(self.inset_inputs, fit.alpha, weight, bias)
        self.inset_layer_norm = layer_norm(self.inset_inputs, eps=0.0)
        corners = SATURATING * np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]])
        self.box = dynamic_tanh(corners, fit.alpha, weight, bias)  # β ± γ in each coordinate
        self.values = {
            "tokens": spec.tokens,
            "channels": spec.channels,
            "first": fmt.number(fit.slopes[0], 3),
            "last": fmt.number(fit.slopes[-1], 3),
            "alpha": fmt.number(fit.alpha, 3),
            "gamma": fmt.number(fit.weight, 2),
            "beta": fmt.number(fit.bias, 3),
            "residual": fmt.number(fit.residual, 3),
            "line_residual": fmt.number(fit.line_residual, 3),
            "seed": spec.seed,
        }

    # ------------------------------------------------------------------ steps
    def introduce_the_picture(self) -> None:
        """Axes of input against output; the note that the data is a toy simulation."""
        colors, fit = self.palette, self.fit
        title = self.make_title()
        layout = self.layout
        self.column_left = layout.pick(COLUMN_LEFT, layout.column_left)
        self.column_width = layout.pick(COLUMN_WIDTH, layout.column_width)
        x_low, x_high = float(fit.inputs.min()), float(fit.inputs.max())
        y_top = float(np.abs(fit.outputs).max())
        x_step, y_step = nice_step(max(-x_low, x_high), ticks=3), nice_step(y_top)
        self.axes = make_axes((x_step * np.floor(x_low / x_step), x_step * np.ceil(x_high / x_step), x_step),
                              (-y_step * np.ceil(y_top / y_step), y_step * np.ceil(y_top / y_step), y_step),
                              *layout.pick(PLOT_SIZE, (min(PLOT_SIZE[0], layout.content_width - 0.9), STACKED_PLOT_HEIGHT)),
                              colors, lang=self.spec.lang)
        self.toy = fit_width(self.text("toy", font_size=SMALL_SIZE, color=colors.muted, **self.values),
                             layout.pick(COLUMN_WIDTH, layout.content_width))
        if layout.stacked:  # the note under the title, the plot under it, the column under the plot
            self.toy.next_to(title, DOWN, buff=0.25).align_to(title, LEFT)
            self.axes.next_to(self.toy, DOWN, buff=0.75).set_x(0.3)
        else:
            self.axes.move_to(PLOT_CENTER)
            self.toy.to_edge(UP, buff=EDGE).set_x(COLUMN_LEFT + self.toy.width / 2)
        labels = axis_labels(self.axes, self.words("x-axis"), self.words("y-axis"), self.spec.lang, colors.text,
                             font_size=SMALL_SIZE)
        self.plot_labels = labels
        self.say("intro", FadeIn(title), Create(self.axes), FadeIn(labels), FadeIn(self.toy), run_time=1.5, hold=1.0)

    def draw_token_lines(self) -> None:
        """Each token's points (input, LN output) and the straight line through them, steep to flat."""
        colors, fit = self.palette, self.fit
        self.token_lines, self.token_dots = VGroup(), VGroup()
        for token, (xs, ys) in enumerate(zip(fit.inputs, fit.outputs)):
            # tokens are not layers: one concept colour (LayerNorm's map), told apart by opacity, first faint
            weight = 0.35 + 0.65 * token / max(len(fit.inputs) - 1, 1)
            order = np.argsort(xs)
            self.token_lines.add(curve(self.axes, xs[order], ys[order], colors.layernorm, 2.5).set_stroke(opacity=weight))
            self.token_dots.add(VGroup(*(dot_at(self.axes, (x, y), colors.layernorm, radius=0.028).set_fill(opacity=weight)
                                         for x, y in zip(xs, ys))))
        self.say("lines", FadeIn(self.token_dots, lag_ratio=0.1), Create(self.token_lines, lag_ratio=0.1),
                 run_time=2.5, hold=0.8, when=claim(fit, "last_token_flatter"), first=self.values["first"],
                 last=self.values["last"])

    def show_the_union(self) -> None:
        readout = VGroup(self.formula(DYT, font_size=30, color=self.palette.elementwise),
                         self.text("residual.line", font_size=SMALL_SIZE, **self.values),
                         self.text("residual.tanh", font_size=SMALL_SIZE, color=self.palette.elementwise,
                                   **self.values),
                         self.text("fit", font_size=SMALL_SIZE, color=self.palette.elementwise, **self.values))
        for line in readout:
            fit_width(line, self.column_width)
        readout.arrange(DOWN, aligned_edge=LEFT, buff=self.layout.pick(0.2, 0.14))
        if self.layout.stacked:
            readout.next_to(VGroup(self.axes, self.plot_labels), DOWN, buff=0.4).align_to((self.column_left, 0, 0), LEFT)
        else:
            readout.next_to(self.toy, DOWN, buff=0.4, aligned_edge=LEFT)
        self.readout = readout
        self.say("union", self.token_lines.animate.set_stroke(opacity=0.55), FadeIn(readout[1]), run_time=1.2, hold=0.8,
                 when=claim(self.fit, "is_s_curve"), line_residual=self.values["line_residual"])

    def fit_the_tanh(self) -> None:
        """The fitted DyT in the element-wise maps' colour, named under its left end (the flat tail, clear of
        the token lines, which cross near the origin)."""
        colors = self.palette
        self.tanh_curve = curve(self.axes, self.samples, self.fitted, colors.elementwise, 4)
        self.tanh_label = self.text("dyt-curve", font_size=SMALL_SIZE, color=colors.elementwise)
        start = self.axes.c2p(self.samples[0], self.fitted[0])
        self.tanh_label.next_to(start, DOWN, buff=0.35).align_to(start, LEFT)
        self.say("fit", Create(self.tanh_curve), FadeIn(self.tanh_label), FadeIn(self.readout[0]),
                 FadeIn(self.readout[2]), FadeIn(self.readout[3]), run_time=1.8, hold=0.8,
                 when=claim(self.fit, "is_s_curve"), **self.values)

    def replace_layer_norm(self) -> None:
        note = VGroup(self.text("elementwise", font_size=SMALL_SIZE, color=self.palette.text),
                      self.text("no-sphere", font_size=SMALL_SIZE, color=self.palette.text))
        for line in note:
            fit_width(line, self.column_width)
        self.note = note.arrange(DOWN, aligned_edge=LEFT, buff=0.14).next_to(self.readout, DOWN,
                                                                               buff=self.layout.pick(0.35, 0.25),
                                                                               aligned_edge=LEFT)
        self.say("replace", FadeIn(note), run_time=1.0, hold=1.0)

    def squash_into_a_cube(self) -> None:
        """Inset: the same 2-D inputs under LayerNorm (two points) and under DyT (inside the box β ± γ).
        The finished readouts and notes leave (the narration has said them); the toy note shortens."""
        colors, layout = self.palette, self.layout
        extent = 1.2 * float(np.abs(self.box).max())
        side = layout.pick(INSET_SIZE + 0.6, STACKED_INSET_SIZE)
        self.inset = make_plane(extent, side, (0, 0, 0), colors, step=nice_step(2 * extent))
        self.inset.next_to(self.readout[0], DOWN, buff=0.35).align_to((self.column_left, 0, 0), LEFT)
        self.box_outline = VGroup(*(curve(self.inset, *np.array([a, b]).T, colors.elementwise, 3)
                                    for a, b in zip(self.box, np.roll(self.box, -1, axis=0), strict=True)))
        self.dyt_dots = VGroup(*(dot_at(self.inset, v, colors.elementwise, radius=0.035) for v in self.inset_dyt))
        self.ln_dots = VGroup(*(dot_at(self.inset, v, colors.layernorm, radius=0.07) for v in self.inset_layer_norm))
        key = VGroup(self.text("inset.dyt", font_size=SMALL_SIZE, color=colors.elementwise),
                     self.text("inset.layernorm", font_size=SMALL_SIZE, color=colors.layernorm))
        if layout.stacked:  # beside the inset: the column is wide and short under the plot
            for line in key:
                fit_width(line, layout.right - (self.inset.get_right()[0] + 0.3))
            key.arrange(DOWN, aligned_edge=LEFT, buff=0.2).next_to(self.inset, RIGHT, buff=0.3)
        else:  # under the inset
            for line in key:
                fit_width(line, self.column_width)
            key.arrange(DOWN, aligned_edge=LEFT, buff=0.16).next_to(self.inset, DOWN, buff=0.3, aligned_edge=LEFT)
        self.inset_key = key
        short = self.text("toy-short", font_size=SMALL_SIZE, color=colors.muted).move_to(self.toy, aligned_edge=LEFT)
        self.say("cube", FadeOut(self.readout[1:]), FadeOut(self.note), ReplacementTransform(self.toy, short),
                 Create(self.inset), Create(self.box_outline), FadeIn(self.dyt_dots), FadeIn(self.ln_dots),
                 FadeIn(key), run_time=1.8, hold=2.5)
        self.toy = short
