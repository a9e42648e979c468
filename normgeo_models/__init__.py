"""normgeo_models: hidden states of real models at their normalization layers, as states files.

``normgeo_models.states_file`` reads and writes states files with numpy and safetensors only (the
scenes use it, without torch). ``normgeo_models.capture`` hooks a PyTorch model's normalization
modules and ``normgeo_models.bundled`` loads the two models that registry packages ship: both need
the extra ``normgeo[models]`` (torch, transformers, gguf). Layering: normgeo ← normgeo_models ←
scenes; the core never imports this package.
"""

from normgeo_models.states_file import KINDS, LayerStates, States, StatesFileError, read_states, write_states

__all__ = ["KINDS", "LayerStates", "States", "StatesFileError", "read_states", "write_states"]
