"""capture_states on a small PyTorch model of the test's own making: every kind found, in call order,
inputs/outputs/ε/γ/β equal to calling the modules directly."""

import numpy as np
import pytest
import torch
from torch import nn

from normgeo_models.capture import capture_states, normalization_modules


class MyRMSNorm(nn.Module):
    """Found by its class name, like Hugging Face's LlamaRMSNorm (ε under variance_epsilon)."""

    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.linspace(0.5, 1.5, n))
        self.variance_epsilon = 1e-6

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.variance_epsilon)


class Toy(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(4, 8)
        self.ln = nn.LayerNorm(8, eps=1e-4)
        self.rms = nn.RMSNorm(8, eps=1e-3)
        self.mine = MyRMSNorm(8)
        self.conv = nn.Conv1d(8, 6, 1)
        self.bn = nn.BatchNorm1d(6)
        self.gn = nn.GroupNorm(2, 6)

    def forward(self, x):
        h = self.mine(self.rms(self.ln(self.embed(x))))
        h = self.ln(h)  # called twice
        c = self.gn(self.bn(self.conv(h.transpose(1, 2))))
        return c


def test_capture_finds_every_kind_in_call_order():
    torch.manual_seed(0)
    model = Toy().eval()
    x = torch.randn(2, 5, 4)
    states = capture_states(model, lambda: model(x), model_name="toy", text="t")
    assert [(l.name, l.kind) for l in states.layers] == [
        ("ln", "layernorm"), ("rms", "rmsnorm"), ("mine", "rmsnorm"), ("ln@2", "layernorm"), ("bn", "batchnorm"),
        ("gn", "groupnorm")]
    assert [l.eps for l in states.layers] == [1e-4, 1e-3, 1e-6, 1e-4, 1e-5, 1e-5]
    with torch.no_grad():
        h = model.embed(x)
        expected_in = h
        for layer, module in zip(states.layers[:3], (model.ln, model.rms, model.mine)):
            out = module(expected_in)
            assert np.array_equal(layer.input, expected_in.double().numpy())
            assert np.array_equal(layer.output, out.double().numpy())
            assert np.array_equal(layer.weight, module.weight.double().numpy())
            expected_in = out
    assert states.layers[0].bias is not None and states.layers[1].bias is None
    assert states.layers[4].input.shape == (2, 6, 5)  # BatchNorm over (N, C, L), as captured


def test_capture_by_name_pattern_and_no_module():
    model = Toy().eval()
    names = [name for name, _, _ in normalization_modules(model, pattern=r"^(conv|gn)$")]
    assert names == ["conv", "gn"]
    with pytest.raises(ValueError, match="no normalization module"):
        capture_states(nn.Linear(2, 2), lambda: None)
