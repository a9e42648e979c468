"""Layering: normgeo ← normgeo_models ← scenes. The core never imports normgeo_models or torch, and
reading a states file or building the real-states scenes' specs loads no torch."""

import subprocess
import sys


def loaded_after(code: str) -> set[str]:
    probe = f"import sys; {code}; print(','.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(result.stdout.strip().split(","))


def test_the_core_loads_neither_torch_nor_normgeo_models():
    assert not {"torch", "normgeo_models", "transformers", "safetensors"} & loaded_after("import normgeo")


def test_reading_states_and_the_scene_specs_load_no_torch():
    code = ("from scenes.real_states_rmsnorm import RealStatesRmsnormSpec; RealStatesRmsnormSpec(); "
            "import scenes.cli.main")
    assert not {"torch", "transformers"} & loaded_after(code)
