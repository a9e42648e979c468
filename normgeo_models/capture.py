"""Capture what every normalization module of a PyTorch model sees and returns.

``capture_states(model, run)`` registers a forward hook on each normalization module (found by
type: LayerNorm, RMSNorm, BatchNorm, GroupNorm, or any module whose class name ends in
``RMSNorm`` or ``LayerNorm``, such as Hugging Face's ``LlamaRMSNorm``; or by a name pattern),
calls ``run()`` under ``torch.no_grad()``, removes the hooks, and returns the calls in order as
``States``: each call's input, output, ε and γ/β, detached and in float64.

>>> import torch
>>> model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.LayerNorm(4))
>>> states = capture_states(model, lambda: model(torch.ones(2, 4)), model_name="toy")
>>> [(layer.name, layer.kind, layer.input.shape) for layer in states.layers]
[('1', 'layernorm', (2, 4))]
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import torch
from torch import nn

from normgeo_models.states_file import LayerStates, States

__all__ = ["norm_kind", "normalization_modules", "capture_states"]

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
    calls: list[LayerStates] = []
    seen: dict[str, int] = {}

    def hook_for(name: str, kind: str):
        def hook(module, args, output):
            inputs = _array(args[0]) if args else None
            if inputs is None:
                return
            seen[name] = seen.get(name, 0) + 1
            label = name if seen[name] == 1 else f"{name}@{seen[name]}"
            result = output[0] if isinstance(output, tuple) else output
            calls.append(LayerStates(label, kind, _eps(module), inputs, _array(result),
                                     _array(getattr(module, "weight", None)), _array(getattr(module, "bias", None))))
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
    return States(model=model_name, text=text, layers=tuple(calls), tokens=tuple(tokens), notes=notes)
