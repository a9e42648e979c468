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
from manim import DEGREES, DL, DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, ReplacementTransform, VGroup

from normgeo import (
    DepthSummary,
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
from scenes.kit.adapters import make_space_axes
from scenes.kit.base import EDGE, SMALL_SIZE, NormGeoThreeDScene, fit_width
from scenes.kit.spec import SceneSpec, SpecError, setting
from scenes.kit.text import SCENES_DIR
from scenes.kit.widgets import legend, space_segment, wire_sphere

__all__ = ["STATES_DIR", "load_states", "RealStatesSpec", "RealStatesStudy", "real_states_study", "RealStatesScene",
           "token_label", "typst_literal", "as_markup"]

STATES_DIR = SCENES_DIR / "states"
GEOMETRY_RADIUS = 2.0
CLOSE_UP = 1.3  # the close-up shows 1.3 radii
GEOMETRY_SHIFT = 2.3
FOCAL_DISTANCE = 80.0  # a weak perspective: the view looks at a point off the geometry's centre
READOUT_WIDTH = 7.4
COLUMN = 13.0  # the readouts run above the plot, across the 16:9 frame
STACKED_GEOMETRY_DROP = 1.8  # in a square or tall frame the 3-D view is centred this far below the figure's place
STACKED_GEOMETRY_RADIUS = 2.8  # and drawn larger (the frame's width is its own)
OVERVIEW = {"phi": 65 * DEGREES, "theta": -40 * DEGREES}


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
    """The states file, which of its normalization calls the 3-D view shows (−1: the middle one) and
    how many times the median a token's norm must be to count as massive."""

    default_file: ClassVar[str] = ""
    kinds: ClassVar[tuple[str, ...]] = ()
    source: str = ""
    layer: int = setting(-1, low=-1, high=10**6)
    factor: float = setting(10.0, low=1.5, high=1e6)

    def validate(self) -> None:
        layers = self.states().of_kind(*self.kinds)
        if len(layers) < 2:
            found = sorted({layer.kind for layer in self.states().layers})
            raise SpecError(f"source: this scene needs at least 2 {' or '.join(self.kinds)} layers, "
                            f"the file has {len(layers)} (kinds: {', '.join(found)})")
        if len(layers[0].tokens()) < 3:
            raise SpecError("source: the states hold fewer than 3 tokens; a 3-D view needs at least 3")
        if self.layer >= len(layers):
            raise SpecError(f"layer: the file has {len(layers)} such layers (0 to {len(layers) - 1}), got {self.layer}")
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
        index = len(layers) // 2 if spec.layer < 0 else spec.layer
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
    """The steps both real-states scenes narrate after their own plots."""

    centred: ClassVar[bool] = False

    @property
    def study(self) -> RealStatesStudy:
        return real_states_study(self.spec)

    def introduce(self) -> None:
        """Title, and the model, width, number of calls and tokens the file holds."""
        study = self.study
        states = study.states
        self.intro_values = {"model": states.model or "?", "n": study.profiles[0].n, "calls": len(study.layers),
                             "tokens": len(study.profiles[0].norms), "text": states.text}
        title = self.make_title()
        self.fix_in_frame(title)
        self.about = self.text("readout.model", font_size=SMALL_SIZE, **as_markup(self.intro_values))
        fit_width(self.about, self.column_width).next_to(title, DOWN, buff=0.25).to_edge(LEFT, buff=EDGE)
        self.fix_in_frame(self.about)
        self.say("intro", FadeIn(title), FadeIn(self.about), run_time=1.0, hold=1.0, **self.intro_lead(),
                 **self.intro_values)

    def intro_lead(self) -> dict:
        """More values for the intro's narration (none here; a scene adds its own)."""
        return {}

    @property
    def column_width(self) -> float:
        """The width of the readouts above the plot: across the frame."""
        return min(COLUMN, self.layout.content_width)

    @property
    def geometry_radius(self) -> float:
        """Half the 3-D view's axes, in scene units."""
        return self.layout.pick(GEOMETRY_RADIUS, STACKED_GEOMETRY_RADIUS)

    @property
    def readout_width(self) -> float:
        """The width of the readouts stacked up from the bottom left during the 3-D view."""
        return self.layout.pick(READOUT_WIDTH, self.layout.content_width)

    def place_plot(self, axes):
        """The plot right of its legend, under the readouts, at 16:9; in a square or tall frame under
        the model's line, its legend and the readouts below it."""
        if self.layout.stacked:
            return axes.next_to(self.about, DOWN, buff=1.0).set_x(0.4)
        return axes.move_to((3.55, -1.1, 0))

    def place_plot_key(self, key, axes, labels):
        """The plot's legend: left of the plot at 16:9, under it (and its axis names) when stacked."""
        if self.layout.stacked:
            return key.next_to(VGroup(axes, labels), DOWN, buff=0.3).to_edge(LEFT, buff=EDGE)
        return key.next_to(axes, LEFT, buff=1.2).align_to(axes, DOWN)

    def column_top(self, plot):
        """What the first readout goes under: the model's line at 16:9, the plot when stacked."""
        return plot if self.layout.stacked else self.about

    def show_landing(self, plot_group) -> None:
        """The plot makes way for the 3-D view: tokens at their true length along their projection on 3
        principal directions, then each moved along its ray onto the sphere (before γ)."""
        study, colors = self.study, self.palette
        profile = study.profiles[study.view_index]
        layer = study.layers[study.view_index]
        self.play(FadeOut(plot_group), run_time=0.6)
        self.set_camera_orientation(**OVERVIEW)
        # The origin drawn GEOMETRY_SHIFT to the right of the screen's centre, clear of the readouts on the left:
        # the camera projects R·(x − c), so the world point c = −Rᵀ·(shift, 0, 0) makes the origin land there.
        rotation = self.renderer.camera.generate_rotation_matrix()
        # in a square or tall frame the origin is drawn across the frame's middle, between the legend and the readouts
        origin_on_screen = self.layout.pick((GEOMETRY_SHIFT, 0.0, 0.0),
                                            (0.0, self.layout.figure_center[1] - STACKED_GEOMETRY_DROP, 0.0))
        self.set_camera_orientation(frame_center=-rotation.T @ np.array(origin_on_screen),
                                    focal_distance=FOCAL_DISTANCE)
        # Drawn GEOMETRY_RADIUS scene units across, whatever the states' scale: Manim's 3-D camera
        # has a perspective focal distance of 20 units, so the geometry must stay small in scene units.
        self.axes3d = make_space_axes(study.limit, 2 * self.geometry_radius, colors)
        self.token_arrows = self.arrows(self.axes3d, study.before_drawn, colors.input)
        radius = float(np.median(profile.radii))
        self.sphere = wire_sphere(self.axes3d, radius, self.layer_color, opacity=0.45)
        values = self.view_values()
        self.key = legend([(colors.input, self.words("legend.before", **values)),
                           (self.layer_color, self.words("legend.sphere", **values))],
                          self.spec.lang, colors.text, SMALL_SIZE)
        self.key.next_to(self.about, DOWN, buff=0.3).to_edge(self.layout.pick(RIGHT, LEFT), buff=EDGE)
        self.view_note = self.text("view-note", font_size=SMALL_SIZE - 2, color=colors.muted, **as_markup(values))
        fit_width(self.view_note, self.readout_width).to_corner(DL, buff=EDGE)
        self.fix_in_frame(self.key, self.view_note)
        self.stack_top = self.view_note  # readouts stack upwards from the bottom left corner
        clipped = "clipped" if study.clipped.any() else "whole"
        self.say("view", Create(self.axes3d), Create(self.token_arrows), FadeIn(self.key), FadeIn(self.view_note),
                 run_time=1.5, hold=1.5, lead=self.words(f"lead.{clipped}", **values), **values)
        landed = self.arrows(self.axes3d, study.after, self.layer_color)
        key_after = legend([(self.layer_color, self.words("legend.after", **values)),
                            (self.layer_color, self.words("legend.sphere", **values))],
                           self.spec.lang, colors.text, SMALL_SIZE)
        key_after.next_to(self.about, DOWN, buff=0.3).to_edge(self.layout.pick(RIGHT, LEFT), buff=EDGE)
        self.renderer.camera.add_fixed_in_frame_mobjects(key_after)  # fixed, but on screen only once it replaces the key
        self.say("land", Create(self.sphere), ReplacementTransform(self.token_arrows, landed),
                 ReplacementTransform(self.key, key_after), run_time=2.0, hold=1.0, **values)
        self.key = key_after  # the legend names what is drawn now: the tokens after the norm, before γ
        inside = float(profile.radii.min()) < 0.99 * float(np.sqrt(profile.n))  # 1 %: visible in the close-up
        close = make_space_axes(CLOSE_UP * radius, 2 * self.geometry_radius, colors)
        self.close_sphere = wire_sphere(close, radius, self.layer_color, opacity=0.45)
        self.landed_arrows = self.arrows(close, study.after, self.layer_color)
        self.say("zoom", ReplacementTransform(self.axes3d, close), ReplacementTransform(self.sphere, self.close_sphere),
                 ReplacementTransform(landed, self.landed_arrows), run_time=2.0, hold=1.5,
                 lead=self.words(f"lead.zoom-{'inside' if inside else 'on'}", **values), **values)
        self.axes3d = close
        self.view_layer_name = layer.name

    def arrows(self, axes, points, color: str) -> VGroup:
        """A segment from the origin to each point, its tip dot kept facing the camera."""
        group = VGroup(*(space_segment(axes, np.zeros(3), p, color, stroke_width=4) for p in points))
        for arrow in group:
            self.renderer.camera.add_fixed_orientation_mobjects(arrow[1])
        return group

    def view_values(self) -> dict:
        study, fmt = self.study, self.fmt
        profile = study.profiles[study.view_index]
        massive = profile.massive
        biggest = int(np.argmax(profile.norms))
        return {
            "layer": study.layers[study.view_index].name,
            "index": study.view_index,
            "tokens": len(profile.norms),
            "n": profile.n,
            "radius": fmt.number(float(np.median(profile.radii)), 2),
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
        """The participation ratio of the normalized states against n − 1 (or n − 2) and the bound
        the number of tokens sets."""
        study = self.study
        profile = study.profiles[study.view_index]
        dimension = profile.dimension
        kind = "layernorm" if self.centred else "rmsnorm"
        values = {"ratio": self.fmt.number(dimension.ratio, 1), "bound": dimension.rank_bound,
                  "tokens": dimension.tokens, "free": degrees_of_freedom(kind, profile.n), "n": profile.n,
                  "index": study.view_index}
        self.dimension_text = self.text("readout.dimension", font_size=SMALL_SIZE, **values)
        fit_width(self.dimension_text, self.readout_width).next_to(self.stack_top, UP, buff=0.2,
                                                  aligned_edge=LEFT)
        self.fix_in_frame(self.dimension_text)
        self.stack_top = self.dimension_text
        # "one sentence cannot tell" only while the tokens span fewer directions than are free
        bounded = "bounded" if dimension.rank_bound < values["free"] else "open"
        self.say("dimension", FadeIn(self.dimension_text), run_time=1.0, hold=2.5,
                 lead=self.words(f"lead.dimension-{bounded}", **values), **values)

    def show_gamma(self) -> None:
        """γ stretches the sphere into an ellipsoid: its longest and shortest semi-axes."""
        study = self.study
        ellipsoid = study.profiles[study.view_index].ellipsoid
        if ellipsoid is None:
            values, key = {}, "none"
        else:
            values = {"longest": self.fmt.number(ellipsoid.longest, 2),
                      "shortest": self.fmt.number(ellipsoid.shortest, 2),
                      "radius": self.fmt.number(ellipsoid.radius, 2), "stretch": self.fmt.number(ellipsoid.stretch, 0)}
            key = "flat" if ellipsoid.shortest < 0.01 * ellipsoid.radius else "stretched"
        self.gamma_key = key
        self.gamma_text = self.text(f"readout.gamma-{key}", font_size=SMALL_SIZE, **values)
        fit_width(self.gamma_text, self.readout_width).next_to(self.stack_top, UP, buff=0.2,
                                              aligned_edge=LEFT)
        self.fix_in_frame(self.gamma_text)
        self.stack_top = self.gamma_text
        self.say("gamma", FadeIn(self.gamma_text), run_time=1.0, hold=2.5,
                 lead=self.words(f"lead.gamma-{key}", **values), **values)

    @property
    def layer_color(self) -> str:
        return self.palette.layernorm if self.centred else self.palette.rmsnorm

