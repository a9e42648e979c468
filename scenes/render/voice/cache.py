"""The speech cache: one normalized clip per (voice identity, which includes its model file's hash;
language; text), so that changing one sentence re-synthesizes one clip and a warm re-render
synthesizes nothing. Each entry is ``<key>.npy`` (float32 samples, read back with pickling off) and
``<key>.json`` (rate, word times), each written under a hidden name and renamed into place, the
JSON last: an entry without its JSON is not there."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from scenes.render.files import atomic_write_text
from scenes.render.voice.clip import Clip, WordTime

__all__ = ["SpeechCache", "default_cache_folder", "speech_key"]

_FORMAT = 1


def default_cache_folder() -> Path:
    """``$NORMGEO_SPEECH_CACHE``, else ``$XDG_CACHE_HOME/normgeo/speech`` (``~/.cache/normgeo/speech``)."""
    if os.environ.get("NORMGEO_SPEECH_CACHE"):
        return Path(os.environ["NORMGEO_SPEECH_CACHE"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "normgeo" / "speech"


def speech_key(identity: str, lang: str, text: str, treatment: str) -> str:
    """SHA-256 of what a clip depends on (``treatment`` names the loudness processing).

    >>> speech_key("v", "en", "a", "t") == speech_key("v", "en", "a ", "t")
    False
    """
    payload = json.dumps({"format": _FORMAT, "voice": identity, "lang": lang, "text": text, "treatment": treatment})
    return hashlib.sha256(payload.encode()).hexdigest()


class SpeechCache:
    """Clips by key in ``folder`` (made when first written)."""

    def __init__(self, folder: Path):
        self.folder = folder

    def holds(self, key: str) -> bool:
        """Whether an entry for ``key`` is there (its JSON, written last), without reading it."""
        return (self.folder / f"{key}.json").is_file()

    def get(self, key: str) -> Clip | None:
        meta_path, samples_path = self.folder / f"{key}.json", self.folder / f"{key}.npy"
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            samples = np.load(samples_path, allow_pickle=False)
        except (OSError, ValueError):
            return None
        if samples.dtype != np.float32 or samples.ndim != 1:
            return None
        words = tuple(WordTime(word, float(start), float(end)) for word, start, end in meta["words"])
        return Clip(samples, int(meta["rate"]), words, meta["words_from"])

    def put(self, key: str, clip: Clip, about: dict) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(prefix=f".{key}.", suffix=".npy.partial", dir=self.folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                np.save(handle, np.ascontiguousarray(clip.samples, dtype=np.float32), allow_pickle=False)
            os.replace(partial, self.folder / f"{key}.npy")
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
        meta = {**about, "rate": clip.rate, "words_from": clip.words_from,
                "words": [[word.word, word.start, word.end] for word in clip.words]}
        atomic_write_text(self.folder / f"{key}.json", json.dumps(meta, ensure_ascii=False))
