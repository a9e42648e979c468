"""real-states-rmsnorm and real-states-layernorm: built in dry run in every language; the numbers in
their text are recomputed here from the states file with plain numpy; the drawn tokens sit where
the core puts them, on the sphere; a user's own file renders too, with the sentences its numbers call for."""

import numpy as np
import pytest

from normgeo_models.states_file import LayerStates, States, read_states, write_states
from scenes.kit.adapters import to_coordinates
from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import NumberFormat
from scenes.kit.real_states import STATES_DIR
from scenes.kit.spec import SpecError
from scenes.real_states_layernorm import RealStatesLayernorm, RealStatesLayernormSpec
from scenes.real_states_rmsnorm import RealStatesRmsnorm, RealStatesRmsnormSpec
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene


def drawn_ends(scene):
    return to_coordinates(scene.axes3d, np.array([arrow[0].get_end() for arrow in scene.landed_arrows]), dim=3)


def medians(layers):
    return np.array([np.median(np.linalg.norm(layer.tokens(), axis=1)) for layer in layers])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rmsnorm_scene_says_the_numbers_of_smollm2(lang, media_dir):
    scene = build_scene(RealStatesRmsnorm, RealStatesRmsnormSpec(lang=lang), media_dir)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)
    layers = read_states(STATES_DIR / "smollm2.safetensors").layers
    fmt = NumberFormat(lang)
    median = medians(layers)
    values = {"first": fmt.number(median[0], 1), "last": fmt.number(median[-1], 0),
              "ratio": fmt.number(median[-1] / median[0], 0), "rises": int(np.sum(np.diff(median) > 0)),
              "steps": len(layers) - 1}
    assert scene.drift_text.typst_code == scene.words("readout.drift-grows", **values)
    ratios = [np.linalg.norm(l.tokens(), axis=1).max() / np.median(np.linalg.norm(l.tokens(), axis=1)) for l in layers]
    where = int(np.argmax(ratios))
    assert scene.massive_values["call"] == where + 1 and scene.massive_values["ratio"] == fmt.number(ratios[where], 0)
    assert scene.massive_values["token"] == "The" and scene.massive_values["position"] == 1
    ends = drawn_ends(scene)
    assert np.allclose(np.linalg.norm(ends, axis=1), 24.0, rtol=1e-5)  # √576, ε = 1e-5 invisible here
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert "575" in said["dimension"] and "576" in said["dimension"]
    assert "SmolLM2-135M-Instruct" in scene.words("title")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_layernorm_scene_says_the_numbers_of_minilm(lang, media_dir):
    scene = build_scene(RealStatesLayernorm, RealStatesLayernormSpec(lang=lang), media_dir)
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)
    layers = read_states(STATES_DIR / "minilm.safetensors").layers
    fmt = NumberFormat(lang)
    shares = [np.abs(l.tokens().mean(axis=1)) * np.sqrt(384) / np.linalg.norm(l.tokens(), axis=1) for l in layers]
    largest = max(s.max() for s in shares)
    assert scene.share_values["largest"] == fmt.number(largest, 3) and largest < 0.1
    assert scene.share_text.typst_code == scene.words("readout.share-near", **scene.share_values)
    angle = max(np.degrees(np.arcsin(s.max())) for s in shares)  # share = sin(angle)
    assert scene.angle_values["largest"] == fmt.number(angle, 1)
    assert np.allclose(np.linalg.norm(drawn_ends(scene), axis=1), np.sqrt(384), rtol=1e-5)
    ends = drawn_ends(scene)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert "382" in said["dimension"] and "383" in said["dimension"] and len(ends) == 12
    assert "all-MiniLM-L6-v2" in scene.words("title")


def test_a_users_file_without_drift_or_massive_tokens(tmp_path, media_dir):
    """Norms that shrink with depth and no outlier: the scene says so (and ε = 0.5 pulls tokens inside)."""
    rng = np.random.default_rng(1)
    layers = tuple(LayerStates(f"blk.{i}.norm", "rmsnorm", 0.5, rng.normal(size=(6, 8)) * (3.0 / (i + 1)),
                               weight=np.full(8, 2.0)) for i in range(4))
    path = write_states(tmp_path / "mine.safetensors", States("my_model", "hello world", layers))
    scene = build_scene(RealStatesRmsnorm, RealStatesRmsnormSpec(source=str(path), theme="light"), media_dir)
    assert_narrates_every_step(scene)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert "no net growth" in said["drift"] and "No token has a massive norm" in said["massive"]
    assert "not every token reaches the sphere" in said["zoom"] and "stores no outputs" in said["epsilon"]
    assert "one sentence cannot tell" in said["dimension"]  # 6 tokens span at most 5 of the 7 free directions
    assert "my_model" in said["intro"] and scene.words("title") == 'Real hidden states: RMSNorm in #"my_model"'


def test_bad_sources_are_refused_in_one_line(tmp_path):
    with pytest.raises(SpecError, match="no such file"):
        RealStatesRmsnormSpec(source=str(tmp_path / "nope.safetensors"))
    with pytest.raises(SpecError, match="needs at least 2 layernorm layers"):
        RealStatesLayernormSpec(source=str(STATES_DIR / "smollm2.safetensors"))
    with pytest.raises(SpecError, match="layer: the file has 61 such calls"):
        RealStatesRmsnormSpec(layer=62)
    assert RealStatesRmsnormSpec(layer=61).layer == 61  # calls are counted from 1, as they are shown


def test_a_bare_npy_of_inputs_renders_with_what_it_lacks_said(tmp_path, media_dir):
    """A .npy (layers, tokens, n): no γ, no outputs, ε = 0; the scene says it has no γ to show."""
    rng = np.random.default_rng(2)
    np.save(tmp_path / "inputs.npy", rng.normal(size=(3, 5, 7)) * np.array([1.0, 4.0, 9.0])[:, None, None])
    scene = build_scene(RealStatesRmsnorm, RealStatesRmsnormSpec(source=str(tmp_path / "inputs.npy")), media_dir)
    assert_narrates_every_step(scene)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert said["gamma"] == scene.words("lead.gamma-none") and "stores no outputs" in said["epsilon"]
    assert "grows from" in said["drift"]  # norms 1, 4, 9 times a common scale
    assert np.allclose(np.linalg.norm(drawn_ends(scene), axis=1), np.sqrt(7), rtol=1e-9)  # ε = 0: exactly √n


def test_more_tokens_than_free_directions_are_not_said_to_be_too_few(tmp_path, media_dir):
    """12 tokens in n = 4: they can span all 3 free directions, so the scene does not say one sentence
    cannot tell; a ratio under 10 is said with its decimal, not rounded to "1 times"."""
    rng = np.random.default_rng(3)
    layers = tuple(LayerStates(f"blk.{i}.norm", "rmsnorm", 1e-6, rng.normal(size=(12, 4)) * (1.0 + 0.3 * i))
                   for i in range(2))
    path = write_states(tmp_path / "wide.safetensors", States("wide", "a b c", layers))
    scene = build_scene(RealStatesRmsnorm, RealStatesRmsnormSpec(source=str(path)), media_dir)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    assert "cannot tell" not in said["dimension"] and "of at most 4 that 12 tokens can span" in said["dimension"]
    assert scene.drift_values["ratio"] == NumberFormat("en").number(medians(layers)[1] / medians(layers)[0], 1)


def test_a_users_quantized_file_is_not_said_to_be_the_bundled_q4_1(tmp_path, media_dir):
    """The shipped SmolLM2 file's scheme (Q4_1) is said only of it; a user's dequantized file is said
    to be quantized, with no scheme the scene cannot know."""
    rng = np.random.default_rng(5)
    layers = tuple(LayerStates(f"blk.{i}.norm", "rmsnorm", 1e-6, rng.normal(size=(6, 8)) * (1.0 + i))
                   for i in range(2))
    path = write_states(tmp_path / "q8.safetensors", States("q8_model", "a b c", layers, notes="dequantized from Q8_0"))
    scene = build_scene(RealStatesRmsnorm, RealStatesRmsnormSpec(source=str(path)), media_dir)
    intro = dict(zip((s.key for s in scene.steps), scene.narration))["intro"]
    assert "stored quantized" in intro and "Q4_1" not in intro
    shipped = build_scene(RealStatesRmsnorm, RealStatesRmsnormSpec(), media_dir)
    assert "Q4_1" in dict(zip((s.key for s in shipped.steps), shipped.narration))["intro"]


def test_a_users_file_whose_numbers_are_equal_is_not_narrated_as_a_comparison(tmp_path, media_dir):
    """ε = 0 and stored outputs equal to the formula's: every radius is √24 = 4.899, by the law and as
    stored; the narration says so, never "4.899 instead of 4.899" nor "from 4.9 to 4.9". The title
    names the file's model; calls and tokens are counted from 1 (zh: 第 1 次, never 第 0 次)."""
    rng = np.random.default_rng(8)
    layers = []
    for i in range(3):
        x = rng.normal(size=(5, 24)) * (1.0 + i)
        out = x / np.sqrt(np.mean(x * x, axis=1, keepdims=True))
        layers.append(LayerStates(f"blk.{i}.norm", "rmsnorm", 0.0, x, output=out, weight=np.ones(24)))
    path = write_states(tmp_path / "equal.safetensors", States("my-tiny-lm", "one two three four five", tuple(layers)),
                        dtype=np.float64)
    for lang in ("en", "zh"):
        scene = build_scene(RealStatesRmsnorm, RealStatesRmsnormSpec(source=str(path), lang=lang), media_dir)
        said = dict(zip((s.key for s in scene.steps), scene.narration))
        assert "my-tiny-lm" in scene.words("title") and "my-tiny-lm" in said["intro"]
        if lang == "en":
            assert "instead of" not in said["epsilon"] and "within 0.1% of √24 = 4.899" in said["epsilon"]
            assert "from 4.9 to 4.9" not in said["epsilon"] and "give 4.9 for every token" in said["epsilon"]
            assert scene.epsilon_key == "close-one"
        else:
            assert "第 0 次" not in " ".join(scene.narration) and "第 0 次" not in scene.massive_text.typst_code
        assert scene.massive_values["position"] >= 1 and scene.massive_values["call"] >= 1
