"""normgeo.depth_profile.layer_profile against plain numpy: the normalization it applies (LayerNorm
when centred, else RMSNorm, with its ε) read back through the participation ratio of the normalized
tokens, (Σλ)²/Σλ² from the trace and Frobenius norm of their centred Gram matrix; the angles and the
ratio absent exactly where they cannot exist; the massive tokens at the documented factor 10; every
refusal word for word."""

import numpy as np
import pytest

from normgeo.depth_profile import layer_profile

RNG = np.random.default_rng(11)
X = RNG.normal(size=(6, 4)) * np.array([1.0, 2.0, 0.5, 3.0]) + np.array([0.3, -0.2, 0.1, 0.5])


def participation_by_hand(normalized: np.ndarray) -> float:
    centred = normalized - normalized.mean(axis=0)
    gram = centred @ centred.T
    return float(np.trace(gram) ** 2 / np.sum(gram * gram))


@pytest.mark.parametrize("centred", [True, False])
def test_the_ratio_is_that_of_the_layers_own_normalization_with_its_eps(centred):
    eps = 0.5
    if centred:
        c = X - X.mean(axis=1, keepdims=True)
        normalized = c / np.sqrt(np.mean(c * c, axis=1, keepdims=True) + eps)
    else:
        normalized = X / np.sqrt(np.mean(X * X, axis=1, keepdims=True) + eps)
    profile = layer_profile(X, eps, centred)
    assert profile.centred is centred and profile.eps == eps and profile.n == 4
    assert profile.dimension.ratio == pytest.approx(participation_by_hand(normalized), rel=1e-12)
    other = layer_profile(X, eps, not centred).dimension.ratio
    assert other != pytest.approx(profile.dimension.ratio, rel=1e-6)  # the two laws differ here


def test_angles_exist_unless_a_token_is_constant_and_the_ratio_unless_there_is_one_token():
    assert layer_profile(X, 0.0, True).angles is not None
    flat = X.copy()
    flat[2] = 1.5  # σ = 0: the RMSNorm–LayerNorm angle of that token is undefined
    assert layer_profile(flat, 0.1, False).angles is None
    assert layer_profile(X[:1], 0.0, False).dimension is None


def test_a_token_ten_times_the_median_norm_is_massive_by_default():
    x = np.ones((5, 4))
    x[3] *= 10.5  # norm 21 against a median of 2: 10.5 times
    profile = layer_profile(x, 0.0, False)
    assert profile.massive.factor == 10.0 and profile.massive.indices == (3,)
    assert layer_profile(x, 0.0, False, factor=11.0).massive.indices == ()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"inputs": np.zeros((2, 3, 4))}, "inputs must have shape (tokens, n), got (2, 3, 4)"),
    ({"eps": -1.0}, "eps must be ≥ 0, got -1.0"),
    ({"weight": np.ones(3)}, "weight must have shape (4,), got (3,)"),
    ({"bias": np.ones(5)}, "bias must have shape (4,), got (5,)"),
    ({"outputs": np.zeros((2, 3, 4))}, "outputs must have shape (tokens, n), got (2, 3, 4)"),
    ({"outputs": np.zeros((5, 4))}, "outputs have shape (5, 4), inputs (6, 4)"),
])
def test_bad_layers_are_refused_word_for_word(kwargs, message):
    call = {"inputs": X, "eps": 0.0, "centred": True} | kwargs
    with pytest.raises(Exception) as refused:
        layer_profile(**call)
    assert str(refused.value) == message
