"""The Piper process: loads one voice and speaks what it is sent, so that a synthesizer that dies
takes only its render with it (run as ``python -m scenes.render.voice.piper_child MODEL CONFIG``).

Protocol, one request after another: the parent writes a JSON line ``{"text": …}``; the child
answers with a JSON line ``{"rate": R, "word_phonemes": [n, …], "chunks": [{"samples": N, "phonemes": [[p, n], …] | null}, …]}``
followed by the float32 samples of every chunk, little-endian, in order. Noise scales are 0, so
the same text gives the same samples every time.
"""

from __future__ import annotations

import json
import sys

import numpy as np
from piper import PiperVoice, SynthesisConfig

from scenes.render.voice.clip import text_words
from scenes.render.voice.piper_words import NOT_SPOKEN

__all__ = ["main"]


def main(model: str, config: str) -> int:
    voice = PiperVoice.load(model, config_path=config)
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
    sys.exit(main(sys.argv[1], sys.argv[2]))
