"""States files: written and read back exactly; every bad file refused in one line; nothing unpickled."""

import json
import os
import pickle
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from normgeo import rms_norm
from normgeo_models.states_file import LayerStates, States, StatesFileError, read_states, write_states

ROOT = Path(__file__).resolve().parents[2]


def sample_states(tokens=5, n=6, layers=3):
    rng = np.random.default_rng(0)
    pairs = [(rng.normal(size=(1, tokens, n)), rng.normal(size=n)) for _ in range(layers)]
    return States("toy", "a text", tuple(
        LayerStates(f"block.{i}.norm", "rmsnorm", 1e-6, x, rms_norm(x, 1e-6, w), w) for i, (x, w) in enumerate(pairs)),
        tokens=tuple("abcde"[:tokens]))


@pytest.mark.parametrize("suffix", [".safetensors", ".npz"])
def test_round_trip_in_float64(tmp_path, suffix):
    states = sample_states()
    back = read_states(write_states(tmp_path / f"s{suffix}", states, dtype=np.float64))
    assert (back.model, back.text, back.tokens) == (states.model, states.text, states.tokens)
    for a, b in zip(states.layers, back.layers, strict=True):
        assert (a.name, a.kind, a.eps) == (b.name, b.kind, b.eps)
        assert np.array_equal(a.input, b.input) and np.array_equal(a.output, b.output)
        assert np.array_equal(a.weight, b.weight) and b.bias is None


def test_npy_is_read_as_inputs_of_unknown_kind(tmp_path):
    np.save(tmp_path / "x.npy", np.ones((2, 4, 3)) * np.arange(3))
    states = read_states(tmp_path / "x.npy")
    assert [layer.kind for layer in states.layers] == ["unknown", "unknown"] and states.layers[0].eps == 0.0


def refused(path, match):
    with pytest.raises(StatesFileError, match=match) as error:
        read_states(path)
    assert "\n" not in str(error.value)


class Payload:
    def __reduce__(self):
        return (os.system, (f"touch {Payload.marker}",))


def test_pickles_are_never_opened(tmp_path):
    Payload.marker = tmp_path / "unpickled"
    for suffix in (".pt", ".bin", ".pkl"):
        path = tmp_path / f"evil{suffix}"
        path.write_bytes(pickle.dumps(Payload()))
        refused(path, "pickles")
    np.save(tmp_path / "objects.npy", np.array([Payload()], dtype=object), allow_pickle=True)
    refused(tmp_path / "objects.npy", "pickles off")
    assert not Payload.marker.exists()


def test_not_a_states_file(tmp_path):
    (tmp_path / "noise.safetensors").write_bytes(os.urandom(64))
    refused(tmp_path / "noise.safetensors", "not a safetensors file")
    from safetensors.numpy import save_file
    save_file({"x": np.ones((2, 3), dtype=np.float32)}, str(tmp_path / "plain.safetensors"))
    refused(tmp_path / "plain.safetensors", "no 'normgeo' metadata")
    (tmp_path / "x.txt").write_text("hi")
    refused(tmp_path / "x.txt", "expected .safetensors")
    refused(tmp_path / "missing.safetensors", "no such file")


def rewrite(tmp_path, edit, name="bad.safetensors"):
    states = sample_states()
    tensors = {}
    for i, layer in enumerate(states.layers):
        tensors[f"layers/{i:03d}/input"] = layer.input.astype(np.float32)
        tensors[f"layers/{i:03d}/output"] = layer.output.astype(np.float32)
        tensors[f"layers/{i:03d}/weight"] = layer.weight.astype(np.float32)
    meta = {"format": "normgeo-states", "version": 1, "model": "toy", "text": "", "layers": [
        {"name": layer.name, "kind": layer.kind, "eps": layer.eps, "shape": list(layer.input.shape),
         "parts": ["input", "output", "weight"]} for layer in states.layers]}
    edit(tensors, meta)
    from safetensors.numpy import save_file
    save_file(tensors, str(tmp_path / name), metadata={"normgeo": json.dumps(meta)})
    return tmp_path / name


def test_nan_wrong_shape_and_missing_layer(tmp_path):
    def nan(t, m):
        t["layers/001/input"][0, 2, 3] = np.nan
    refused(rewrite(tmp_path, nan), r"block.1.norm input holds nan at index \[0, 2, 3\]; only finite values")

    def infinite_gamma(t, m):
        t["layers/000/weight"][1] = np.inf
    refused(rewrite(tmp_path, infinite_gamma), r"weight holds inf at index \[1\]")

    def empty(t, m):
        t["layers/002/weight"] = np.ones(0, dtype=np.float32)
    refused(rewrite(tmp_path, empty), r"weight is empty \(shape \(0,\)\)")

    def negative_eps(t, m):
        m["layers"][1]["eps"] = -1e-5
    refused(rewrite(tmp_path, negative_eps), r"block.1.norm: ε must be ≥ 0, got -1e-05")

    def text_eps(t, m):
        m["layers"][1]["eps"] = "small"
    refused(rewrite(tmp_path, text_eps), r"block.1.norm: ε must be a number, got 'small'")

    def shape(t, m):
        t["layers/002/output"] = np.ones((1, 4, 6), dtype=np.float32)
    refused(rewrite(tmp_path, shape), "output has shape")

    def gamma(t, m):
        t["layers/000/weight"] = np.ones(5, dtype=np.float32)
    refused(rewrite(tmp_path, gamma), r"weight has shape \(5,\)")

    def missing(t, m):
        del t["layers/001/output"]
    refused(rewrite(tmp_path, missing), "block.1.norm is missing its output")

    def kind(t, m):
        m["layers"][0]["kind"] = "magic"
    refused(rewrite(tmp_path, kind), "kind 'magic'")


def test_a_file_of_gigabytes_is_refused_from_its_header(tmp_path):
    """A sparse 5 GiB safetensors file: refused in well under a second, never read whole."""
    header = json.dumps({"__metadata__": {"normgeo": "{}"},
                         "layers/000/input": {"dtype": "F32", "shape": [1, 1310720, 1024],
                                              "data_offsets": [0, 5 * 2**30]}}).encode()
    path = tmp_path / "huge.safetensors"
    with open(path, "wb") as handle:
        handle.write(struct.pack("<Q", len(header)) + header)
        handle.truncate(8 + len(header) + 5 * 2**30)
    started = time.perf_counter()
    refused(path, "5.0 GiB")
    assert time.perf_counter() - started < 2.0


def test_the_cli_refuses_a_bad_source_in_one_line(tmp_path):
    bad = tmp_path / "evil.pt"
    bad.write_bytes(b"\x80\x04K\x01.")
    result = subprocess.run([str(Path(sys.executable).parent / "normgeo"), "still", "real-states-rmsnorm", "--set",
                             f"source={bad}", "--out", str(tmp_path)], capture_output=True, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().count("\n") == 0 and "pickles" in result.stderr
