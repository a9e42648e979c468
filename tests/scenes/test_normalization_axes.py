"""normalization-axes: at the end of every tab the grid shows, typeset, the core's values, and its
cells are shaded exactly by the groups that share μ and σ; RMSNorm rows have RMS 1 and mean ≈ 0.75."""

import numpy as np
import pytest

from scenes.kit.claims import Outcome
from manim import Typst

from normgeo import batch_norm, group_norm, layer_norm, rms_norm, statistic_groups
from scenes.kit.base import NarratedScene
from scenes.kit.languages import LANGUAGES
from scenes.kit.numbers import fmt_fixed, fmt_number
from scenes.kit.spec import SpecError
from scenes.kit.text import math_number
from scenes.kit.theme import palette
from scenes.normalization_axes import NormalizationAxes, NormalizationAxesSpec
from tests.scenes.helpers import assert_layout_is_clean, assert_narrates_every_step, build_scene

GRID_STEPS = ("intro", "batchnorm", "layernorm", "rmsnorm", "groupnorm", "groupnorm-again")


def expected_grids(spec):
    """Per tab: (layer, values, labels) from an independent call of the core."""
    grid, eps = np.array(spec.values, dtype=float), spec.eps
    shape = grid.shape
    first, second = spec.groups
    return {
        "intro": ("none", grid, statistic_groups("none", shape)),
        "batchnorm": ("batchnorm", batch_norm(grid, eps=eps), statistic_groups("batchnorm", shape)),
        "layernorm": ("layernorm", layer_norm(grid, eps=eps), statistic_groups("layernorm", shape)),
        "rmsnorm": ("rmsnorm", rms_norm(grid, eps=eps), statistic_groups("rmsnorm", shape)),
        "groupnorm": ("groupnorm", group_norm(grid, first, eps=eps), statistic_groups("groupnorm", shape, num_groups=first)),
        "groupnorm-again": ("groupnorm", group_norm(grid, second, eps=eps),
                            statistic_groups("groupnorm", shape, num_groups=second)),
    }


def build_recording(spec, media_dir, monkeypatch):
    """Build the scene, recording what the grid shows at the end of each step (the moment the next
    step's narration starts): the Typst source and centre of every number, every cell's centre,
    and every shaded cell's fill colour and opacity. Only mobjects on screen are read."""
    frames = {}
    narrate = NarratedScene.begin_caption  # where every step's narration starts

    def record(scene):
        on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
        assert all(id(n) in on_screen for n in scene.numbers), "the grid's numbers are not on screen"
        assert all(id(s) in on_screen for s in scene.shading), "the grid's shading is not on screen"
        frames[scene.steps[-1].key] = {
            "codes": [n.typst_code for n in scene.numbers if isinstance(n, Typst)],
            "centres": np.array([n.get_center() for n in scene.numbers]),
            "cells": np.array([c.get_center() for c in scene.cells]),
            "fills": [(s.get_fill_color().to_hex().lower(), round(float(s.get_fill_opacity()), 6)) for s in scene.shading],
        }

    def caption(scene, step, *args, **kwargs):
        if scene.steps and scene.steps[-1].key in GRID_STEPS:
            record(scene)
        return narrate(scene, step, *args, **kwargs)

    monkeypatch.setattr(NormalizationAxes, "begin_caption", caption)
    scene = build_scene(NormalizationAxes, spec, media_dir)
    return scene, frames


def check(scene, frames, spec):
    lang, colors = spec.lang, palette(spec.theme)
    assert set(frames) == set(GRID_STEPS)
    for key, (layer, values, labels) in expected_grids(spec).items():
        frame = frames[key]
        written = [fmt_number(v, 2, lang) if layer == "none" else fmt_fixed(v, 2, lang) for v in values.ravel()]
        assert frame["codes"] == [f"${math_number(t)}$" for t in written], key
        assert np.allclose(frame["centres"], frame["cells"], atol=1e-6), f"{key}: a number is not in its cell"
        fills, flat = frame["fills"], labels.ravel()
        assert len(fills) == flat.size
        if layer == "none":
            assert all(opacity == 0 for _, opacity in fills), "raw values are not shaded"
            continue
        assert {colour for colour, _ in fills} == {colors.layer(layer).lower()}, key
        for label in np.unique(flat):  # one group, one shade
            assert len({fills[i] for i in np.flatnonzero(flat == label)}) == 1, f"{key}: group {label} is not one shade"
        rows, cols = values.shape
        for r in range(rows):  # neighbouring cells of different groups are told apart
            for c in range(cols):
                for dr, dc in ((0, 1), (1, 0)):
                    if r + dr < rows and c + dc < cols and labels[r, c] != labels[r + dr, c + dc]:
                        assert fills[r * cols + c] != fills[(r + dr) * cols + c + dc], f"{key}: ({r}, {c}) and its neighbour"
    rms = rms_norm(np.array(spec.values, dtype=float), eps=spec.eps)
    assert np.allclose(scene.row_rms, np.sqrt(np.mean(rms ** 2, axis=1)))
    assert np.allclose(scene.row_means, rms.mean(axis=1))
    assert_narrates_every_step(scene)
    assert_layout_is_clean(scene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_source_grid_under_every_layer(lang, media_dir, monkeypatch):
    """The source's 4×4 grid; under RMSNorm every row has RMS 1 and a mean near 0.75; with 2 groups
    every cell is ±1 (up to ε) and 1 group is LayerNorm, and the narration says both."""
    spec = NormalizationAxesSpec(lang=lang)
    scene, frames = build_recording(spec, media_dir, monkeypatch)
    check(scene, frames, spec)
    assert np.allclose(scene.row_rms, 1.0, atol=1e-5)
    assert np.all(np.abs(scene.row_means - 0.75) < 0.1)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    pairs = scene.words("fact.pairs", when=Outcome("pairs_of_signs", "true"), eps=scene.fmt.plain_scientific(spec.eps))
    assert pairs in said["groupnorm"] and scene.words("fact.one-group") not in said["groupnorm"]
    assert scene.words("fact.one-group") in said["groupnorm-again"]


def test_custom_grid(media_dir, monkeypatch):
    """Six features in 3 and 2 groups: no group count is 1; groups of 2 hold equal pairs (0, not ±1),
    and the narration says that not every cell is ±1."""
    spec = NormalizationAxesSpec(values=((1, 5, 2, 8, 3, 3), (0, 1, 0, 1, 0, 2), (4, 4, 1, 1, 9, 9)), groups=(3, 2),
                                 theme="light")
    scene, frames = build_recording(spec, media_dir, monkeypatch)
    check(scene, frames, spec)
    assert not any(scene.words("fact.one-group") in line for line in scene.narration)
    said = dict(zip((s.key for s in scene.steps), scene.narration))
    eps = scene.fmt.plain_scientific(spec.eps)
    assert scene.words("fact.pairs", when=Outcome("pairs_of_signs", "false"), eps=eps) in said["groupnorm"]
    assert scene.claims_made["fact.pairs"] == Outcome("pairs_of_signs", "false")


@pytest.mark.parametrize("groups", [(2,), (2, 1, 4)])
def test_exactly_two_group_counts(groups):
    with pytest.raises(SpecError, match="^groups: give exactly two"):
        NormalizationAxesSpec(groups=groups)


def test_a_row_of_zeros_is_refused():
    """RMSNorm divides a row by its RMS: a row of zeros has none at ε = 0 (issue 34)."""
    with pytest.raises(SpecError, match=r"^values: row 2 is all zeros: RMSNorm divides it by its RMS, 0 \(undefined at ε = 0\)$"):
        NormalizationAxesSpec(values=((1, 2), (0, 0), (3, 1)), groups=(1, 1))
