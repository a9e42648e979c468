"""The steps both real-states scenes share (scenes/kit/real_states.py), built in dry run one step
group at a time on the shipped SmolLM2 file: every number they show is recomputed here from the
file's arrays with plain numpy (RMSNorm by hand, the participation ratio from the Gram matrix's
trace and Frobenius norm, γ's semi-axes √n·|γᵢ|), and the drawn arrows, sphere and camera are read
back from the mobjects.

The scenes' own tests (tests/scenes/test_real_states_scenes.py) render the whole scenes in every
language; these build only the kit's steps (a minute less each), so that mutation testing can run them.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np
import pytest
from manim import DEGREES, DOWN, Square, VGroup, tempconfig

from normgeo_models.states_file import LayerStates, States, read_states, write_states
from scenes.kit.adapters import to_coordinates
from scenes.kit.base import EDGE, SMALL_SIZE
from scenes.kit.frame_layout import frame_size
from scenes.kit.numbers import NumberFormat
from scenes.kit.real_states import (
    BACK,
    FRONT,
    GEOMETRY_SHIFT,
    STACKED_GEOMETRY_DROP,
    STATES_DIR,
    as_markup,
    token_label,
    typst_literal,
)
from scenes.kit.theme import palette
from scenes.real_states_layernorm import RealStatesLayernorm, RealStatesLayernormSpec
from scenes.real_states_rmsnorm import RealStatesRmsnorm, RealStatesRmsnormSpec

FILE = STATES_DIR / "smollm2.safetensors"
# One media folder for every build of this module in a process: Manim keeps each parsed Typst SVG in
# memory by its file's path, so a second build (another test, or a mutant's run forked by mutmut
# after the first) parses nothing again. Each process (an xdist worker) has its own folder.
MEDIA = Path(tempfile.mkdtemp(prefix="normgeo-real-states-steps-"))


class HandNumbers:
    """What the middle RMSNorm call of the file shows, from the arrays alone."""

    def __init__(self, factor: float = 10.0):
        states = read_states(FILE)
        layers = [layer for layer in states.layers if layer.kind in ("rmsnorm", "unknown")]
        self.layers, self.index = layers, len(layers) // 2
        layer = layers[self.index]
        x = layer.input.reshape(-1, layer.input.shape[-1]).astype(np.float64)
        self.name, self.tokens, self.n, self.eps = layer.name, x.shape[0], x.shape[1], layer.eps
        self.normalized = x / np.sqrt(np.mean(x * x, axis=1) + layer.eps)[:, None]
        self.radii = np.sqrt(np.sum(self.normalized ** 2, axis=1))
        self.norms = np.sqrt(np.sum(x * x, axis=1))
        self.median = float(np.median(self.norms))
        massive = self.norms >= factor * self.median
        self.limit = 1.1 * max(float(self.norms[~massive].max()), float(self.radii.max()))
        self.clipped = int(np.sum(self.norms > self.limit))
        self.biggest = int(np.argmax(self.norms))
        self.token = states.tokens[self.biggest]
        centred = self.normalized - self.normalized.mean(axis=0)
        gram = centred @ centred.T
        self.ratio = float(np.trace(gram) ** 2 / np.sum(gram * gram))  # (Σλ)²/Σλ², λ of the covariance
        self.bound = min(self.tokens - 1, self.n)  # RMSNorm's outputs span all n directions
        gamma = np.abs(layer.weight.astype(np.float64))
        self.longest, self.shortest = math.sqrt(self.n) * gamma.max(), math.sqrt(self.n) * gamma.min()


HAND = HandNumbers()


class DimensionAndGamma(RealStatesRmsnorm):
    """The real scene's introduction, then only the kit's dimension and γ steps stacked on it."""

    @classmethod
    def text_file(cls):
        return RealStatesRmsnorm.text_file()

    def construct(self) -> None:
        self.introduce()
        self.stack_top = self.about
        self.show_dimension()
        self.show_gamma()


class Landing(DimensionAndGamma):
    """The real scene's introduction, then only the kit's 3-D landing."""

    def construct(self) -> None:
        self.introduce()
        self.show_landing(VGroup())


class RecordedLanding(Landing):
    """The landing, with what each ``play`` was given and the overview as its "view" step begins."""

    def play(self, *animations, **kwargs):
        self.__dict__.setdefault("played", []).append(([type(a).__name__ for a in animations], kwargs.get("run_time")))
        super().play(*animations, **kwargs)

    def say(self, step, *animations, **kwargs):
        if step == "land":
            self.renderer.camera.reset_rotation_matrix()  # (a dry run draws no frame, which would refresh it)
            self.overview = {  # values, not the mobjects: this step transforms the arrows
                "length": self.axes3d.x_axis.get_length(),
                "arrows": {arrow[0].get_color().to_hex().lower() for arrow in self.token_arrows},
                "sphere": {ring.get_stroke_color().to_hex().lower() for ring in self.sphere},
                "opacity": {round(float(ring.get_stroke_opacity()), 9) for ring in self.sphere},
                "names": [name.typst_code for name in self.names3d],
                "sizes": {round(float(name.font_size), 9) for name in self.names3d},
                "origin": self.renderer.camera.project_points(self.view_origin[None, :])[0].copy()}
        super().say(step, *animations, **kwargs)


class PlotPlacement(DimensionAndGamma):
    """The real scene's introduction, then the kit's placing of a plot (a square) and of the readout
    above it."""

    def construct(self) -> None:
        self.introduce()
        self.axes = self.place_plot(Square(side_length=3.0))
        self.readout_text = self.first_readout("readout.massive-none", factor="10", ratio="3")


class LayernormDimension(RealStatesLayernorm):
    """The LayerNorm scene's introduction, then only the kit's dimension step."""

    @classmethod
    def text_file(cls):
        return RealStatesLayernorm.text_file()

    def construct(self) -> None:
        self.introduce()
        self.show_dimension()


def build(scene_class, tmp_path, lang="en", pixels=None, spec=None):
    options = {"dry_run": True, "media_dir": str(MEDIA), "verbosity": "ERROR", "progress_bar": "none",
               "notify_outdated_version": False}
    if pixels is not None:
        options["pixel_width"], options["pixel_height"] = pixels
        options["frame_width"], options["frame_height"] = frame_size(*pixels)
    with tempconfig(options):
        scene = scene_class(spec=spec or RealStatesRmsnormSpec(lang=lang), skip_animations=True)
        scene.render()
    return scene


def step(scene, key):
    [found] = [s for s in scene.steps if s.key == key]
    return found


def test_the_hand_numbers_are_those_the_scene_tests_quote():
    """Anchors for the numbers below: SmolLM2-135M has n = 576, 10 tokens, 'The' the massive one."""
    assert HAND.n == 576 and HAND.tokens == 10 and HAND.token == "The"
    assert np.allclose(HAND.radii, 24.0, rtol=1e-5)


def gamma_values(gamma: np.ndarray, n: int) -> dict:
    fmt, root = NumberFormat("en"), math.sqrt(n)
    longest, shortest = root * float(np.abs(gamma).max()), root * float(np.abs(gamma).min())
    figures = max(1, 1 - math.floor(math.log10(shortest)))  # 2 significant figures
    return {"longest": fmt.number(longest, 1), "shortest": fmt.number(shortest, figures),
            "radius": fmt.number(root, 2), "stretch": fmt.number(longest / shortest, 0)}


def test_the_dimension_and_gamma_readouts_say_the_files_numbers(tmp_path):
    scene = build(DimensionAndGamma, tmp_path)
    fmt = NumberFormat("en")
    values = {"ratio": fmt.number(HAND.ratio, 1), "bound": HAND.bound, "tokens": HAND.tokens, "span": HAND.n,
              "free": HAND.n - 1, "n": HAND.n, "call": HAND.index + 1}
    assert HAND.bound < HAND.n  # 10 tokens span at most 9 of the 576 directions RMSNorm's outputs can span
    assert scene.dimension_text.typst_code == scene.words("readout.dimension-bounded", **values)
    lead = scene.words("lead.dimension-bounded", **values)
    assert step(scene, "dimension").text == scene.words("say.dimension", lead=lead, **values)
    assert "n = 576" in lead and "n − 1 = 575" in lead and "at most 9" in lead
    weight = read_states(FILE).of_kind("rmsnorm", "unknown")[HAND.index].weight
    gamma = gamma_values(weight.astype(np.float64), HAND.n)
    key = "flat" if HAND.shortest < 0.01 * math.sqrt(HAND.n) else "stretched"
    assert scene.gamma_key == key
    assert scene.gamma_text.typst_code == scene.words(f"readout.gamma-{key}", **gamma)
    lead = scene.words(f"lead.gamma-{key}", **gamma)
    assert step(scene, "gamma").text == scene.words("say.gamma", lead=lead, **gamma)
    # one readout at a time, in one place: the dimension's has left when γ's is shown
    assert scene.readout is scene.gamma_text and scene.dimension_text not in scene.mobjects
    assert scene.gamma_text.get_left()[0] == pytest.approx(scene.dimension_text.get_left()[0], abs=1e-6)
    assert [s.key for s in scene.steps] == ["intro", "dimension", "gamma"]


def test_the_dimension_step_compares_with_the_span_of_the_layers_outputs(tmp_path):
    """LayerNorm's outputs lie in the hyperplane: MiniLM (n = 384) spans at most 383 linear
    directions, its set is 382-dimensional; RMSNorm's span 576 and their sphere is 575-dimensional."""
    minilm = build(LayernormDimension, tmp_path, spec=RealStatesLayernormSpec())
    n = read_states(STATES_DIR / "minilm.safetensors").of_kind("layernorm")[0].input.shape[-1]
    said = step(minilm, "dimension").text
    assert n == 384 and "n − 1 = 383" in said and "n − 2 = 382" in said and "at most 11" in said
    said = step(build(DimensionAndGamma, tmp_path), "dimension").text
    assert "n = 576" in said and "n − 1 = 575" in said


def test_the_dimension_step_says_one_sentence_cannot_tell_only_with_fewer_tokens_than_the_span(tmp_path):
    """RMSNorm in n = 4: 5 tokens can span all 4 directions, so the step reads "of at most 4 that 5
    tokens can span"; 4 tokens (at most 3) cannot tell."""
    rng = np.random.default_rng(4)
    said = {}
    for tokens in (5, 4):
        layers = tuple(LayerStates(f"blk.{i}.norm", "rmsnorm", 1e-6, rng.normal(size=(tokens, 4)) * (1.0 + i))
                       for i in range(2))
        path = write_states(tmp_path / f"t{tokens}.safetensors", States("tiny", "a b c d", layers))
        said[tokens] = step(build(DimensionAndGamma, tmp_path, spec=RealStatesRmsnormSpec(source=str(path))),
                            "dimension").text
    assert "of at most 4 that 5 tokens can span" in said[5] and "cannot tell" not in said[5]
    assert "4 tokens span at most 3: one sentence cannot tell" in said[4]


def test_the_gamma_step_of_a_nearly_flat_ellipsoid_and_of_a_file_without_gamma(tmp_path):
    """γ = (2, 1, 1, 1, 0.001) in n = 5: semi-axes √5·|γᵢ| from 0.0022 to 4.47 around the sphere of
    radius √5 ≈ 2.24; the shortest is under 1 % of the radius, so "nearly flat". A bare .npy holds
    no γ: the step says so and shows no ellipsoid."""
    rng = np.random.default_rng(6)
    weight = np.array([2.0, 1.0, 1.0, 1.0, 0.001])
    layers = tuple(LayerStates(f"blk.{i}.norm", "rmsnorm", 1e-6, rng.normal(size=(6, 5)) * (1.0 + i), weight=weight)
                   for i in range(2))
    flat = build(DimensionAndGamma, tmp_path, spec=RealStatesRmsnormSpec(
        source=str(write_states(tmp_path / "flat.safetensors", States("flat", "a b c d e f", layers)))))
    values = gamma_values(weight, 5)
    assert values["radius"] == "2.24" and values["shortest"] == "0.0022" and flat.gamma_key == "flat"
    assert flat.gamma_text.typst_code == flat.words("readout.gamma-flat", **values)
    assert step(flat, "gamma").text == flat.words("say.gamma", lead=flat.words("lead.gamma-flat", **values), **values)
    np.save(tmp_path / "bare.npy", rng.normal(size=(2, 5, 4)))
    bare = build(DimensionAndGamma, tmp_path, spec=RealStatesRmsnormSpec(source=str(tmp_path / "bare.npy")))
    assert bare.gamma_key == "none" and bare.gamma_text.typst_code == bare.words("readout.gamma-none")
    assert step(bare, "gamma").text == bare.words("say.gamma", lead=bare.words("lead.gamma-none"))


@pytest.mark.parametrize("pixels", [None, (1080, 1920)])
def test_the_overview_before_the_landing_is_drawn_as_laid_out(tmp_path, pixels):
    """The plot and the model's line fade out in 0.6 s; the overview's axes are 2 × the geometry
    radius long and named u₁ u₂ u₃ (above the small size), its tokens in the input colour, its sphere
    in the layer's colour, its back half dimmer than its front; the origin is drawn right of the
    readout at 16:9 and across the middle, dropped below the figure's centre, in a tall frame."""
    scene = build(RecordedLanding, tmp_path, pixels=pixels)
    colors, view = palette("dark"), scene.overview
    assert next(played for played in scene.played if "FadeOut" in played[0]) == (["FadeOut", "FadeOut"], 0.6)
    assert view["length"] == pytest.approx(2 * scene.geometry_radius, rel=1e-9)
    assert view["arrows"] == {colors.input.lower()} and view["sphere"] == {scene.layer_color.lower()}
    assert view["opacity"] == {BACK, FRONT}
    assert view["names"] == ["$u_1$", "$u_2$", "$u_3$"] and view["sizes"] == {SMALL_SIZE + 4}
    if pixels is None:
        assert view["origin"][:2] == pytest.approx(list(GEOMETRY_SHIFT), abs=1e-9)
    else:
        assert view["origin"][:2] == pytest.approx([0.0, scene.layout.figure_center[1] - STACKED_GEOMETRY_DROP], abs=1e-9)


def test_the_landing_draws_the_tokens_on_the_sphere_and_says_the_files_numbers(tmp_path):
    scene = build(Landing, tmp_path)
    fmt = NumberFormat("en")
    radius = float(np.median(HAND.radii))
    # the close-up: axes over ±1.3 radii, the sphere of the median radius, every token on it
    ends = to_coordinates(scene.axes3d, np.array([arrow[0].get_end() for arrow in scene.landed_arrows]), dim=3)
    assert len(ends) == HAND.tokens
    assert np.allclose(np.linalg.norm(ends, axis=1), HAND.radii, rtol=1e-6)
    assert scene.axes3d.x_range[1] == pytest.approx(1.3 * radius)
    for ring in scene.close_sphere:
        drawn = to_coordinates(scene.axes3d, ring.get_anchors(), dim=3)
        assert np.allclose(np.linalg.norm(drawn, axis=1), radius, rtol=1e-9)
    # the camera: the overview angles, a weak perspective, the origin drawn right of the readout
    camera = scene.renderer.camera
    assert camera.get_phi() == pytest.approx(65 * DEGREES) and camera.get_theta() == pytest.approx(-40 * DEGREES)
    assert camera.get_focal_distance() == pytest.approx(80.0)
    assert np.allclose(camera.project_points(scene.axes3d.c2p(0, 0, 0)[None, :])[0], [*GEOMETRY_SHIFT, 0.0], atol=1e-9)
    values = {"layer": HAND.name, "call": HAND.index + 1, "tokens": HAND.tokens, "n": HAND.n,
              "radius": fmt.number(radius, 2), "root": "24", "exact": "=", "inner": fmt.number(float(HAND.radii.min()), 2),
              "limit": fmt.number(HAND.limit, 0), "clipped": HAND.clipped, "token": HAND.token,
              "norm": fmt.number(float(HAND.norms[HAND.biggest]), 0), "median": fmt.number(HAND.median, 0)}
    assert scene.view_values() == values
    whole = "clipped" if HAND.clipped else "whole"
    assert step(scene, "view").text == scene.words("say.view", lead=scene.words(f"lead.{whole}", **values), **values)
    inside = "inside" if HAND.radii.min() < 0.99 * math.sqrt(HAND.n) else "on"
    assert step(scene, "zoom").text == scene.words("say.zoom", lead=scene.words(f"lead.zoom-{inside}", **values),
                                                   **values)
    assert step(scene, "land").text == scene.words("say.land", **values)
    assert [s.key for s in scene.steps] == ["intro", "view", "land", "zoom"]
    assert scene.view_layer_name == HAND.name
    # the labels on the figure name what is drawn now: the sphere with its radius, the tokens after the norm
    assert scene.sphere_label.typst_code == scene.words("sphere-name", **values) == "sphere $sqrt(576) = 24$"
    assert scene.tokens_label.typst_code == scene.words("tokens-after", **values)
    assert scene.sphere_label.get_color().to_hex().lower() == scene.palette.rmsnorm.lower()
    # each arrow's tip is kept facing the camera, its shaft in the layer's colour, brighter nearer the camera
    fixed = scene.renderer.camera.fixed_orientation_mobjects
    assert all(arrow[1] in fixed for arrow in scene.landed_arrows)
    assert all(arrow[0].get_stroke_color().to_hex().lower() == scene.palette.rmsnorm.lower()
               and arrow[0].get_stroke_width() == 4 for arrow in scene.landed_arrows)
    depth = scene.depth(np.array([arrow[0].get_end() for arrow in scene.landed_arrows]))
    opacity = np.array([arrow[0].get_stroke_opacity() for arrow in scene.landed_arrows])
    assert np.all(np.diff(opacity[np.argsort(depth)]) >= -1e-9) and opacity.max() > opacity.min()


class LandingSeen(Landing):
    """The landing, noting what is on screen as each step's narration begins (the step before has ended)."""

    def construct(self) -> None:
        self.on_screen_at = {}
        super().construct()

    def begin_caption(self, step, when=None, **values):
        self.on_screen_at[step] = {id(m) for top in self.mobjects for m in top.get_family()}
        return super().begin_caption(step, when, **values)


def test_the_landings_steps_play_what_they_say_for_as_long_as_they_say(tmp_path):
    """What each step leaves on screen, read when the next one begins; the run time of each step's
    animations read from when its play and the wait after it began. The view's note leaves with
    the overview: one idea at a time."""
    scene = build(LandingSeen, tmp_path)
    seen = lambda step, *mobjects: all(id(m) in scene.on_screen_at[step] for m in mobjects)  # noqa: E731
    family = lambda group: list(group.get_family())  # noqa: E731
    assert seen("land", *family(scene.token_arrows))
    assert not any(id(m) in scene.on_screen_at["zoom"] for m in scene.token_arrows)
    assert scene.readout is None  # the view's note left as the tokens landed
    starts = sorted(scene.play_starts.values())
    for key, run_time in (("view", 1.5), ("land", 2.0), ("zoom", 2.0)):
        begun = step(scene, key).start
        after = [t for t in starts if t > begun + 1e-9]
        assert after[0] - begun == pytest.approx(run_time), key  # the wait after the step's play
    assert scene.sphere_label in scene.renderer.camera.fixed_in_frame_mobjects


def test_the_plot_sits_under_the_readout_at_16_9(tmp_path):
    scene = build(PlotPlacement, tmp_path)
    assert scene.axes.get_center() == pytest.approx((1.0, -1.15, 0.0))
    assert scene.readout_text.get_top()[1] == pytest.approx(scene.about.get_bottom()[1] - 0.35)
    assert scene.readout_text.get_left()[0] == pytest.approx(-scene.camera.frame_width / 2 + EDGE)


def test_the_plot_goes_under_the_model_line_in_a_tall_frame(tmp_path):
    scene = build(PlotPlacement, tmp_path, pixels=(1080, 1920))
    assert scene.layout.stacked
    assert scene.axes.get_top()[1] == pytest.approx(scene.about.get_bottom()[1] - 2.2)
    assert scene.axes.get_x() == pytest.approx(-0.6)


@pytest.mark.parametrize("lang", ["ru", "zh"])
def test_view_values_in_other_languages(lang):
    """Russian groups thousands with a no-break space and writes a decimal comma."""
    with tempconfig({"dry_run": True, "verbosity": "ERROR", "progress_bar": "none"}):
        scene = RealStatesRmsnorm(spec=RealStatesRmsnormSpec(lang=lang), skip_animations=True)
    fmt = NumberFormat(lang)
    values = scene.view_values()
    assert values["norm"] == fmt.number(float(HAND.norms[HAND.biggest]), 0)
    assert values["median"] == fmt.number(HAND.median, 0) and values["clipped"] == HAND.clipped
    if lang == "ru":
        assert "\u00a0" in values["norm"]
    assert scene.token_text(HAND.biggest) == HAND.token
    assert scene.token_text(len(read_states(FILE).tokens)) == f"#{len(read_states(FILE).tokens) + 1}"


@pytest.mark.parametrize(("piece", "label"), [("ĠThe", "The"), ("▁cat", "cat"), ("##ing", "ing"), ("Ġ", "Ġ"),
                                              ("a##b", "a##b"), ("plain", "plain"), ("ĠĠx", "x")])
def test_token_label_drops_the_tokenizers_markers(piece, label):
    """GPT-2's Ġ and SentencePiece's ▁ anywhere, WordPiece's ## only in front; a piece that is only a
    marker stays as it is (nothing would be left to show)."""
    assert token_label(piece) == label


def test_user_strings_become_typst_string_literals_and_numbers_stay():
    """A quote and a backslash are escaped, so the literal reads back as the very string."""
    assert typst_literal('say "hi"\\') == '#"say \\"hi\\"\\\\"'
    marked = as_markup({"model": "a*b", "text": "$x$", "token": "#", "layer": "l.0", "n": 4, "other": "x"})
    assert marked == {"model": '#"a*b"', "text": '#"$x$"', "token": '#"#"', "layer": '#"l.0"', "n": 4, "other": "x"}
    assert as_markup({"model": 3}) == {"model": 3}
    assert as_markup({"name": "x"}, names=("name",)) == {"name": '#"x"'}


def test_a_users_states_file_is_the_specs_input_file(tmp_path):
    """The file a render reads is what its cache key hashes: the user's own, else the shipped one."""
    rng = np.random.default_rng(7)
    layers = tuple(LayerStates(f"blk.{i}.norm", "rmsnorm", 1e-6, rng.normal(size=(4, 5))) for i in range(2))
    path = write_states(tmp_path / "mine.safetensors", States("mine", "a b c d", layers))
    assert RealStatesRmsnormSpec(source=str(path)).input_files() == (path,)
    assert RealStatesRmsnormSpec().input_files() == (FILE,)
