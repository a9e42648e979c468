"""Laws of the residual stream's length with depth under post-, pre-, peri-norm and LayerNorm Scaling (E1)."""

import math
from pathlib import Path

import numpy as np
import pytest
import torch

from normgeo.errors import InvalidParameterError, ShapeError, ZeroVectorError
from normgeo.residual_stacks import make_stack
from normgeo.stream_depth import (
    STREAM_ARRANGEMENTS,
    stream_depth_study,
    stream_profile,
    stream_profile_of_calls,
    stream_states,
)
from normgeo_models import read_states

SMOLLM2 = Path(__file__).resolve().parents[2] / "scenes" / "states" / "smollm2.safetensors"


def _ln_by_hand(v):
    n = len(v)
    mu = math.fsum(v) / n
    sigma = math.sqrt(math.fsum((x - mu) ** 2 for x in v) / n)
    return np.array([(x - mu) / sigma for x in v])


def _block_by_hand(x, w, arrangement, depth):
    """One block for one token, with the LN above and plain matrix-vector products."""
    if arrangement == "post":
        return _ln_by_hand(x + w @ x)
    if arrangement == "pre":
        return x + w @ _ln_by_hand(x)
    if arrangement == "peri":
        return x + _ln_by_hand(w @ _ln_by_hand(x))
    return x + w @ (_ln_by_hand(x) / math.sqrt(depth))


def _tokens(tokens, width, seed=7):
    return np.random.default_rng(seed).normal(size=(tokens, width))


@pytest.mark.parametrize("arrangement", STREAM_ARRANGEMENTS)
def test_each_arrangement_is_the_formula_run_by_hand(arrangement):
    """post x ← LN(x + Wx), pre x ← x + W·LN(x), peri x ← x + LN(W·LN(x)), scaled x ← x + W·LN(x)/√ℓ,
    token by token, with LN by fsum at ε = 0; the inputs are left untouched."""
    weights, start = make_stack(depth=5, width=6, seed=2).weights, _tokens(3, 6)
    copies = weights.copy(), start.copy()
    states = stream_states(weights, start, arrangement)
    assert states.shape == (6, 3, 6)
    for t in range(3):
        x = start[t]
        for depth, w in enumerate(weights, start=1):
            x = _block_by_hand(x, w, arrangement, depth)
            np.testing.assert_allclose(states[depth, t], x, rtol=1e-11, atol=1e-11)
    assert np.array_equal(weights, copies[0]) and np.array_equal(start, copies[1])


@pytest.mark.parametrize("arrangement", STREAM_ARRANGEMENTS)
def test_each_arrangement_matches_pytorch_layer_norm(arrangement):
    """The same stacks written with torch.nn.functional.layer_norm (test-only reference)."""
    weights, start = make_stack(depth=8, width=10, seed=4).weights, _tokens(5, 10)
    ln = lambda v: torch.nn.functional.layer_norm(v, (10,), eps=0.0)  # noqa: E731
    x = torch.tensor(start)
    for depth, w in enumerate(torch.tensor(weights), start=1):
        if arrangement == "post":
            x = ln(x + x @ w.T)
        elif arrangement == "pre":
            x = x + ln(x) @ w.T
        elif arrangement == "peri":
            x = x + ln(ln(x) @ w.T)
        else:
            x = x + (ln(x) / depth ** 0.5) @ w.T
    np.testing.assert_allclose(stream_states(weights, start, arrangement)[-1], x.numpy(), rtol=1e-9, atol=1e-9)


def test_post_norm_puts_every_token_on_the_sphere_of_radius_root_n():
    """After any post-norm block the token has mean 0 and ‖x‖ = √n (ε = 0): flat."""
    study = stream_depth_study(depth=12, width=9, tokens=5)
    states = stream_states(make_stack(12, 9, 1.0, 0).weights, _tokens(5, 9), "post")
    np.testing.assert_allclose(np.linalg.norm(states[1:], axis=2), 3.0, rtol=1e-12)
    np.testing.assert_allclose(study.of("post").median_norms[1:], 3.0, rtol=1e-12)
    np.testing.assert_allclose(study.of("post").variances[1:], 1.0, rtol=1e-12)


def test_peri_norm_updates_have_length_root_n_and_ignore_the_sublayer_scale():
    """Each peri update LN(·) has length √n exactly, so ‖x_ℓ‖ ≤ ‖x₀‖ + ℓ√n; multiplying every W by
    any k > 0 leaves the states unchanged (LN is scale invariant)."""
    weights, start = make_stack(depth=20, width=8, seed=1).weights, _tokens(6, 8)
    states = stream_states(weights, start, "peri")
    steps = np.linalg.norm(np.diff(states, axis=0), axis=2)
    np.testing.assert_allclose(steps, math.sqrt(8), rtol=1e-12)
    bound = np.linalg.norm(start, axis=1) + np.arange(21)[:, None] * math.sqrt(8)
    assert np.all(np.linalg.norm(states, axis=2) <= bound + 1e-9)
    for k in (0.01, 7.0):
        np.testing.assert_allclose(stream_states(weights * k, start, "peri"), states, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("arrangement, weight_of_depth", [("pre", lambda d: 1.0), ("scaled", lambda d: 1.0 / d)])
def test_pre_and_scaled_grow_as_their_expectation_says(arrangement, weight_of_depth):
    """Fresh W_ℓ with entries N(0, s²/n) is independent of x_ℓ, so E‖x_{ℓ+1}‖² = E‖x_ℓ‖² + s²·n·c_ℓ with
    c_ℓ = 1 (pre) or 1/ℓ (scaled). Monte Carlo over 40 stacks, within 4 standard errors."""
    depth, width, s = 10, 12, 1.5
    growth = []
    for seed in range(40):
        start = _tokens(16, width, seed + 100)
        states = stream_states(make_stack(depth, width, s, seed).weights, start, arrangement)
        growth.append(np.mean(np.sum(states[-1] ** 2, axis=1) - np.sum(start ** 2, axis=1)))
    expected = s * s * width * sum(weight_of_depth(d) for d in range(1, depth + 1))
    error = np.std(growth, ddof=1) / math.sqrt(len(growth))
    assert abs(np.mean(growth) - expected) < 4 * error
    assert error < 0.15 * expected  # the test can tell a wrong law (say, no 1/ℓ) from the right one


def test_the_study_predicates_follow_the_numbers():
    """Default toy: pre, peri and scaled grow, post is flat; the sub-layer's scale sets pre's length
    (×k about k) and scaled's, not peri's or post's; pre-norm's blocks change the stream less and less."""
    study = stream_depth_study()
    assert [study.of(a).norm_verdict() for a in STREAM_ARRANGEMENTS] == ["flat", "grows", "grows", "grows"]
    assert study.bounds_growth("peri") and study.bounds_growth("post")
    assert not study.bounds_growth("pre") and not study.bounds_growth("scaled")
    # E‖x_L‖² ≈ ‖x₀‖² + L·k²s²n: the ratio at k = 4 is close to √((n + 16Ln)/(n + Ln)) for ‖x₀‖² ≈ n.
    expected = math.sqrt((1 + 16 * 48) / (1 + 48))
    assert abs(study.scale_sensitivity("pre") / expected - 1) < 0.1
    pre = study.of("pre")
    assert pre.approaches_identity() and pre.relative_changes[-1] < 0.25 * pre.relative_changes[0]
    assert study.of("scaled").median_norms[-1] < 0.5 * pre.median_norms[-1]
    assert np.all(study.of("pre").cosines[10:] > 0.9)


def test_profile_numbers_by_hand():
    """Two tokens, depths 0, 1: medians of norms, σ², relative changes and cosines worked out by hand."""
    states = np.array([[[3.0, 4.0], [1.0, 0.0]], [[3.0, 4.0 + 5.0], [1.0, 1.0]]])
    profile = stream_profile(states, "pre")
    assert profile.median_norms.tolist() == [3.0, (math.hypot(3, 9) + math.sqrt(2)) / 2]
    assert profile.variances.tolist() == [(0.25 + 0.25) / 2, (9.0 + 0.0) / 2]
    assert profile.relative_changes[0] == pytest.approx((5 / 5 + 1 / 1) / 2)
    assert profile.cosines[0] == pytest.approx((45 / (5 * math.hypot(3, 9)) + 1 / math.sqrt(2)) / 2)
    assert profile.norm_verdict() == "grows" and profile.norm_trend.steps == 1


def test_real_smollm2_stream_grows_from_2_6_to_553():
    """SmolLM2-135M (pre-norm RMSNorm): the median token norm at its 61 calls, computed with
    numpy.linalg.norm on the file's float16 values, rises from 2.64 to 553 (peak 621 at call 59)."""
    layers = read_states(SMOLLM2).layers
    profile = stream_profile_of_calls([layer.tokens() for layer in layers])
    medians = [float(np.median(np.linalg.norm(layer.tokens(), axis=1))) for layer in layers]
    np.testing.assert_allclose(profile.median_norms, medians, rtol=1e-12)
    assert len(medians) == 61 and round(medians[0], 2) == 2.64 and round(medians[-1]) == 553
    assert int(np.argmax(medians)) == 59 and round(medians[59]) == 621
    assert profile.norm_verdict() == "grows" and profile.arrangement == "pre"
    assert not profile.approaches_identity()  # this sentence's blocks do not drift toward identity


def test_bad_input_is_refused_in_one_line():
    weights = make_stack(2, 3).weights
    refusal = r"^unknown arrangement 'side'; choose one of post, pre, peri, scaled$"
    with pytest.raises(InvalidParameterError, match=refusal):
        stream_states(weights, _tokens(2, 3), "side")
    with pytest.raises(ZeroVectorError, match="token 1 at depth 0"):
        stream_profile(np.array([[[1.0, 2.0], [0.0, 0.0]], [[1.0, 2.0], [1.0, 1.0]]]), "pre")
    with pytest.raises(ShapeError, match="same"):
        stream_profile_of_calls([np.ones((2, 3)), np.ones((3, 3))])
    with pytest.raises(InvalidParameterError):
        stream_depth_study(scale_factor=0.0)
    with pytest.raises(ShapeError, match=r"weights must have shape \(L, 4, 4\)"):
        stream_states(weights, _tokens(2, 4), "pre")
