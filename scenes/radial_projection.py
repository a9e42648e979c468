"""Scene 1, ``radial-projection`` (A1, A2): vectors slide along their rays onto the sphere."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, LEFT, RIGHT, Create, FadeIn, GrowArrow, ReplacementTransform, VGroup, Write

from normgeo import euclidean_norm, radial_projection
from scenes.kit.adapters import make_plane
from scenes.kit.base import COLUMN_WIDTH, PLANE_CENTER, PLANE_HEIGHT, SMALL_SIZE, NormGeoScene, fit_width
from scenes.kit.formulas import FORMULAS
from scenes.kit.spec import SceneSpec, Vectors, check_vectors, setting
from scenes.kit.widgets import circle_of_radius, dot_at, legend, ray, segment, vector_arrow

__all__ = ["RadialProjectionSpec", "RadialProjection"]


@dataclass(frozen=True)
class RadialProjectionSpec(SceneSpec):
    """Vectors of mixed length and direction (the first is the worked example) and the sphere's radius."""

    vectors: Vectors = setting(((3.0, 4.0), (-3.5, 1.5), (1.5, -2.5), (-0.6, -0.5), (0.5, 0.25)), items=(1, 12))
    radius: float = setting(1.0, low=0.05, high=1000)

    def validate(self) -> None:
        check_vectors("vectors", self.vectors, dim=2)


class RadialProjection(NormGeoScene):
    """Raw vectors, their rays, and their radial projections onto the sphere of radius R."""

    spec_class = RadialProjectionSpec

    def construct(self) -> None:
        spec, colors = self.spec, self.palette
        vectors = np.array(spec.vectors, dtype=float)
        projected = radial_projection(vectors, spec.radius)
        lengths = euclidean_norm(vectors)
        extent = 1.12 * max(float(lengths.max()), spec.radius)

        title = self.make_title()
        plane = make_plane(extent, PLANE_HEIGHT, PLANE_CENTER, colors)
        self.plane = plane
        self.say("intro", FadeIn(title), Create(plane), run_time=1.2, hold=0.6)

        # A1: the two sets, named.
        sphere = circle_of_radius(plane, spec.radius, colors.sphere)
        zero_mean_direction = radial_projection([1.0, -1.0], extent)
        zero_mean_line = segment(plane, -zero_mean_direction, zero_mean_direction, colors.hyperplane, 3)
        sets = legend(
            [
                (colors.sphere, self.words("sphere-set", radius=self.fmt.number(spec.radius))),
                (colors.hyperplane, self.words("hyperplane-set")),
            ],
            spec.lang,
            colors.text,
            SMALL_SIZE,
        )
        fit_width(sets, COLUMN_WIDTH).next_to(plane, RIGHT, buff=0.45).align_to(plane, direction=(0, 1, 0))
        self.say("sets", Create(sphere), Create(zero_mean_line), FadeIn(sets), run_time=1.5, hold=2.5)

        # A2: raw vectors, their rays, and the slide along each ray.
        raw_arrows = VGroup(*(vector_arrow(plane, v, colors.raw) for v in vectors))
        self.raw_arrows = raw_arrows
        self.say("raw", *(GrowArrow(a) for a in raw_arrows), run_time=1.5, hold=0.5)
        rays = VGroup(*(ray(plane, radial_projection(v, extent), colors.muted) for v in vectors))
        self.say("rays", *(Create(r) for r in rays), run_time=1.0, hold=0.5)
        ghosts = raw_arrows.copy().set_opacity(0.25)
        self.add(ghosts)
        projected_arrows = VGroup(*(vector_arrow(plane, p, colors.l2, stroke_width=6) for p in projected))
        self.projected_arrows = projected_arrows
        self.say(
            "slide",
            ReplacementTransform(raw_arrows, projected_arrows),
            run_time=2.0,
            hold=2.0,
        )

        # The worked example: x, its length, its projection, all from the core.
        x, x_length, x_projected = vectors[0], float(lengths[0]), projected[0]
        values = {"x": self.fmt.vector(x), "norm": self.fmt.number(x_length), "proj": self.fmt.vector(x_projected)}
        example_dot = dot_at(plane, x_projected, colors.highlight, radius=0.08)
        self.example_dot = example_dot
        readout = VGroup(
            self.text("example", font_size=SMALL_SIZE + 4, **values),
            self.text("example-result", font_size=SMALL_SIZE + 4, **values),
            self.text("direction-kept", font_size=SMALL_SIZE, color=colors.muted),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.22)
        fit_width(readout, COLUMN_WIDTH).next_to(sets, DOWN, buff=0.6, aligned_edge=LEFT)
        self.readout = readout
        highlight = ghosts[0].copy().set_opacity(1).set_color(colors.highlight)
        self.say("example", FadeIn(highlight), FadeIn(example_dot), Write(readout),
                 run_time=1.5, hold=3.0, **values)

        formula = self.formula(FORMULAS["radial-projection"], font_size=40, color=colors.l2)
        formula.next_to(readout, DOWN, buff=0.7, aligned_edge=LEFT)
        self.formula_mobject = formula
        self.say("formula", Write(formula), run_time=1.2, hold=2.0)
