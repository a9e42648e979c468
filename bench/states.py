"""Time states for one sentence per bundled model: loading (GGUF dequantization for SmolLM2), one
forward pass with hooks on every normalization module, writing the file, and reading it back.

    python bench/states.py            # needs the extra normgeo[models]
"""

from __future__ import annotations

import os
import platform
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from normgeo_models.bundled import load_model, states_for_text
from normgeo_models.states_file import read_states, write_states

TEXT = "The quick brown fox jumps over the lazy dog."


def main() -> None:
    machine = f"{platform.machine()}, {platform.processor() or platform.system()}, {os.cpu_count()} cores"
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {machine}, load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as folder:
        for which in ("smollm2", "minilm"):
            started = time.perf_counter()
            loaded = load_model(which)
            loaded_at = time.perf_counter()
            runs = []
            for _ in range(3):
                begin = time.perf_counter()
                states = states_for_text(loaded, TEXT)
                runs.append(time.perf_counter() - begin)
            path = Path(folder) / f"{which}.safetensors"
            begin = time.perf_counter()
            write_states(path, states, dtype=np.float16)
            written = time.perf_counter() - begin
            begin = time.perf_counter()
            read_states(path)
            read = time.perf_counter() - begin
            print(f"{which}: load {loaded_at - started:.1f} s; capture (forward + hooks, {len(states.layers)} calls, "
                  f"{len(states.tokens)} tokens) median {sorted(runs)[1]:.3f} s of 3; write {written:.3f} s; "
                  f"read {read:.3f} s; file {path.stat().st_size / 1e6:.2f} MB (float16)")


if __name__ == "__main__":
    main()
