"""rmsnorm-vs-layernorm: RMSNorm(x) and LN(x) = RMSNorm(x − μ·1) as drawn; the angle curve is the sweep's."""

import math

import numpy as np
import pytest

from normgeo import (
    angle_between,
    centring_angle,
    centring_angle_sweep,
    euclidean_norm,
    layer_norm,
    on_zero_mean_hyperplane,
    rms_norm,
)
from scenes.kit.adapters import to_coordinates
from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import fmt_number
from scenes.rmsnorm_vs_layernorm import SWEEP_SAMPLES, RmsNormVsLayerNorm, RmsNormVsLayerNormSpec
from tests.scenes.helpers import (
    GEOMETRY_TOLERANCE,
    assert_layout_is_clean,
    assert_narrates_every_step,
    build_scene,
    centres,
)


def typeset(mobject) -> str:
    """The Typst source of a label, with the quotes that keep decimal commas together removed."""
    return mobject.typst_code.replace('"', "")


def check(scene, spec):
    inputs = np.array(spec.vectors)
    lang = spec.lang
    for k, x in enumerate(inputs):
        drawn = scene.drawn[k]
        mean = float(np.mean(x))
        centred = x - mean  # x − μ·1, computed here independently of the scene
        # the input arrow, RMSNorm(x) on the circle √2, RMSNorm(x − μ·1) and LN(x) at the same point
        assert np.allclose(to_coordinates(scene.plane, drawn["x"].get_end()), x, atol=GEOMETRY_TOLERANCE)
        rms = centres(scene.plane, [drawn["rms"]])[0]
        assert np.allclose(rms, rms_norm(x, eps=0.0), atol=GEOMETRY_TOLERANCE)
        assert math.isclose(float(euclidean_norm(rms)), math.sqrt(2), abs_tol=GEOMETRY_TOLERANCE)
        rms_of_centred = centres(scene.plane, [drawn["rms_of_centred"]])[0]
        ln = centres(scene.plane, [drawn["ln"]])[0]
        assert np.allclose(rms_of_centred, rms_norm(centred, eps=0.0), atol=GEOMETRY_TOLERANCE)
        assert np.allclose(ln, layer_norm(x, eps=0.0), atol=GEOMETRY_TOLERANCE)
        assert np.allclose(rms_of_centred, ln, atol=GEOMETRY_TOLERANCE)  # LN(x) = RMSNorm(x − μ·1), as drawn
        assert on_zero_mean_hyperplane(ln, tol=1e-9)
        # the centred arrow ends at RMSNorm(x − μ·1) and points along x − μ·1
        end = to_coordinates(scene.plane, drawn["centred"].get_end())
        assert np.allclose(end, rms_of_centred, atol=GEOMETRY_TOLERANCE)
        # the arc runs from RMSNorm(x) to LN(x) and spans arctan(|μ|/σ)
        arc = to_coordinates(scene.plane, drawn["arc"].get_anchors())
        assert np.allclose(angle_between(arc[0], rms), 0.0, atol=1e-7)
        assert np.allclose(angle_between(arc[-1], ln), 0.0, atol=1e-7)
        sigma = float(np.std(x))
        assert math.isclose(float(angle_between(arc[0], arc[-1])), math.atan(abs(mean) / sigma), abs_tol=1e-9)
        # the readout of the input drawn last, and the mark on the plot
        mark = centres(scene.plot_axes, [scene.plot_marks[k]])[0]
        assert np.allclose(mark, [mean / sigma, math.degrees(math.atan(abs(mean) / sigma))], atol=1e-9)
    last = scene.drawn[-1]["readout"]
    x = inputs[-1]
    assert fmt_number(math.degrees(float(centring_angle(np.mean(x) / np.std(x)))), 1, lang) in typeset(last[3])
    assert fmt_number(float(np.std(x)), lang=lang) in typeset(last[0])

    # the plotted curve is the sweep's measured angle, which is arctan(|μ|/σ)
    sweep = centring_angle_sweep(np.linspace(-spec.max_ratio, spec.max_ratio, SWEEP_SAMPLES), n=2)
    plotted = to_coordinates(scene.plot_axes, scene.angle_curve.get_start_anchors())
    assert len(plotted) == SWEEP_SAMPLES - 1
    assert np.allclose(plotted, np.column_stack([sweep.ratios, np.degrees(sweep.measured)])[:-1], atol=1e-9)
    assert np.allclose(plotted[:, 1], np.degrees(np.arctan(np.abs(plotted[:, 0]))), atol=1e-6)

    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_layer_norm_is_rms_norm_of_the_centred_vector_as_drawn(lang, media_dir):
    """Default spec, every language; the narration states the angle the core measured."""
    spec = RmsNormVsLayerNormSpec(lang=lang)
    scene = build_scene(RmsNormVsLayerNorm, spec, media_dir)
    check(scene, spec)
    x = np.array(spec.vectors[0])
    angle = fmt_number(math.degrees(math.atan(abs(np.mean(x)) / np.std(x))), 1, lang)
    assert any(angle in line for line in scene.narration)
    # Zhang and Sennrich's case is the hypothesis that re-centring invariance is dispensable, tested empirically
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    words = {"en": ("hypothesis", "empirically", "did not argue"), "zh": ("假设", "实验", "并没有论证"),
             "ru": ("гипотезой", "экспериментально", "не утверждали")}[lang]
    assert all(word in said["coincide"] for word in words)


def test_custom_vectors_and_range(media_dir):
    """Other inputs (one with a negative mean), a wider μ/σ range, light theme."""
    spec = RmsNormVsLayerNormSpec(vectors=((-2.5, -0.5), (0.4, -0.2)), max_ratio=6.0, theme="light")
    check(build_scene(RmsNormVsLayerNorm, spec, media_dir), spec)
