"""The γ a layer really applies: tiny real models of the Gemma family (γ = 1 + weight) and of the
Llama family (γ = weight), built here from transformers' configs with random weights, are
captured with the γ that PyTorch's own ``rms_norm`` needs to reproduce each recorded output; a
layer that follows no formula is kept as kind unknown and said so; a file whose output misses
its formula (a capture that took Gemma's w for γ) is refused in one line."""

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import transformers
from tokenizers import Tokenizer, models, pre_tokenizers
from torch import nn

from normgeo_models.capture import capture_states
from normgeo_models.states_file import StatesFileError, read_states, write_states

ROOT = Path(__file__).resolve().parents[2]
WORDS = ["[UNK]", "<bos>", "the", "norm", "keeps", "only", "direction", "."]
TEXT = "the norm keeps only the direction ."
FAMILIES = {
    "gemma": (transformers.GemmaConfig, transformers.GemmaModel),
    "gemma2": (transformers.Gemma2Config, transformers.Gemma2Model),
    "gemma3": (transformers.Gemma3TextConfig, transformers.Gemma3TextModel),
    "llama": (transformers.LlamaConfig, transformers.LlamaModel),
}


def tiny_model(family: str, dtype=torch.float32) -> nn.Module:
    """A 2-layer model of ``family`` (n = 16) with random weights, its norms' weights random too."""
    config_class, model_class = FAMILIES[family]
    torch.manual_seed(3)
    config = config_class(vocab_size=len(WORDS), hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                          num_attention_heads=2, num_key_value_heads=1, head_dim=8, max_position_embeddings=32)
    model = model_class(config).eval()
    with torch.no_grad():
        for module in model.modules():
            if type(module).__name__.endswith("RMSNorm"):
                module.weight.normal_(0.0, 0.7)
    return model.to(dtype)


def modules_by_name(model):
    return dict(model.named_modules())


def capture(model):
    ids = torch.tensor([[1, 2, 3, 4, 5, 2, 6, 7]])
    return capture_states(model, lambda: model(input_ids=ids), model_name="tiny", text=TEXT)


@pytest.mark.parametrize("family", ["gemma", "gemma2", "gemma3"])
def test_the_gemma_family_is_captured_with_one_plus_its_weight(family):
    model = tiny_model(family)
    states = capture(model)
    modules = modules_by_name(model)
    assert states.layers and {layer.kind for layer in states.layers} == {"rmsnorm"}
    for layer in states.layers:
        module = modules[layer.name.split("@")[0]]
        w = module.weight.detach().double().numpy()
        assert np.array_equal(layer.weight, 1.0 + w), layer.name
        # PyTorch's own RMSNorm reproduces the recorded output with this γ, and not with w
        x, n = torch.from_numpy(layer.input), layer.width
        with_gamma = torch.nn.functional.rms_norm(x, (n,), torch.from_numpy(layer.weight), layer.eps).numpy()
        with_w = torch.nn.functional.rms_norm(x, (n,), torch.from_numpy(w), layer.eps).numpy()
        scale = np.abs(layer.output).max()
        assert np.abs(with_gamma - layer.output).max() < 1e-5 * scale
        assert np.abs(with_w - layer.output).max() > 0.1 * scale
    assert "γ = 1 + weight" in states.notes and type(modules[states.layers[0].name]).__name__ in states.notes


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_the_llama_family_is_captured_with_its_weight(dtype, tmp_path):
    model = tiny_model("llama", dtype)
    states = capture(model)
    modules = modules_by_name(model)
    assert {layer.kind for layer in states.layers} == {"rmsnorm"} and "1 + weight" not in states.notes
    for layer in states.layers:
        assert np.array_equal(layer.weight, modules[layer.name.split("@")[0]].weight.detach().double().numpy())
    assert states.extra == {"computed_in": str(dtype).removeprefix("torch.")}  # no call missed its formula
    back = read_states(write_states(tmp_path / "llama.safetensors", states))  # the read-time check accepts it
    assert len(back.layers) == len(states.layers)


class ShiftedScaleRMSNorm(nn.Module):
    """No class of transformers': γ = 1 + w is found by behaviour alone."""

    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.linspace(-0.5, 2.0, n))
        self.eps = 1e-6

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * (1.0 + self.weight)


class GatedRMSNorm(ShiftedScaleRMSNorm):
    """An output no formula of input, ε and γ gives: a gate multiplies it."""

    def forward(self, x):
        return super().forward(x) * torch.sigmoid(x.flip(-1))


def test_a_convention_is_found_by_behaviour_and_an_odd_layer_is_kept_as_unknown(tmp_path):
    model = nn.Sequential(ShiftedScaleRMSNorm(6), GatedRMSNorm(6))
    states = capture_states(model, lambda: model(torch.randn(3, 6)), model_name="toy")
    shifted, gated = states.layers
    assert shifted.kind == "rmsnorm" and np.allclose(shifted.weight, 1.0 + model[0].weight.detach().double().numpy())
    assert gated.kind == "unknown" and "1 calls' outputs do not follow" in states.notes and "1 (off by" in states.notes
    assert states.extra["follow_no_formula"] == ["1"]
    back = read_states(write_states(tmp_path / "toy.safetensors", states))
    assert [layer.kind for layer in back.layers] == ["rmsnorm", "unknown"]


def test_a_file_that_took_w_for_gamma_is_refused_in_one_line(tmp_path):
    states = capture(tiny_model("gemma"))
    old_style = dataclasses.replace(states, layers=tuple(dataclasses.replace(layer, weight=layer.weight - 1.0)
                                                         for layer in states.layers))
    path = write_states(tmp_path / "gemma-old.safetensors", old_style)
    with pytest.raises(StatesFileError) as refused:
        read_states(path)
    message = str(refused.value)
    assert "\n" not in message and "layers.0.input_layernorm" in message and "γ = 1 + weight" in message
    assert "is not γ·x/√(mean(x²) + ε)" in message


def test_the_states_command_on_a_gemma_folder_records_one_plus_weight(tmp_path):
    folder = tmp_path / "tiny-gemma"
    model = tiny_model("gemma")
    model.save_pretrained(folder)
    tokenizer = Tokenizer(models.WordLevel({word: i for i, word in enumerate(WORDS)}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    transformers.PreTrainedTokenizerFast(tokenizer_object=tokenizer, unk_token="[UNK]").save_pretrained(folder)
    out = tmp_path / "tiny.safetensors"
    done = subprocess.run([sys.executable, "-c", "from scenes.cli.main import main; main()", "states", "--model",
                           str(folder), "--text", TEXT, "--out", str(out)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    states = read_states(out)
    first = states.layers[0]
    w = model.layers[0].input_layernorm.weight.detach().double().numpy()
    assert np.allclose(first.weight, 1.0 + w, rtol=1e-6) and "γ = 1 + weight" in states.notes
