"""Formulas the scenes typeset, as Typst math (the same in every language).

Numbers never appear here: a formula that needs one takes a ``{placeholder}`` filled with
a value the core computed.
"""

from __future__ import annotations

__all__ = ["FORMULAS"]

FORMULAS: dict[str, str] = {
    "radial-projection": "x arrow.r.long R dot x / norm(x)_2",
    "l2": "hat(x) = x / norm(x)_2 quad => quad norm(hat(x))_2 = norm(x)_2 / norm(x)_2 = 1",
    "rms-condition": "op(\"RMS\")(hat(x)) = sqrt(1/n sum_(i=1)^n hat(x)_i^2) = 1",
    "rms-square": "=> quad 1/n sum_(i=1)^n hat(x)_i^2 = 1",
    "rms-sum": "=> quad sum_(i=1)^n hat(x)_i^2 = n",
    "rms-length": "=> quad norm(hat(x))_2 = sqrt(n)",
    "decomposition": "x = underbrace(mu bold(1), \"common\") + underbrace((x - mu bold(1)), \"zero mean\")",
    "layernorm": "hat(x) = (x - mu bold(1)) / sigma quad sum_i hat(x)_i = 0, quad norm(hat(x))_2 = sqrt(n)",
    "layernorm-2d-points": "{{x + y = 0}} inter {{norm(v)_2 = sqrt(2)}} = {{{p}, {q}}}",
    "direction": "x / norm(x)_2 = (c x) / norm(c x)_2 quad (c > 0)",
    "dof": "n quad -> quad n - 1 quad -> quad n - 2",
    "unified": "hat(x) = {{ x - mu : centre }} / {{ sqrt(sigma^2 + epsilon) : scale }} , quad "
    "y = {{ gamma hat(x) + beta : affine }}",
}
