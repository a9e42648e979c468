"""Scene 7, ``direction-not-length`` (A8): (3, 4) and (6, 8) merge; (3, 4) and (4, 3) stay apart."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, GrowArrow, TransformFromCopy, VGroup, Write

from normgeo import distance, euclidean_norm, l2_normalize
from normgeo.depth_profile import median_norm_trend
from scenes.kit import labels
from scenes.kit.adapters import make_plane, to_points
from scenes.kit.base import EDGE, SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.claims import claim
from scenes.kit.formulas import FORMULAS
from scenes.kit.real_states import load_states
from scenes.kit.spec import SceneSpec, SpecError, Vector, check_vectors, setting
from scenes.kit.widgets import circle_of_radius, vector_arrow

__all__ = ["DirectionNotLengthSpec", "DirectionNotLength"]

SAME_POINT = 1e-9
PRE_NORM_STATES = "smollm2.safetensors"  # the bundled states of a pre-norm RMSNorm decoder


@dataclass(frozen=True)
class DirectionNotLengthSpec(SceneSpec):
    """x; y, a positive multiple of x of another length; z, a vector in another direction (the source's example)."""

    x: Vector = setting((3.0, 4.0), items=(2, 2))
    y: Vector = setting((6.0, 8.0), items=(2, 2))
    z: Vector = setting((4.0, 3.0), items=(2, 2))

    def validate(self) -> None:
        for name in ("x", "y", "z"):
            check_vectors(name, (getattr(self, name),), dim=2)
        px, py, pz = l2_normalize(np.array([self.x, self.y, self.z], dtype=float))
        if distance(px, py) > 1e-6:
            raise SpecError("y: must point the same way as x (a positive multiple of it) to show the merge")
        lx, ly = euclidean_norm(np.array([self.x, self.y], dtype=float))
        if abs(lx - ly) <= 1e-6 * max(lx, ly):
            raise SpecError("y: must differ from x in length (a multiple other than 1) for the lengths to be what differs")
        if distance(px, pz) < 1e-3:
            raise SpecError("z: must point in another direction than x to show a difference that survives")


class DirectionNotLength(NormGeoScene):
    """Full-scale vectors on the left, their L2 projections on an enlarged unit circle on the right."""

    spec_class = DirectionNotLengthSpec

    def construct(self) -> None:
        self.normalize()
        self.show_both_scales()
        self.draw_same_direction()
        self.merge_on_circle()
        self.draw_other_direction()
        self.keep_apart_on_circle()
        self.sum_up()

    def normalize(self) -> None:
        """Everything the scene shows, from the core: x, y, z, their L2 images, lengths and distances,
        and how the median token's length drifts along a real pre-norm stream (the bundled SmolLM2)."""
        spec = self.spec
        self.vectors = np.array([spec.x, spec.y, spec.z], dtype=float)
        self.projected = l2_normalize(self.vectors)
        self.lengths = euclidean_norm(self.vectors)
        self.merged_gap = float(distance(self.projected[0], self.projected[1]))
        self.kept_gap = float(distance(self.projected[0], self.projected[2]))
        self.merged = self.merged_gap <= SAME_POINT
        states = load_states("", PRE_NORM_STATES)
        layers = states.of_kind("rmsnorm")
        self.stream = median_norm_trend([layer.tokens() for layer in layers])
        fmt = self.fmt
        self.values = {
            "x": fmt.vector(self.vectors[0]), "y": fmt.vector(self.vectors[1]), "z": fmt.vector(self.vectors[2]),
            "px": fmt.vector(self.projected[0]), "pz": fmt.vector(self.projected[2]),
            "nx": fmt.number(self.lengths[0]), "ny": fmt.number(self.lengths[1]),
        }
        self.stream_values = {"model": states.model, "first": fmt.number(self.stream.first, 1),
                              "last": fmt.number(self.stream.last, 0), "calls": len(layers)}

    def show_both_scales(self) -> None:
        """Two planes: full scale, and the unit circle enlarged; the readout and formula laid out below."""
        colors = self.palette
        title = self.make_title()
        if self.layout.stacked:  # full scale above the zoom, the readout and formula under both
            (full_at, full_side), (zoom_at, zoom_side) = self.layout.stacked_panels(2, 5.6, above=0.45, below=0.1,
                                                                                    bottom_gap=2.4)
        else:
            (full_at, full_side), (zoom_at, zoom_side) = ((-3.4, 0.2, 0), 4.9), ((2.9, 0.2, 0), 4.9)
        full = make_plane(1.1 * float(self.lengths.max()), full_side, full_at, colors)
        zoom = make_plane(1.3, zoom_side, zoom_at, colors, step=0.5)
        self.full_plane, self.zoom_plane = full, zoom
        captions = VGroup(
            self.text("full-scale", font_size=SMALL_SIZE, color=colors.muted).next_to(full, UP, 0.12),
            self.text("zoomed", font_size=SMALL_SIZE, color=colors.l2).next_to(zoom, UP, 0.12),
        )
        circles = VGroup(circle_of_radius(full, 1.0, colors.l2, 3), circle_of_radius(zoom, 1.0, colors.l2, 4))
        # the inputs are neutral (one concept), told apart by their names; y, drawn under x, is wider
        self.arrows = [vector_arrow(full, v, colors.input, stroke_width=w) for v, w in zip(self.vectors, (6, 11, 6))]
        self.landed = [vector_arrow(zoom, p, colors.l2, stroke_width=w) for p, w in zip(self.projected, (6, 12, 6))]
        self.projected_arrows = VGroup(*self.landed)
        self.name_arrows()
        self.lay_out_readout()
        self.say("intro", FadeIn(title), Create(full), Create(zoom), FadeIn(captions),
                 Create(circles), run_time=1.5, hold=1.0)

    def name_arrows(self) -> None:
        """x, y, z named at their tips, x̂ = ŷ and ẑ at theirs: beside the tip, on the side away from the other arrows."""
        colors, fmt = self.palette, self.fmt
        full, zoom = self.full_plane, self.zoom_plane
        tips = to_points(full, self.vectors)
        heads = to_points(zoom, self.projected)
        origin, centre = to_points(full, np.zeros(2)), to_points(zoom, np.zeros(2))
        names = {}
        for key, index in (("x", 0), ("y", 1), ("z", 2)):
            label = self.formula(f"{key} = {fmt.vector(self.vectors[index])}", font_size=30, color=colors.input)
            others = [tips[i] for i in range(3) if i != index]
            names[key] = labels.at_tip(label, origin, tips[index], avoid=others, lean=0.0)  # clear of collinear arrows
        merged = self.formula(f"hat(x) = hat(y) = {fmt.vector(self.projected[0])}", font_size=30, color=colors.l2)
        kept = self.formula(f"hat(z) = {fmt.vector(self.projected[2])}", font_size=30, color=colors.l2)
        labels.at_tip(merged, centre, heads[0], avoid=[heads[2]], lean=0.0)
        labels.at_tip(kept, centre, heads[2], avoid=[heads[0], merged.get_center()], lean=0.0)
        self.arrow_names = names
        self.image_names = {"merged": merged, "kept": kept}

    def lay_out_readout(self) -> None:
        """Two short lines, bottom left, beside the formula, bottom right."""
        colors = self.palette
        self.merged_text = self.text("merged", font_size=SMALL_SIZE + 2)
        self.kept_text = self.text("kept", font_size=SMALL_SIZE + 2)
        formula = self.formula(FORMULAS["direction"], font_size=30, color=colors.l2)
        formula.to_corner(DOWN + RIGHT, buff=EDGE + 0.1)
        self.formula_mobject = formula
        readout = VGroup(self.merged_text, self.kept_text).arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        if self.layout.stacked:
            fit_width(readout, self.layout.content_width).next_to(formula, UP, buff=0.3).to_edge(LEFT, buff=EDGE)
        else:
            readout.to_corner(DOWN + LEFT, buff=EDGE)
        self.readout = readout

    def draw_same_direction(self) -> None:
        arrows, names = self.arrows, self.arrow_names
        self.say("same", GrowArrow(arrows[1]), GrowArrow(arrows[0]), FadeIn(names["x"]), FadeIn(names["y"]),
                 run_time=1.5, hold=1.0, **self.values)
        self.add(arrows[0])  # x above y

    def merge_on_circle(self) -> None:
        arrows, landed = self.arrows, self.landed
        self.say("merge", TransformFromCopy(arrows[1], landed[1]), TransformFromCopy(arrows[0], landed[0]),
                 FadeIn(self.image_names["merged"]), FadeIn(self.merged_text), run_time=1.8, hold=2.5, **self.values)
        self.add(landed[0])

    def draw_other_direction(self) -> None:
        self.say("other", GrowArrow(self.arrows[2]), FadeIn(self.arrow_names["z"]), run_time=1.2, hold=0.8,
                 **self.values)

    def keep_apart_on_circle(self) -> None:
        self.say("kept", TransformFromCopy(self.arrows[2], self.landed[2]), FadeIn(self.image_names["kept"]),
                 FadeIn(self.kept_text), run_time=1.5, hold=2.0, gap=self.fmt.number(self.kept_gap), **self.values)

    def sum_up(self) -> None:
        """What is discarded, and where it is not: a pre-norm stream keeps the length (the core's numbers
        from the bundled states; the trend worded by what they show)."""
        self.say("summary", Write(self.formula_mobject), run_time=1.2, hold=2.5,
                 stream=self.words("stream", when=claim(self.stream, "grows"), **self.stream_values))
