"""Capture what every normalization module of a PyTorch model sees and returns.

``capture_states(model, run)`` registers a forward hook on each normalization module (found by
type: LayerNorm, RMSNorm, BatchNorm, GroupNorm, or any module whose class name ends in
``RMSNorm`` or ``LayerNorm``, such as Hugging Face's ``LlamaRMSNorm``; or by a name pattern),
calls ``run()`` under ``torch.no_grad()``, removes the hooks, and returns the calls in order as
``States``: each call's input, output, ε and γ/β, detached and in float64.

γ is the scale the layer really applies. Most layers multiply by their ``weight``; Gemma's RMSNorm
(and Gemma 2 and 3, RecurrentGemma, T5Gemma, VaultGemma, Qwen3-Next, Qwen3.5, Nemotron's
``LayerNorm1P``) keeps w and multiplies by 1 + w. Each call is checked by recomputing its output
from its input, ε, γ and β with the core's formula (:mod:`normgeo_models.formula_check`), with w
and with 1 + w (the class's own convention first): γ is the one the output follows. A call whose
output follows neither (a gated norm, a norm over several axes, a residual added inside) is kept
as kind ``unknown``, which no scene explains, and the States' notes name it.

>>> import torch
>>> model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.LayerNorm(4))
>>> states = capture_states(model, lambda: model(torch.ones(2, 4)), model_name="toy")
>>> [(layer.name, layer.kind, layer.input.shape) for layer in states.layers]
[('1', 'layernorm', (2, 4))]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import torch
from torch import nn

from normgeo_models.formula_check import FORMULA, Running, formula_output, relative_error, tolerance_for
from normgeo_models.states_file import LayerStates, States

__all__ = ["ONE_PLUS_WEIGHT", "capture_states", "norm_kind", "normalization_modules"]

#: classes whose γ is 1 + weight (transformers' code: ``output * (1.0 + self.weight.float())``)
ONE_PLUS_WEIGHT = frozenset({
    "GemmaRMSNorm", "Gemma2RMSNorm", "Gemma3RMSNorm", "RecurrentGemmaRMSNorm", "T5GemmaRMSNorm", "T5Gemma2RMSNorm",
    "VaultGemmaRMSNorm", "Qwen3NextRMSNorm", "Qwen3_5RMSNorm", "Qwen3_5MoeRMSNorm", "NemotronLayerNorm1P",
})

_BY_TYPE: tuple[tuple[type, str], ...] = (
    (nn.LayerNorm, "layernorm"),
    (nn.RMSNorm, "rmsnorm"),
    (nn.modules.batchnorm._BatchNorm, "batchnorm"),
    (nn.GroupNorm, "groupnorm"),
)


def norm_kind(module: nn.Module) -> str | None:
    """The kind of normalization ``module`` is, or None: by type, then by its class name."""
    for base, kind in _BY_TYPE:
        if isinstance(module, base):
            return kind
    name = type(module).__name__.lower()
    for suffix, kind in (("rmsnorm", "rmsnorm"), ("layernorm", "layernorm"), ("groupnorm", "groupnorm")):
        if name.endswith(suffix):
            return kind
    return None


def normalization_modules(model: nn.Module, pattern: str | None = None) -> list[tuple[str, str, nn.Module]]:
    """(name, kind, module) for each normalization module; with ``pattern`` (a regular expression
    searched in the module's dotted name) the modules it matches, their kind by type where known."""
    found = []
    matcher = re.compile(pattern) if pattern else None
    for name, module in model.named_modules():
        kind = norm_kind(module)
        if matcher is not None:
            if matcher.search(name) and name:
                found.append((name, kind or "unknown", module))
        elif kind is not None:
            found.append((name, kind, module))
    return found


def _eps(module: nn.Module) -> float:
    for attribute in ("eps", "variance_epsilon", "epsilon"):
        value = getattr(module, attribute, None)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    if isinstance(module, nn.RMSNorm) and module.eps is None:
        return float(torch.finfo(torch.get_default_dtype()).eps)  # what nn.RMSNorm uses when eps=None
    return 0.0


def _array(value) -> np.ndarray | None:
    if not isinstance(value, torch.Tensor):
        return None
    return value.detach().to(device="cpu", dtype=torch.float64).numpy().copy()


def capture_states(model: nn.Module, run: Callable[[], object], model_name: str = "", text: str = "",
                   tokens: tuple[str, ...] = (), pattern: str | None = None, notes: str = "") -> States:
    """Run ``run()`` (which calls ``model``) with hooks on its normalization modules and return
    every call's input and output, in call order; a module called twice appears twice
    (``name``, then ``name@2``). Raises ``ValueError`` if no module is found or none is called."""
    modules = normalization_modules(model, pattern)
    if not modules:
        what = f"matching {pattern!r}" if pattern else "of a known kind (LayerNorm, RMSNorm, BatchNorm, GroupNorm)"
        raise ValueError(f"the model has no normalization module {what}")
    calls: list[_Call] = []
    seen: dict[str, int] = {}

    def hook_for(name: str, kind: str):
        def hook(module, args, output):
            inputs = _array(args[0]) if args else None
            if inputs is None:
                return
            seen[name] = seen.get(name, 0) + 1
            label = name if seen[name] == 1 else f"{name}@{seen[name]}"
            result = output[0] if isinstance(output, tuple) else output
            layer = LayerStates(label, kind, _eps(module), inputs, _array(result),
                                _array(getattr(module, "weight", None)), _array(getattr(module, "bias", None)))
            calls.append(_Call(layer, type(module).__name__, _by_name(module, kind), _running(module, kind),
                               str(result.dtype).removeprefix("torch.") if isinstance(result, torch.Tensor) else ""))
        return hook

    handles = [module.register_forward_hook(hook_for(name, kind)) for name, kind, module in modules]
    try:
        with torch.no_grad():
            run()
    finally:
        for handle in handles:
            handle.remove()
    if not calls:
        raise ValueError("no normalization module was called while running the model")
    checked = [_checked(call) for call in calls]
    layers = tuple(layer for layer, _ in checked)
    notes = " ".join(part for part in (notes, _convention_note(calls, layers), _odd_note(checked)) if part)
    computed_in = max((call.dtype for call in calls), key=lambda name: tolerance_for(name))
    odd = [layer.name for layer, error in checked if error is not None]
    extra = {**({"computed_in": computed_in} if computed_in else {}), **({"follow_no_formula": odd} if odd else {})}
    return States(model=model_name, text=text, layers=layers, tokens=tuple(tokens), notes=notes, extra=extra)


@dataclass(frozen=True)
class _Call:
    """One call as the hook saw it, with what checking it needs: the module's class, whether its
    kind came from its class name only, eval-mode BatchNorm's running statistics or GroupNorm's
    groups, and the precision the module computed in."""

    layer: LayerStates
    class_name: str
    by_name: bool
    running: Running
    dtype: str


def _by_name(module: nn.Module, kind: str) -> bool:
    return not any(isinstance(module, base) for base, _ in _BY_TYPE)


def _running(module: nn.Module, kind: str) -> Running:
    if kind == "groupnorm":
        return Running(groups=getattr(module, "num_groups", None))
    if kind == "batchnorm" and not module.training and getattr(module, "running_mean", None) is not None:
        return Running(_array(module.running_mean), _array(module.running_var))
    return Running()


def _checked(call: _Call) -> tuple[LayerStates, float | None]:
    """The call with the first γ and kind (in the order: declared kind, class's convention) its
    output follows, and None; or kept as kind ``unknown`` (γ as the weight) with the smallest
    error, when its output follows none."""
    layer = call.layer
    if layer.output is None or layer.kind not in FORMULA:
        return layer, None
    weights = [layer.weight] if layer.weight is None else [layer.weight, 1.0 + layer.weight]
    if call.class_name in ONE_PLUS_WEIGHT:
        weights.reverse()
    other = {"rmsnorm": ["layernorm"], "layernorm": ["rmsnorm"]}.get(layer.kind, []) if call.by_name else []
    kinds = [layer.kind, *other]  # a class found by its name may be the other one (T5's LayerNorm is an RMSNorm)
    candidates = [(kind, weight) for kind in kinds for weight in weights]
    errors = [relative_error(layer.output, formula_output(kind, layer.input, layer.eps, weight,
                                                          None if kind == "rmsnorm" else layer.bias, call.running))
              for kind, weight in candidates]
    tolerance = tolerance_for(call.dtype)
    fitting = [i for i, error in enumerate(errors) if error <= tolerance]
    if not fitting:  # (the first that fits: the declared kind, then the class's own convention)
        return replace(layer, kind="unknown"), min(errors)
    kind, weight = candidates[fitting[0]]
    return replace(layer, kind=kind, weight=weight, bias=None if kind == "rmsnorm" else layer.bias), None


def _convention_note(calls: list[_Call], layers: tuple[LayerStates, ...]) -> str:
    """Which classes' γ is 1 + weight, as the file's notes say it."""
    scaled = sorted({call.class_name for call, layer in zip(calls, layers, strict=True)
                     if layer.weight is not None and call.layer.weight is not None
                     and not np.array_equal(layer.weight, call.layer.weight)})
    return f"γ = 1 + weight (as the layer applies it) for {', '.join(scaled)}." if scaled else ""


def _odd_note(checked: list[tuple[LayerStates, float | None]]) -> str:
    odd = [(layer.name, error) for layer, error in checked if error is not None]
    if not odd:
        return ""
    names = ", ".join(f"{name} (off by {error:.0%})" if np.isfinite(error) else name for name, error in odd[:3])
    more = f" and {len(odd) - 3} more" if len(odd) > 3 else ""
    return (f"{len(odd)} calls' outputs do not follow their kind's formula from input, ε, γ and β, so they are "
            f"kept as kind unknown (no scene explains them): {names}{more}.")
