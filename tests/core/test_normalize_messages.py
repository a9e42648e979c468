"""The layers' refusals word for word (each names the layer and the parameter at fault), and the
default ε of RMSNorm (10⁻⁶, Llama's) and LayerNorm (10⁻⁵, PyTorch's) against the formula by hand
on an input small enough for ε to matter."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from normgeo.errors import NonFiniteError, ShapeError

N = importlib.import_module("normgeo.normalize")  # the module (normgeo.normalize is also a function)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: N.rms_norm(np.ones(3), weight=np.ones(2)), ShapeError, "rms_norm weight must have shape (3,), got (2,)"),
    (lambda: N.rms_norm(np.ones(3), weight=[1, np.nan, 1]), NonFiniteError,
     "rms_norm weight holds nan at index [1]; only finite values are allowed"),
    (lambda: N.layer_norm(np.arange(3.0), bias=np.ones(4)), ShapeError, "layer_norm bias must have shape (3,), got (4,)"),
    (lambda: N.layer_norm(np.arange(3.0), weight=[1, np.inf, 1]), NonFiniteError,
     "layer_norm weight holds inf at index [1]; only finite values are allowed"),
    (lambda: N.batch_norm(np.ones(3)), ShapeError, "batch_norm expects x of shape (N, C) or (N, C, ...), got shape (3,)"),
    (lambda: N.batch_norm(3.0), ShapeError, "x must have at least 1 dimension(s), got shape ()"),
    (lambda: N.batch_norm(np.arange(6.0).reshape(3, 2), weight=np.ones(3)), ShapeError,
     "batch_norm weight must have shape (2,), got (3,)"),
    (lambda: N.group_norm(np.ones(3), 1), ShapeError, "group_norm expects x of shape (N, C) or (N, C, ...), got shape (3,)"),
    (lambda: N.group_norm(np.arange(8.0).reshape(2, 4), 2, bias=np.ones(3)), ShapeError,
     "group_norm bias must have shape (4,), got (3,)"),
    (lambda: N.normalize(np.ones(3), axes=()), ShapeError, "axes must name at least one axis"),
    (lambda: N.normalize(np.ones(3), axes="x"), ShapeError, "axes must be an int or a sequence of ints, got 'x'"),
])
def test_each_refusal_names_the_layer_and_what_is_wrong(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message


def test_the_default_epsilons_are_llamas_and_pytorchs():
    """x = 10⁻³·(1, 2, 3): mean(x²) = 14/3·10⁻⁶ and σ² = 2/3·10⁻⁶, both the size of ε, so ε's value shows."""
    x = 1e-3 * np.array([1.0, 2.0, 3.0])
    assert np.allclose(N.rms_norm(x), x / np.sqrt(14 / 3 * 1e-6 + 1e-6), rtol=1e-12, atol=0)
    centred = x - 2e-3
    assert np.allclose(N.layer_norm(x), centred / np.sqrt(2 / 3 * 1e-6 + 1e-5), rtol=1e-12, atol=0)
