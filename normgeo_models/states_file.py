"""States files: what each normalization layer of a model saw and produced, for one text.

A states file is safetensors (or ``.npz``, same keys) holding, for the k-th normalization call,
``layers/{k:03d}/input`` and ``/output`` (the tensors as the module got and returned them) and,
where the module has them, ``/weight`` (γ) and ``/bias`` (β), with JSON metadata under the key
``normgeo``: the model's name, the text, its tokens, and per layer its name, kind, ε and shape;
``computed_in``, where given, is the precision the model ran in (bfloat16, float16, float32).
A bare ``.npy`` array (layers, tokens, n) or (tokens, n) is read as inputs of unknown kind, ε = 0.

Reading never unpickles (``.pt``/``.bin``/``.pkl`` are refused, ``.npz``/``.npy`` load with
pickles off), never reads a file whole (safetensors and ``.npy`` are memory-mapped; sizes are
checked from the headers first), and refuses NaN/inf, wrong shapes, missing layers and an RMSNorm
or LayerNorm whose output is not its formula of its input, ε, γ and β (to the precision the model
ran in and the file stores) with one line (``StatesFileError``). Needs numpy and safetensors, never
torch.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from safetensors import SafetensorError, safe_open
from safetensors.numpy import save

from normgeo.validation import as_finite_array, as_nonnegative_number
from normgeo_models.formula_check import FORMULA, formula_output, relative_error, tolerance_for

__all__ = ["KINDS", "MAX_STATE_BYTES", "StatesFileError", "LayerStates", "States", "read_states", "write_states"]

FORMAT = "normgeo-states"
VERSION = 1
KINDS = ("rmsnorm", "layernorm", "batchnorm", "groupnorm", "unknown")
MAX_STATE_BYTES = 1 << 30  # 1 GiB of tensors: far more than a few sentences of any model's norm layers
PICKLE_SUFFIXES = (".pt", ".pth", ".bin", ".pkl", ".pickle", ".ckpt")
PARTS = ("input", "output", "weight", "bias")


def _file_mode() -> int:
    """rw-r--r-- less what the user's umask takes away: the mode of normgeo's renders too."""
    mask = os.umask(0o022)  # the only way to read it is to set it: put it straight back
    os.umask(mask)
    return 0o644 & ~mask


class StatesFileError(ValueError):
    """The file is not a readable states file; the message says which file and why, in one line."""


@dataclass(frozen=True)
class LayerStates:
    """One normalization call: its module's name and kind, ε, and float64 arrays (γ, β may be None)."""

    name: str
    kind: str
    eps: float
    input: np.ndarray
    output: np.ndarray | None = None
    weight: np.ndarray | None = None
    bias: np.ndarray | None = None

    @property
    def width(self) -> int:
        """n: the size of the normalized (last) axis."""
        return int(self.input.shape[-1])

    def tokens(self, part: str = "input") -> np.ndarray:
        """The input (or output) as rows of the last axis: shape (tokens, n)."""
        array = getattr(self, part)
        return array.reshape(-1, array.shape[-1])


@dataclass(frozen=True)
class States:
    """A states file's content: the model, the text and its tokens, and the layers in call order."""

    model: str
    text: str
    layers: tuple[LayerStates, ...]
    tokens: tuple[str, ...] = ()
    notes: str = ""
    stored_as: str = ""  # the arrays' type in the file (float16, float32, float64), once read
    extra: dict = field(default_factory=dict)

    def of_kind(self, *kinds: str) -> tuple[LayerStates, ...]:
        return tuple(layer for layer in self.layers if layer.kind in kinds)


def write_states(path, states: States, dtype=np.float32) -> Path:
    """Write ``states`` as safetensors (``.safetensors``) or ``.npz``, every array as ``dtype``;
    the file appears whole or not at all (written beside it, then renamed), with the mode of a
    render (rw-r--r-- less the umask). An ``OSError`` (a read-only folder) leaves nothing behind."""
    path = Path(path)
    tensors: dict[str, np.ndarray] = {}
    layers = []
    for index, layer in enumerate(states.layers):
        for part in PARTS:
            array = getattr(layer, part)
            if array is not None:
                tensors[f"layers/{index:03d}/{part}"] = np.ascontiguousarray(array, dtype=dtype)
        layers.append({"name": layer.name, "kind": layer.kind, "eps": layer.eps, "shape": list(layer.input.shape),
                       "parts": [p for p in PARTS if getattr(layer, p) is not None]})
    metadata = json.dumps({"format": FORMAT, "version": VERSION, "model": states.model, "text": states.text,
                           "dtype": np.dtype(dtype).name,
                           "tokens": list(states.tokens), "notes": states.notes, "layers": layers, **states.extra},
                          ensure_ascii=False)
    descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    partial = Path(name)  # its own name: two runs writing one file never write into each other's
    try:
        with os.fdopen(descriptor, "wb") as handle:  # (safetensors' own writer reports I/O errors as its own type)
            if path.suffix == ".npz":
                np.savez(handle, __metadata__=np.frombuffer(metadata.encode(), dtype=np.uint8), **tensors)
            else:
                handle.write(save(tensors, metadata={"normgeo": metadata}))
        os.chmod(partial, _file_mode())
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def read_states(path, max_bytes: int = MAX_STATE_BYTES) -> States:
    """Read a states file (.safetensors, .npz or .npy); ``StatesFileError`` in one line if it is not one."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in PICKLE_SUFFIXES:
        raise StatesFileError(f"{path.name}: {suffix} files are pickles and are never opened here; "
                              "save the states with safetensors (normgeo_models.capture_states writes one)")
    if not path.is_file():
        raise StatesFileError(f"{path}: no such file")
    readers = {".safetensors": _read_safetensors, ".npz": _read_npz, ".npy": _read_npy}
    if suffix not in readers:
        raise StatesFileError(f"{path.name}: not a states file (expected .safetensors, .npz or .npy)")
    return readers[suffix](path, max_bytes)


def _too_big(path: Path, total: int, max_bytes: int) -> StatesFileError:
    return StatesFileError(f"{path.name}: holds {total / 2**30:.1f} GiB of arrays, more than the "
                           f"{max_bytes / 2**30:g} GiB normgeo reads; capture fewer tokens or layers")


def _read_safetensors(path: Path, max_bytes: int) -> States:
    try:
        with safe_open(str(path), framework="np") as handle:  # memory-mapped: only what is asked for is read
            metadata = (handle.metadata() or {}).get("normgeo")
            keys = set(handle.keys())
            total = 0
            for key in keys:
                piece = handle.get_slice(key)
                total += int(np.prod(piece.get_shape(), dtype=np.int64)) * _itemsize(path, key, piece.get_dtype())
            if total > max_bytes:
                raise _too_big(path, total, max_bytes)
            described = _metadata(path, metadata)
            return _assemble(path, described, keys, handle.get_tensor)
    except SafetensorError as error:
        raise StatesFileError(f"{path.name}: not a safetensors file ({error})") from None
    except (TypeError, ValueError) as error:
        if isinstance(error, StatesFileError):
            raise
        raise StatesFileError(f"{path.name}: cannot be read ({error})") from None


def _itemsize(path: Path, key: str, dtype: str) -> int:
    sizes = {"F16": 2, "F32": 4, "F64": 8}
    if dtype not in sizes:
        raise StatesFileError(f"{path.name}: tensor {key} is {dtype}; states must be float16, float32 or float64")
    return sizes[dtype]


def _read_npz(path: Path, max_bytes: int) -> States:
    try:
        with zipfile.ZipFile(path) as archive:
            total = sum(info.file_size for info in archive.infolist())
        if total > max_bytes:
            raise _too_big(path, total, max_bytes)
        with np.load(path, allow_pickle=False) as archive:
            keys = {name for name in archive.files if name != "__metadata__"}
            if "__metadata__" not in archive.files:
                raise StatesFileError(f"{path.name}: not a normgeo states file (no __metadata__ entry)")
            raw = archive["__metadata__"]
            if raw.dtype != np.uint8:
                raise StatesFileError(f"{path.name}: __metadata__ must be JSON bytes (uint8)")
            described = _metadata(path, raw.tobytes().decode("utf-8", errors="replace"))
            return _assemble(path, described, keys, lambda key: archive[key])
    except (zipfile.BadZipFile, OSError, EOFError) as error:
        raise StatesFileError(f"{path.name}: not an .npz archive ({error})") from None
    except ValueError as error:
        if isinstance(error, StatesFileError):
            raise
        raise StatesFileError(f"{path.name}: cannot be read with pickles off ({error})") from None


def _read_npy(path: Path, max_bytes: int) -> States:
    try:
        array = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError) as error:
        raise StatesFileError(f"{path.name}: not a readable .npy array with pickles off ({error})") from None
    if array.nbytes > max_bytes:
        raise _too_big(path, array.nbytes, max_bytes)
    if array.ndim not in (2, 3):
        raise StatesFileError(f"{path.name}: a .npy states array has shape (layers, tokens, n) or (tokens, n), "
                              f"got {array.shape}")
    stack = array[None] if array.ndim == 2 else array
    layers = tuple(LayerStates(f"layer.{index}", "unknown", 0.0, _checked(path, f"layer {index} input", stack[index]))
                   for index in range(stack.shape[0]))
    return States(model=path.stem, text="", layers=layers, notes="inputs only (.npy): kind unknown, ε taken as 0",
                  stored_as=array.dtype.name)


def _metadata(path: Path, text) -> dict:
    if text is None:
        raise StatesFileError(f"{path.name}: not a normgeo states file (no 'normgeo' metadata)")
    try:
        described = json.loads(text)
    except json.JSONDecodeError as error:
        raise StatesFileError(f"{path.name}: its metadata is not JSON ({error.msg})") from None
    if not isinstance(described, dict) or described.get("format") != FORMAT:
        raise StatesFileError(f"{path.name}: not a normgeo states file (metadata format is not {FORMAT!r})")
    layers = described.get("layers")
    if not isinstance(layers, list) or not layers:
        raise StatesFileError(f"{path.name}: its metadata lists no layers")
    return described


def _assemble(path: Path, described: dict, keys: set[str], load) -> States:
    layers = []
    tolerance = tolerance_for(str(described.get("dtype", "")), str(described.get("computed_in", "")))
    for index, entry in enumerate(described["layers"]):
        layers.append(_follows_formula(path, _layer(path, index, entry, keys, load), tolerance))
    tokens = described.get("tokens") or []
    return States(model=str(described.get("model", "")), text=str(described.get("text", "")), layers=tuple(layers),
                  tokens=tuple(str(t) for t in tokens), notes=str(described.get("notes", "")),
                  stored_as=str(described.get("dtype", "")))


def _layer(path: Path, index: int, entry, keys: set[str], load) -> LayerStates:
    if not isinstance(entry, dict):
        raise StatesFileError(f"{path.name}: layer {index} is not described by a JSON object")
    name = str(entry.get("name", f"layer {index}"))
    kind = entry.get("kind")
    if kind not in KINDS:
        raise StatesFileError(f"{path.name}: layer {name} has kind {kind!r}; expected one of {', '.join(KINDS)}")
    try:
        eps = as_nonnegative_number(entry.get("eps", 0.0), f"layer {name}: ε")
    except ValueError as error:  # the core's own check and message
        raise StatesFileError(f"{path.name}: {error}") from None
    parts = {}
    for part in PARTS:
        key = f"layers/{index:03d}/{part}"
        if key in keys:
            parts[part] = _checked(path, f"layer {name} {part}", load(key))
        elif part in ("input",) or part in entry.get("parts", ()):
            raise StatesFileError(f"{path.name}: layer {name} is missing its {part} (no tensor {key})")
    shape = tuple(parts["input"].shape)
    if list(shape) != list(entry.get("shape", shape)) or len(shape) < 1 or shape[-1] < 2:
        raise StatesFileError(f"{path.name}: layer {name} input has shape {shape}, its metadata says "
                              f"{tuple(entry.get('shape', ()))}; the last axis must have ≥ 2 features")
    if "output" in parts and parts["output"].shape != shape:
        raise StatesFileError(f"{path.name}: layer {name} output has shape {parts['output'].shape}, its input {shape}")
    width = shape[1] if kind in ("batchnorm", "groupnorm") and len(shape) > 2 else shape[-1]
    for part in ("weight", "bias"):
        if part in parts and parts[part].shape != (width,):
            raise StatesFileError(f"{path.name}: layer {name} {part} has shape {parts[part].shape}, "
                                  f"expected ({width},)")
    return LayerStates(name, kind, float(eps), parts["input"], parts.get("output"), parts.get("weight"),
                       parts.get("bias"))


def _follows_formula(path: Path, layer: LayerStates, tolerance: float) -> LayerStates:
    """``layer``, if its output is its kind's formula of its input, ε, γ and β (RMSNorm and
    LayerNorm: all they need is in the file); else one line saying by how much it misses, and
    whether γ = 1 + weight would fit (a capture that took Gemma's w for γ)."""
    if layer.output is None or layer.kind not in ("rmsnorm", "layernorm"):
        return layer
    bias = layer.bias if layer.kind == "layernorm" else None
    error = relative_error(layer.output, formula_output(layer.kind, layer.input, layer.eps, layer.weight, bias))
    if error <= tolerance:
        return layer
    hint = ""
    if layer.weight is not None and relative_error(
            layer.output, formula_output(layer.kind, layer.input, layer.eps, 1.0 + layer.weight, bias)) <= tolerance:
        hint = ("; it fits γ = 1 + weight, as Gemma's RMSNorm applies it: capture the states again "
                "(normgeo states, or normgeo_models.capture_states), which records the γ a layer applies")
    off = f"{error:.0%}" if np.isfinite(error) else "an undefined amount"
    raise StatesFileError(f"{path.name}: layer {layer.name} ({layer.kind}): its output is not {FORMULA[layer.kind]} "
                          f"of its input, ε and γ (off by {off} of the output's size), so normgeo cannot explain it "
                          f"with these numbers{hint}")


def _checked(path: Path, what: str, array) -> np.ndarray:
    array = np.asarray(array)
    if array.dtype.kind != "f":
        raise StatesFileError(f"{path.name}: {what} is {array.dtype}; states must be floating point")
    try:
        return as_finite_array(array, what, min_ndim=0)  # the core's check: empty, NaN or ±inf, where
    except ValueError as error:
        raise StatesFileError(f"{path.name}: {error}") from None
