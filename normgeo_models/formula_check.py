"""Does a normalization call's recorded output follow its kind's formula, given its input, ε, γ and β?

The formulas are the core's (``normgeo.rms_norm``, ``layer_norm``, ``batch_norm``, ``group_norm``);
BatchNorm in eval mode uses its running statistics, (x − running μ)/√(running σ² + ε)·γ + β.
The error of a call is, over its rows (tokens), the largest ``max|y − ŷ| / max|ŷ|``: the share of
the output's size by which the recorded output ``y`` misses the formula's ``ŷ``. A model computes
in its own precision, so the tolerance is that of the coarser of the precision it ran in and the
one the file stores: enough to accept rounding, far below the error of a wrong γ (a layer that
applies 1 + w recorded as applying w misses by about the output's whole size).

>>> x = np.array([[3.0, 4.0], [1.0, -2.0]])
>>> y = rms_norm(x, eps=1e-6, weight=[2.0, 0.5])
>>> relative_error(y, formula_output("rmsnorm", x, 1e-6, np.array([2.0, 0.5]), None)) < 1e-15
True
>>> relative_error(y, formula_output("rmsnorm", x, 1e-6, np.array([1.0, -0.5]), None)) > 0.5  # 1 + w taken for w
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo import batch_norm, group_norm, layer_norm, rms_norm

__all__ = ["FORMULA", "TOLERANCE", "Running", "formula_output", "relative_error", "tolerance_for"]

#: the error a call may show when computed in (or stored as) each precision
TOLERANCE = {"float64": 1e-6, "float32": 1e-3, "float16": 2e-2, "bfloat16": 5e-2}

#: each kind's formula as the refusals print it
FORMULA = {
    "rmsnorm": "γ·x/√(mean(x²) + ε)",
    "layernorm": "γ·(x − μ)/√(σ² + ε) + β",
    "batchnorm": "γ·(x − μ)/√(σ² + ε) + β per channel",
    "groupnorm": "γ·(x − μ)/√(σ² + ε) + β per group",
}


@dataclass(frozen=True)
class Running:
    """What a BatchNorm or GroupNorm needs besides its input: eval-mode BatchNorm's running
    statistics (None: it used the batch's), GroupNorm's number of groups."""

    mean: np.ndarray | None = None
    var: np.ndarray | None = None
    groups: int | None = None


def tolerance_for(*dtypes: str) -> float:
    """The tolerance of the coarsest of ``dtypes`` (names such as ``float32``; unknown ones ignored)."""
    return max((TOLERANCE[name] for name in dtypes if name in TOLERANCE), default=TOLERANCE["float32"])


def formula_output(kind: str, x: np.ndarray, eps: float, weight: np.ndarray | None, bias: np.ndarray | None,
                   running: Running = Running()) -> np.ndarray | None:
    """The output ``kind``'s formula gives for ``x``; None where the formula is undefined here
    (an unknown kind, a GroupNorm whose groups are unknown, a constant group at ε = 0)."""
    try:
        if kind == "rmsnorm":
            return rms_norm(x, eps=eps, weight=weight)
        if kind == "layernorm":
            return layer_norm(x, eps=eps, weight=weight, bias=bias)
        if kind == "batchnorm":
            if running.mean is None or running.var is None:
                return batch_norm(x, eps=eps, weight=weight, bias=bias)
            shape = (1, -1) + (1,) * (x.ndim - 2)
            y = (x - running.mean.reshape(shape)) / np.sqrt(running.var.reshape(shape) + eps)
            scale = 1.0 if weight is None else weight.reshape(shape)
            return y * scale + (0.0 if bias is None else bias.reshape(shape))
        if kind == "groupnorm" and running.groups:
            return group_norm(x, running.groups, eps=eps, weight=weight, bias=bias)
    except ValueError:  # the core's refusals (a zero or constant group at ε = 0, a shape it cannot take)
        return None
    return None


def relative_error(output: np.ndarray, expected: np.ndarray | None) -> float:
    """max over rows of max|output − expected| / max|expected| (inf when there is nothing to compare)."""
    if expected is None or output.shape != expected.shape:
        return float("inf")
    rows_out = output.reshape(-1, output.shape[-1]) if output.ndim > 1 else output[None]
    rows_expected = expected.reshape(rows_out.shape)
    scale = np.abs(rows_expected).max(axis=1)
    miss = np.abs(rows_out - rows_expected).max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(scale > 0, miss / np.where(scale > 0, scale, 1.0), np.where(miss > 0, np.inf, 0.0))
    return float(share.max())
