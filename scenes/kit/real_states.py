"""What the two real-states scenes share: the states file they read, the study the core computes on
it, and the steps both narrate (the 3-D view of tokens landing on the sphere, the participation
ratio, γ's ellipsoid).

``source`` is a states file (``normgeo states … --out FILE``, or ``normgeo_models.capture_states``);
empty means the small file shipped for the scene in ``scenes/states/``. Rendering needs no torch.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
from manim.constants import LineJointType
from manim import DEGREES, DOWN, LEFT, RIGHT, UL, UP, UR, Create, FadeIn, FadeOut, ReplacementTransform, VGroup, VMobject

from normgeo import (
    DepthSummary,
    output_span,
    sphere_rings,
    LayerProfile,
    clip_lengths,
    degrees_of_freedom,
    depth_summary,
    layer_norm,
    layer_profile,
    principal_directions,
    radial_view,
    rms_norm,
)
from normgeo_models.states_file import LayerStates, States, StatesFileError, read_states
from scenes.kit.adapters import make_space_axes, to_points
from scenes.kit.base import EDGE, SMALL_SIZE, NormGeoThreeDScene, fit_width
from scenes.kit.spec import SceneSpec, SpecError, setting
from scenes.kit.text import SCENES_DIR
from scenes.kit.widgets import space_segment, text_mobject

__all__ = ["STATES_DIR", "load_states", "RealStatesSpec", "RealStatesStudy", "real_states_study", "RealStatesScene",
           "token_label", "typst_literal", "as_markup", "rounded_curve"]

STATES_DIR = SCENES_DIR / "states"
GEOMETRY_RADIUS = 3.0  # half the 3-D view's axes at 16:9: the close-up's sphere is 2·3/1.3 ≈ 4.6 units across
CLOSE_UP = 1.3  # the close-up shows 1.3 radii
GEOMETRY_SHIFT = (2.55, -0.55)  # where the origin is drawn at 16:9: right of the readouts
FOCAL_DISTANCE = 80.0  # a weak perspective
READOUT_WIDTH = 5.6  # the one readout at a time, left of the 3-D view at 16:9
COLUMN = 13.0  # the readout runs above the plot, across the 16:9 frame
STACKED_GEOMETRY_DROP = 1.8  # in a square or tall frame the 3-D view is centred this far below the figure's place
STACKED_GEOMETRY_RADIUS = 3.4  # and drawn larger (the frame's width is its own)
OVERVIEW = {"phi": 65 * DEGREES, "theta": -40 * DEGREES}
BACK, FRONT = 0.16, 0.6  # the sphere's rings: opacity behind and in front of its centre
DIM, BRIGHT = 0.3, 1.0  # a token's arrow: opacity at the back and at the front of the view


@functools.lru_cache(maxsize=8)
def _read(path: str, stamp: tuple[int, int]) -> States:
    return read_states(path)


def states_path(source: str, default: str) -> Path:
    """The file ``source`` names, or the shipped ``default`` when it is empty."""
    return Path(source).expanduser() if source else STATES_DIR / default


def load_states(source: str, default: str) -> States:
    """The states file ``source`` (or the shipped ``default``), read once per version of the file."""
    path = states_path(source, default)
    try:
        stat = path.stat()
    except OSError:
        raise SpecError(f"source: expected a states file (.safetensors, .npz, .npy), got {source!r}: "
                        "no such file") from None
    try:
        return _read(str(path), (stat.st_mtime_ns, stat.st_size))
    except StatesFileError as error:
        raise SpecError(f"source: expected a states file, got {source!r}: {error}") from None


@dataclass(frozen=True)
class RealStatesSpec(SceneSpec):
    """The states file, which of its normalization calls the 3-D view shows (counted from 1, as every
    call is shown; 0: the middle one) and how many times the median a token's norm must be to count
    as massive."""

    default_file: ClassVar[str] = ""
    kinds: ClassVar[tuple[str, ...]] = ()
    source: str = ""
    layer: int = setting(0, low=0, high=10**6)
    factor: float = setting(10.0, low=1.5, high=1e6)

    def validate(self) -> None:
        layers = self.states().of_kind(*self.kinds)
        if len(layers) < 2:
            found = sorted({layer.kind for layer in self.states().layers})
            raise SpecError(f"source: this scene needs at least 2 {' or '.join(self.kinds)} layers, "
                            f"the file has {len(layers)} (kinds: {', '.join(found)})")
        if len(layers[0].tokens()) < 3:
            raise SpecError("source: the states hold fewer than 3 tokens; a 3-D view needs at least 3")
        if self.layer > len(layers):
            raise SpecError(f"layer: the file has {len(layers)} such calls (1 to {len(layers)}; 0: the middle one), "
                            f"got {self.layer}")
        real_states_study(self)  # a file whose states the core refuses (a zero token, σ = 0) is refused now

    def states(self) -> States:
        return load_states(self.source, self.default_file)

    def input_files(self) -> tuple[Path, ...]:
        return (states_path(self.source, self.default_file),)


@dataclass(frozen=True)
class RealStatesStudy:
    """Everything the scene shows, from the core: per layer profiles and their summary, and the 3-D
    view of one layer (tokens before and after the norm, radial view on 3 principal directions)."""

    states: States
    layers: tuple[LayerStates, ...]
    profiles: tuple[LayerProfile, ...]
    summary: DepthSummary
    view_index: int
    before: np.ndarray
    after: np.ndarray
    before_drawn: np.ndarray
    clipped: np.ndarray
    limit: float


@functools.lru_cache(maxsize=8)
def real_states_study(spec: RealStatesSpec) -> RealStatesStudy:
    states = spec.states()
    layers = states.of_kind(*spec.kinds)
    centred = spec.kinds[0] == "layernorm"
    try:
        profiles = tuple(layer_profile(layer.tokens(), layer.eps, centred, layer.weight, layer.bias,
                                       None if layer.output is None else layer.tokens("output"), spec.factor)
                         for layer in layers)
        index = len(layers) // 2 if spec.layer == 0 else spec.layer - 1
        view = layers[index]
        normalized = (layer_norm if centred else rms_norm)(view.tokens(), eps=view.eps)
        basis = principal_directions(normalized, 3)
        before, after = radial_view(view.tokens(), basis), radial_view(normalized, basis)
        massive = profiles[index].massive
        ordinary = np.delete(profiles[index].norms, massive.indices)
        limit = 1.1 * max(float(ordinary.max()) if ordinary.size else 0.0, float(profiles[index].radii.max()))
        drawn, clipped = clip_lengths(before, limit)
    except ValueError as error:
        raise SpecError(f"source: {error}") from None
    return RealStatesStudy(states, layers, profiles, depth_summary(profiles), index, before, after, drawn, clipped,
                           limit)


def rounded_curve(axes, xs, ys, color: str, stroke_width: float = 4) -> VMobject:
    """A polyline through (xs, ys) in axes coordinates with rounded joins (no spikes at sharp turns)."""
    line = VMobject(color=color, stroke_width=stroke_width, joint_type=LineJointType.ROUND)
    line.set_points_as_corners(np.array([axes.c2p(float(x), float(y)) for x, y in zip(xs, ys)]))
    return line


def two_figures(value: float) -> int:
    """Decimals that show a positive ``value`` to 2 significant figures, at least 1.

    >>> two_figures(0.0022), two_figures(0.97), two_figures(5.8), two_figures(18.0)
    (4, 2, 1, 1)
    """
    return max(1, 1 - int(np.floor(np.log10(value)))) if value > 0 else 1


def typst_literal(text: str) -> str:
    """User text (a model's name, a token) as a Typst string literal, shown exactly as written.

    >>> typst_literal('Q4_1')
    '#"Q4_1"'
    """
    return '#"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def as_markup(values: dict, names=("model", "text", "token", "layer")) -> dict:
    """``values`` with the user's strings among them made Typst string literals."""
    return {key: typst_literal(value) if key in names and isinstance(value, str) else value
            for key, value in values.items()}


def token_label(token: str) -> str:
    """A tokenizer's piece as plain text: the GPT-2 space marker Ġ and WordPiece's ## removed."""
    return token.replace("Ġ", "").replace("▁", "").removeprefix("##") or token


class RealStatesScene(NormGeoThreeDScene):
    """The steps both real-states scenes narrate after their own plots. One readout is on screen at a
    time (:meth:`show_readout` fades the last one out); the 3-D view is the hero, labelled on the
    figure (axes u₁ u₂ u₃, the sphere with its radius, the tokens), its depth shown by opacity."""

    centred: ClassVar[bool] = False
    readout = None

    @property
    def study(self) -> RealStatesStudy:
        return real_states_study(self.spec)

    def words(self, key: str, when=None, **values) -> str:
        """The title names the file's model (``title-model``); without a model name, the plain title."""
        model = real_states_study(self.spec).states.model
        if key == "title" and model:
            return super().words("title-model", when, model=typst_literal(model))
        return super().words(key, when, **values)

    def introduce(self) -> None:
        """Title (with the model's name), and the width, number of calls and tokens the file holds."""
        study = self.study
        states = study.states
        self.intro_values = {"model": states.model or "?", "n": study.profiles[0].n, "calls": len(study.layers),
                             "tokens": len(study.profiles[0].norms), "text": states.text}
        title = self.make_title()
        self.fix_in_frame(title)
        self.title_bottom = float(title.get_bottom()[1])
        self.about = self.text("readout.model", font_size=SMALL_SIZE, color=self.palette.muted,
                               **as_markup(self.intro_values))
        fit_width(self.about, self.column_width).next_to(title, DOWN, buff=0.25).to_edge(LEFT, buff=EDGE)
        self.fix_in_frame(self.about)
        self.say("intro", FadeIn(title), FadeIn(self.about), run_time=1.0, hold=1.0, **self.intro_lead(),
                 **self.intro_values)

    def intro_lead(self) -> dict:
        """More values for the intro's narration (none here; a scene adds its own)."""
        return {}

    @property
    def column_width(self) -> float:
        """The width of the readout above the plot: across the frame."""
        return min(COLUMN, self.layout.content_width)

    @property
    def geometry_radius(self) -> float:
        """Half the 3-D view's axes, in scene units."""
        return self.layout.pick(GEOMETRY_RADIUS, STACKED_GEOMETRY_RADIUS)

    @property
    def readout_width(self) -> float:
        """The width of the readout during the 3-D view."""
        return self.layout.pick(READOUT_WIDTH, self.layout.content_width)

    def place_plot(self, axes):
        """The plot under the readout, its right end clear for the curves' names; in a square or tall
        frame under the model's line."""
        if self.layout.stacked:
            return axes.next_to(self.about, DOWN, buff=2.2).set_x(-0.6)
        return axes.move_to((1.0, -1.15, 0))

    def plot_size(self) -> tuple[float, float]:
        return self.layout.pick((8.0, 3.9), (self.layout.content_width - 3.2, 4.6))

    def name_curves(self, axes, named) -> VGroup:
        """Each curve's name at its right end (``named``: (curve, text)), moved apart if they touch."""
        names = VGroup()
        for line, text in named:
            names.add(text.next_to(line.get_end(), RIGHT, buff=0.15))
        if len(names) == 2 and names[0].get_bottom()[1] < names[1].get_top()[1] + 0.1 \
                and names[1].get_bottom()[1] < names[0].get_top()[1] + 0.1:
            upper, lower = (names[0], names[1]) if named[0][0].get_end()[1] >= named[1][0].get_end()[1] else (names[1], names[0])
            middle = (upper.get_center()[1] + lower.get_center()[1]) / 2
            upper.set_y(middle + (upper.height + lower.height) / 4 + 0.08)
            lower.set_y(middle - (upper.height + lower.height) / 4 - 0.08)
        for name in names:
            if name.get_right()[0] > self.layout.right:
                fit_width(name, max(0.5, self.layout.right - name.get_left()[0]))
                name.align_to(name, LEFT)
        return names

    def first_readout(self, key: str, **values):
        """The readout under the model's line (16:9) or under the plot (stacked), across the frame."""
        text = self.text(key, font_size=SMALL_SIZE, **values)
        fit_width(text, self.column_width)
        return text.next_to(self.about, DOWN, buff=0.35).to_edge(LEFT, buff=EDGE)

    def view_readout(self, key: str, **values):
        """A readout of the 3-D view: left of it at 16:9, under it when stacked."""
        text = self.text(key, font_size=SMALL_SIZE, **values)
        fit_width(text, self.readout_width)
        if self.layout.stacked:
            return text.to_edge(DOWN, buff=EDGE + 0.2).to_edge(LEFT, buff=EDGE)
        return text.move_to((0, 1.4, 0)).to_edge(LEFT, buff=EDGE)

    def show_readout(self, step: str, text, *animations, run_time: float = 1.0, hold: float = 2.0, **say) -> None:
        """Narrate ``step`` with ``text`` as the one readout on screen (the last one fades out)."""
        self.pin(text)
        fades = [FadeOut(self.readout)] if self.readout is not None else []
        self.readout = text
        self.say(step, *fades, FadeIn(text), *animations, run_time=run_time, hold=hold, **say)

    def inside(self, mobject):
        """``mobject`` moved the least that puts it inside the frame's margins."""
        layout = self.layout
        dx = max(0.0, layout.left - mobject.get_left()[0]) - max(0.0, mobject.get_right()[0] - layout.right)
        top = self.title_bottom - 0.15 if hasattr(self, "title_bottom") else layout.top
        dy = max(0.0, layout.bottom - mobject.get_bottom()[1]) - max(0.0, mobject.get_top()[1] - top)
        return mobject.shift(np.array([dx, dy, 0.0]))

    def pin(self, *mobjects) -> None:
        """Fix ``mobjects`` in the frame without adding them: they appear when their step shows them."""
        self.renderer.camera.add_fixed_in_frame_mobjects(*mobjects)

    # ------------------------------------------------------------------ the 3-D view
    def set_view(self) -> None:
        """The camera of the 3-D view (a fixed one: depth is shown by opacity, readable on a pause)."""
        self.set_camera_orientation(**OVERVIEW, focal_distance=FOCAL_DISTANCE)
        self.rotation = self.renderer.camera.generate_rotation_matrix()
        screen = self.layout.pick((*GEOMETRY_SHIFT, 0.0), (0.0, self.layout.figure_center[1] - STACKED_GEOMETRY_DROP, 0.0))
        # the world point Rᵀ·s is drawn at s on the screen: the axes are moved there, the camera is not
        self.view_origin = self.rotation.T @ np.array(screen, dtype=float)

    def space_axes(self, extent: float):
        axes = make_space_axes(extent, 2 * self.geometry_radius, self.palette)
        return axes.shift(self.view_origin - axes.c2p(0, 0, 0))

    def depth(self, points) -> np.ndarray:
        """How near the camera each scene point is, relative to the view's origin (scene units)."""
        return (np.asarray(points, dtype=float).reshape(-1, 3) - self.view_origin) @ self.rotation[2]

    def on_screen(self, point) -> np.ndarray:
        """Where a scene point is drawn, for a label fixed in the frame beside it."""
        return self.renderer.camera.project_point(np.asarray(point, dtype=float))

    def shaded_sphere(self, axes, radius: float, color: str) -> VGroup:
        """The sphere as 5 parallels and 6 meridians, each split where it passes behind the centre:
        the back half dim and thin, the front half brighter."""
        group = VGroup()
        for ring in sphere_rings(radius, latitudes=5, longitudes=6, samples=96):
            points = to_points(axes, np.vstack([ring, ring[:1]]))
            front = self.depth(points) >= 0
            start = 0
            for index in range(1, len(points) + 1):
                if index == len(points) or front[index] != front[start]:
                    run = points[max(start - 1, 0):index + (index < len(points))]
                    if len(run) >= 2:
                        piece = VMobject(color=color, stroke_width=2.0 if front[start] else 1.2,
                                         stroke_opacity=FRONT if front[start] else BACK)
                        piece.set_points_as_corners(run)
                        group.add(piece)
                    start = index
        return group

    def arrows(self, axes, points, color: str, scale: float) -> VGroup:
        """A segment from the origin to each point, its tip dot facing the camera, brighter nearer the
        camera (the depth of its tip over ``scale`` core units)."""
        group = VGroup(*(space_segment(axes, np.zeros(3), p, color, stroke_width=4) for p in points))
        ends = to_points(axes, np.asarray(points, dtype=float))
        unit = np.linalg.norm(to_points(axes, [scale, 0, 0]) - to_points(axes, [0, 0, 0]))
        nearness = np.clip(0.5 + 0.5 * self.depth(ends) / unit, 0.0, 1.0)
        for arrow, near in zip(group, nearness):
            arrow.set_stroke(opacity=DIM + (BRIGHT - DIM) * near)
            arrow[1].set_fill(opacity=DIM + (BRIGHT - DIM) * near)
            self.renderer.camera.add_fixed_orientation_mobjects(arrow[1])
        return group

    def axis_names(self, axes, extent: float) -> VGroup:
        """u₁, u₂, u₃ at the positive ends of the axes (the principal directions), fixed in the frame."""
        names = VGroup()
        for index, direction in enumerate(np.eye(3)):
            end = self.on_screen(to_points(axes, 1.06 * extent * direction))
            name = text_mobject(f"$u_{index + 1}$", self.spec.lang, self.palette.muted, SMALL_SIZE + 4)
            names.add(self.inside(name.move_to(end[:2].tolist() + [0])))
        self.pin(names)
        return names

    def sphere_name(self, axes, radius: float, values: dict):
        """The sphere's name and radius beside its upper right rim, fixed in the frame."""
        rim = self.on_screen(to_points(axes, radius * np.array([0.0, 0.6, 0.8])))
        name = self.text("sphere-name", font_size=SMALL_SIZE, color=self.layer_color, **values)
        self.inside(name.next_to(rim[:2].tolist() + [0], UR, buff=0.1))
        self.pin(name)
        return name

    def tokens_name(self, axes, points, key: str, values: dict, extent: float):
        """The tokens' name under the view (below the lowest point its sphere or axes reach), centred
        under the tokens' lowest tip."""
        ends = np.array([self.on_screen(p) for p in to_points(axes, np.asarray(points, dtype=float))])
        lowest = ends[int(np.argmin(ends[:, 1]))]
        floor = min(float(self.on_screen(to_points(axes, [0.0, 0.0, -extent]))[1]), float(lowest[1]))
        name = self.text(key, font_size=SMALL_SIZE, color=self.layer_color if key == "tokens-after" else self.palette.text,
                         **values)
        self.inside(name.move_to((float(lowest[0]), floor - 0.1 - name.height / 2, 0.0)))
        self.pin(name)
        return name

    def show_landing(self, plot_group) -> None:
        """The plot makes way for the 3-D view: tokens at their true length along their projection on 3
        principal directions, then each moved along its ray onto the sphere (before γ)."""
        study, colors = self.study, self.palette
        profile = study.profiles[study.view_index]
        layer = study.layers[study.view_index]
        leaving = [plot_group, self.about] + ([self.readout] if self.readout is not None else [])
        self.play(*(FadeOut(m) for m in leaving), run_time=0.6)
        self.readout = None
        self.set_view()
        self.axes3d = self.space_axes(study.limit)
        self.token_arrows = self.arrows(self.axes3d, study.before_drawn, colors.input, study.limit)
        radius = float(np.median(profile.radii))
        values = self.view_values()
        self.names3d = self.axis_names(self.axes3d, study.limit)
        before_name = self.tokens_name(self.axes3d, study.before_drawn, "tokens-before", values, study.limit)
        clipped = "clipped" if study.clipped.any() else "whole"
        self.show_readout("view", self.view_readout("view-note", color=colors.muted, **as_markup(values)),
                          Create(self.axes3d), Create(self.token_arrows), FadeIn(self.names3d), FadeIn(before_name),
                          run_time=1.5, hold=1.5, lead=self.words(f"lead.{clipped}", **values), **values)
        self.sphere = self.shaded_sphere(self.axes3d, radius, self.layer_color)
        landed = self.arrows(self.axes3d, study.after, self.layer_color, radius)
        self.say("land", Create(self.sphere), ReplacementTransform(self.token_arrows, landed), FadeOut(before_name),
                 FadeOut(self.readout), run_time=2.0, hold=1.0, **values)
        self.readout = None
        inside = float(profile.radii.min()) < 0.99 * float(np.sqrt(profile.n))  # 1 %: visible in the close-up
        close = self.space_axes(CLOSE_UP * radius)
        self.close_sphere = self.shaded_sphere(close, radius, self.layer_color)
        self.landed_arrows = self.arrows(close, study.after, self.layer_color, radius)
        close_names = self.axis_names(close, CLOSE_UP * radius)
        self.sphere_label = self.sphere_name(close, radius, values)
        self.tokens_label = self.tokens_name(close, study.after, "tokens-after", values, radius)
        self.say("zoom", ReplacementTransform(self.axes3d, close), ReplacementTransform(self.sphere, self.close_sphere),
                 ReplacementTransform(landed, self.landed_arrows), ReplacementTransform(self.names3d, close_names),
                 FadeIn(self.sphere_label), FadeIn(self.tokens_label), run_time=2.0, hold=1.5,
                 lead=self.words(f"lead.zoom-{'inside' if inside else 'on'}", **values), **values)
        self.axes3d, self.names3d = close, close_names
        self.view_layer_name = layer.name

    def view_values(self) -> dict:
        study, fmt = self.study, self.fmt
        profile = study.profiles[study.view_index]
        massive = profile.massive
        biggest = int(np.argmax(profile.norms))
        root = float(np.sqrt(profile.n))
        return {
            "layer": study.layers[study.view_index].name,
            "call": study.view_index + 1,
            "tokens": len(profile.norms),
            "n": profile.n,
            "radius": fmt.number(float(np.median(profile.radii)), 2),
            "root": fmt.number(root, 0 if root == round(root) else 2),
            "exact": "=" if root == round(root) else "approx",
            "inner": fmt.number(float(profile.radii.min()), 2),
            "limit": fmt.number(study.limit, 0),
            "clipped": int(study.clipped.sum()),
            "token": token_label(self.token_text(biggest)),
            "norm": fmt.number(float(profile.norms[biggest]), 0),
            "median": fmt.number(massive.median, 0),
        }

    def token_text(self, index: int) -> str:
        tokens = self.study.states.tokens
        return tokens[index] if index < len(tokens) else f"#{index + 1}"

    def show_dimension(self) -> None:
        """The participation ratio of the normalized states against the linear span of the layer's
        outputs (n, or n − 1 in the hyperplane) and the bound the tokens set; the curved set's
        dimension (n − 1, or n − 2) said apart."""
        study = self.study
        profile = study.profiles[study.view_index]
        dimension = profile.dimension
        kind = "layernorm" if self.centred else "rmsnorm"
        values = {"ratio": self.fmt.number(dimension.ratio, 1), "bound": dimension.rank_bound,
                  "tokens": dimension.tokens, "span": output_span(self.centred, profile.n),
                  "free": degrees_of_freedom(kind, profile.n), "n": profile.n, "call": study.view_index + 1}
        # "one sentence cannot tell" only while the tokens span fewer directions than the outputs can
        bounded = "bounded" if dimension.rank_bound < values["span"] else "open"
        self.dimension_text = self.view_readout(f"readout.dimension-{bounded}", **values)
        self.show_readout("dimension", self.dimension_text, run_time=1.0, hold=2.5,
                          lead=self.words(f"lead.dimension-{bounded}", **values), **values)

    def show_gamma(self) -> None:
        """γ stretches the sphere into an ellipsoid: its longest and shortest semi-axes."""
        study = self.study
        ellipsoid = study.profiles[study.view_index].ellipsoid
        if ellipsoid is None:
            values, key = {}, "none"
        else:
            values = {"longest": self.fmt.number(ellipsoid.longest, 1),
                      "shortest": self.fmt.number(ellipsoid.shortest, two_figures(ellipsoid.shortest)),
                      "radius": self.fmt.number(ellipsoid.radius, 2), "stretch": self.fmt.number(ellipsoid.stretch, 0)}
            key = "flat" if ellipsoid.shortest < 0.01 * ellipsoid.radius else "stretched"
        self.gamma_key = key
        self.gamma_text = self.view_readout(f"readout.gamma-{key}", **values)
        self.show_readout("gamma", self.gamma_text, run_time=1.0, hold=2.5,
                          lead=self.words(f"lead.gamma-{key}", **values), **values)

    @property
    def layer_color(self) -> str:
        return self.palette.layernorm if self.centred else self.palette.rmsnorm
