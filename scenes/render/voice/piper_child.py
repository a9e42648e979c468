"""The Piper process: loads one voice and speaks what it is sent, so that a synthesizer that dies
takes only its render with it (run as ``python -m scenes.render.voice.piper_child MODEL CONFIG
ALIGNED``, ALIGNED the path of the model's copy with alignments).

Piper gives phoneme alignments only from a model whose duration tensor is a graph output: the
child patches a copy of MODEL once into ALIGNED (Piper's own ``add_alignment_output``, written
atomically, so that children patching at once both finish), never MODEL itself, and loads that copy;
onnx is imported only then, here and not in the render. A model that cannot be patched speaks
without alignments (word times then come from the characters).

Protocol, one request after another: the parent writes a JSON line ``{"text": …}``; the child
answers with a JSON line ``{"rate": R, "word_phonemes": [n, …], "chunks": [{"samples": N, "phonemes": [[p, n], …] | null}, …]}``
followed by the float32 samples of every chunk, little-endian, in order. Noise scales are 0, so
the same text gives the same samples every time. The child ends when its input ends.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnxruntime
from piper import PiperConfig, PiperVoice, SynthesisConfig

from scenes.render.voice.clip import text_words
from scenes.render.voice.piper_words import NOT_SPOKEN

__all__ = ["aligned_model", "load_voice", "main"]


def aligned_model(model: Path, config: Path, target: Path) -> tuple[Path, Path]:
    """The model (and config) with alignments: ``target`` (and ``target``.json), patched from
    ``model`` unless there already; ``model`` itself where it cannot be patched."""
    target_config = target.with_name(target.name + ".json")
    if target.is_file() and target_config.is_file():
        return target, target_config
    import onnx  # only to patch: a child whose copy is there never loads it
    from piper.patch_voice_with_alignment import add_alignment_output

    graph = onnx.load(str(model))
    try:
        add_alignment_output(graph)
    except ValueError:  # already patched, or no duration tensor to expose
        return model, config
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    os.close(fd)
    try:
        onnx.save(graph, partial)
        shutil.copyfile(config, target_config)
        os.replace(partial, target)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    return target, target_config


def load_voice(model: Path, config: Path) -> PiperVoice:
    """The voice with onnxruntime on one thread: a render's frames and encoder use the other core
    (onnxruntime's default, a thread per core spinning while idle, took half as much CPU again and
    was slower beside a render; docs/benchmarks.md)."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"])
    return PiperVoice(session=session, config=PiperConfig.from_dict(json.loads(config.read_text(encoding="utf-8"))))


def main(model: str, config: str, aligned: str) -> int:
    voice = load_voice(*aligned_model(Path(model), Path(config), Path(aligned)))
    settings = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        text = json.loads(line)["text"]
        chunks = list(voice.synthesize(text, syn_config=settings, include_alignments=True))
        header = {"rate": voice.config.sample_rate, "word_phonemes": word_phonemes(voice, text), "chunks": [
            {"samples": len(chunk.audio_float_array),
             "phonemes": None if chunk.phoneme_alignments is None
             else [[a.phoneme, int(a.num_samples)] for a in chunk.phoneme_alignments]} for chunk in chunks]}
        out.write(json.dumps(header).encode() + b"\n")
        for chunk in chunks:
            out.write(np.ascontiguousarray(chunk.audio_float_array, dtype="<f4").tobytes())
        out.flush()
    return 0


def word_phonemes(voice: PiperVoice, text: str) -> list[int]:
    """How many spoken phonemes eSpeak gives each word of ``text`` read alone."""
    return [sum(phoneme not in NOT_SPOKEN for sentence in voice.phonemize(word) for phoneme in sentence)
            for word in text_words(text)]


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
