"""The two bundled models, loaded offline: the statistics of the captured states equal those
computed directly from the model's own hidden states in PyTorch (output_hidden_states), and a
fresh capture reproduces the small states files shipped for the scenes."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from normgeo import layer_profile, token_norms
from normgeo_models.bundled import load_model, states_for_text
from normgeo_models.states_file import read_states
from scenes.kit.real_states import STATES_DIR

TEXT = "The quick brown fox jumps over the lazy dog."


@pytest.fixture(scope="module")
def smollm2():
    return load_model("smollm2")


@pytest.fixture(scope="module")
def minilm():
    return load_model("minilm")


def hidden_states(loaded, text=TEXT):
    encoded = loaded.tokenizer(text, return_tensors="pt")
    with torch.no_grad():
        output = loaded.model(**encoded, output_hidden_states=True)
    return [h[0].double() for h in output.hidden_states]


def torch_statistics(h: torch.Tensor, eps: float, centred: bool):
    """Norm, mean share and radius before γ from the hidden states, in PyTorch."""
    n = h.shape[-1]
    norm = h.norm(dim=-1)
    share = h.mean(-1).abs() * n**0.5 / norm
    scale = h.std(-1, unbiased=False) if centred else h.pow(2).mean(-1).sqrt()
    radius = (torch.nn.functional.layer_norm(h, (n,), eps=eps) if centred
              else torch.nn.functional.rms_norm(h, (n,), eps=eps)).norm(dim=-1)
    return norm.numpy(), share.numpy(), radius.numpy(), scale.numpy()


def check_layer(layer, h, centred):
    profile = layer_profile(layer.tokens(), layer.eps, centred)
    norm, share, radius, _ = torch_statistics(h, layer.eps, centred)
    assert np.allclose(profile.norms, norm, rtol=1e-12)
    assert np.allclose(profile.mean_shares, share, rtol=1e-9, atol=1e-15)
    assert np.allclose(profile.radii, radius, rtol=1e-12)


def test_smollm2_inputs_of_each_block_norm_are_the_hidden_states(smollm2):
    states = states_for_text(smollm2, TEXT)
    assert smollm2.model.config.hidden_size == 576 and "dequantized" in states.notes
    hidden = hidden_states(smollm2)
    by_name = {layer.name: layer for layer in states.layers}
    assert len(states.layers) == 61 and {layer.kind for layer in states.layers} == {"rmsnorm"}
    for i in range(30):
        layer = by_name[f"model.layers.{i}.input_layernorm"]
        assert np.allclose(layer.tokens(), hidden[i].numpy(), rtol=0, atol=1e-6 * hidden[i].abs().max().item())
        check_layer(layer, hidden[i], centred=False)
    final = by_name["model.norm"]
    assert np.allclose(final.tokens("output"), hidden[30].numpy(), rtol=0, atol=1e-5)
    norms = token_norms(by_name["model.layers.15.input_layernorm"].tokens())
    assert norms[0] > 100 * np.median(norms[1:])  # the first token's massive norm (~2·10⁴ against ~150)


def test_minilm_outputs_of_each_block_norm_are_the_hidden_states(minilm):
    states = states_for_text(minilm, TEXT)
    hidden = hidden_states(minilm)
    by_name = {layer.name: layer for layer in states.layers}
    assert len(states.layers) == 13 and {layer.kind for layer in states.layers} == {"layernorm"}
    assert np.allclose(by_name["embeddings.LayerNorm"].tokens("output"), hidden[0].numpy(), atol=1e-6)
    for i in range(6):
        layer = by_name[f"encoder.layer.{i}.output.LayerNorm"]
        assert np.allclose(layer.tokens("output"), hidden[i + 1].numpy(), atol=1e-6)
        check_layer(layer, torch.tensor(layer.tokens()), centred=True)


@pytest.mark.parametrize("which", ["smollm2", "minilm"])
def test_a_fresh_capture_reproduces_the_shipped_states(which, request):
    """The float16 files in scenes/states/ equal a new capture to float16's rounding."""
    fresh = states_for_text(request.getfixturevalue(which), TEXT)
    shipped = read_states(STATES_DIR / f"{which}.safetensors")
    assert shipped.text == TEXT and shipped.tokens == fresh.tokens
    assert [l.name for l in shipped.layers] == [l.name for l in fresh.layers]
    for old, new in zip(shipped.layers, fresh.layers, strict=True):
        for part in ("input", "output"):
            a, b = getattr(old, part), getattr(new, part)
            scale = np.abs(b).max(axis=-1, keepdims=True)
            assert np.all(np.abs(a - b) <= 1e-3 * scale + 1e-7), (old.name, part)


def test_the_states_command_writes_a_file_and_refuses_bad_input(tmp_path):
    normgeo = str(Path(sys.executable).parent / "normgeo")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    out = tmp_path / "mini.npz"
    done = subprocess.run([normgeo, "states", "--model", "minilm", "--text", TEXT, "--out", str(out)],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    states = read_states(out)
    assert states.model == "all-MiniLM-L6-v2" and len(states.layers) == 13 and states.stored_as == "float32"
    for args, words in ((["--model", "nope"], "not a model"), (["--model", "minilm", "--out", str(tmp_path / "x.pt")],
                                                                ".safetensors or .npz")):
        argv = [normgeo, "states", "--text", TEXT, "--out", str(tmp_path / "y.safetensors"), *args]
        refused = subprocess.run(argv, capture_output=True, text=True, env=env)
        assert refused.returncode == 2 and words in refused.stderr and refused.stderr.strip().count("\n") == 0
