"""Pre-norm against post-norm: the gradient that reaches each block of a deep residual stack.

Blocks are x ← x + F(LN(x)) (pre-norm) or x ← LN(x + F(x)) (post-norm), with F a random
linear map. The loss is a fixed linear read-out of the last state. Backpropagation is written
out by hand (and checked against finite differences in the tests): pre-norm keeps an identity
path on which the gradient never passes a normalization, so it reaches the first block intact;
in post-norm every block's LN Jacobian sits on the only path and the gradient decays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normgeo.backprop import normalize_backward, normalize_forward
from normgeo.validation import as_dimension, as_positive_number

__all__ = ["ARRANGEMENTS", "ResidualStack", "make_stack", "stack_loss", "block_gradient_norms", "StackGradients",
           "prenorm_postnorm_study"]

ARRANGEMENTS = ("pre", "post")


@dataclass(frozen=True)
class ResidualStack:
    """The sub-layers W_l (depth × width × width), the read-out v and the input x₀."""

    weights: np.ndarray
    readout: np.ndarray
    start: np.ndarray


def make_stack(depth: int = 24, width: int = 16, sublayer_scale: float = 1.0, seed: int = 0) -> ResidualStack:
    """Random sub-layers with entries N(0, scale²/width), a random read-out and input."""
    depth, width = as_dimension(depth, "depth"), as_dimension(width, "width", minimum=2)
    rng = np.random.default_rng(seed)
    weights = rng.normal(scale=as_positive_number(sublayer_scale, "sublayer_scale") / np.sqrt(width),
                         size=(depth, width, width))
    return ResidualStack(weights, rng.normal(size=width) / np.sqrt(width), rng.normal(size=width))


def _forward(stack: ResidualStack, arrangement: str, start=None):
    x = stack.start if start is None else start
    states, caches = [x], []
    for w in stack.weights:
        if arrangement == "pre":
            normalized, cache = normalize_forward(x, axes=-1, eps=0.0)
            x = x + w @ normalized
        else:
            normalized, cache = normalize_forward(x + w @ x, axes=-1, eps=0.0)
            x = normalized
        states.append(x)
        caches.append(cache)
    return states, caches


def stack_loss(stack: ResidualStack, arrangement: str, start=None) -> float:
    """L = ⟨v, x_L⟩ for the stack's read-out v."""
    _check(arrangement)
    return float(stack.readout @ _forward(stack, arrangement, start)[0][-1])


def _gradients_reaching_blocks(stack: ResidualStack, arrangement: str) -> list[np.ndarray]:
    """∂L/∂x_l for l = depth − 1 down to 0 (backprop, written out)."""
    _check(arrangement)
    _, caches = _forward(stack, arrangement)
    grad = stack.readout.copy()
    grads = []
    for w, cache in zip(stack.weights[::-1], caches[::-1]):
        if arrangement == "pre":
            grad = grad + normalize_backward(w.T @ grad, cache)
        else:
            upstream = normalize_backward(grad, cache)
            grad = upstream + w.T @ upstream
        grads.append(grad)
    return grads


def block_gradient_norms(stack: ResidualStack, arrangement: str) -> np.ndarray:
    """‖∂L/∂x_l‖₂ for l = 0 … depth − 1: the gradient that reaches the input of each block."""
    return np.array([np.linalg.norm(g) for g in _gradients_reaching_blocks(stack, arrangement)[::-1]])


def block_input_gradient(stack: ResidualStack, arrangement: str) -> np.ndarray:
    """∂L/∂x₀, for the finite-difference check."""
    return _gradients_reaching_blocks(stack, arrangement)[-1]


@dataclass(frozen=True)
class StackGradients:
    """Gradient norm per block (index 0 is the first block) for both arrangements: the
    geometric mean over ``stacks`` random stacks, each arranged both ways."""

    depth: int
    stacks: int
    pre: np.ndarray
    post: np.ndarray


def prenorm_postnorm_study(depth: int = 24, width: int = 16, sublayer_scale: float = 1.0, stacks: int = 8,
                           seed: int = 0) -> StackGradients:
    """The same random sub-layers arranged both ways; gradient norms reaching each block."""
    pre, post = [], []
    for k in range(as_dimension(stacks, "stacks")):
        stack = make_stack(depth, width, sublayer_scale, seed + k)
        pre.append(np.log(block_gradient_norms(stack, "pre")))
        post.append(np.log(block_gradient_norms(stack, "post")))
    return StackGradients(depth, stacks, np.exp(np.mean(pre, axis=0)), np.exp(np.mean(post, axis=0)))


def _check(arrangement: str) -> None:
    if arrangement not in ARRANGEMENTS:
        raise ValueError(f"unknown arrangement {arrangement!r}; choose pre or post")
