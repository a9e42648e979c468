"""Reading a sound file of any format FFmpeg knows (WAV, FLAC, Ogg, MP3, …) through PyAV, as mono
float samples at the file's own rate."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np

from scenes.render.voice.clip import SpeechError

__all__ = ["read_audio"]


def read_audio(path: Path) -> tuple[np.ndarray, int]:
    """The file's samples (float32, mono: channels averaged, in [-1, 1]) and rate; a file FFmpeg
    cannot decode, or one with no sound in it, is a :class:`SpeechError` naming it."""
    try:
        with av.open(str(path)) as container:
            if not container.streams.audio:
                raise SpeechError(f"{path}: no audio stream")
            stream = container.streams.audio[0]
            rate = stream.codec_context.sample_rate
            resampler = av.AudioResampler(format="fltp", layout="mono", rate=rate)
            pieces = [plane for frame in container.decode(stream) for out in resampler.resample(frame)
                      for plane in out.to_ndarray()]
            pieces += [plane for out in resampler.resample(None) for plane in out.to_ndarray()]
    except (av.FFmpegError, OSError, ValueError) as error:
        raise SpeechError(f"{path}: unreadable audio ({error})") from None
    samples = np.concatenate(pieces).astype(np.float32) if pieces else np.zeros(0, np.float32)
    if len(samples) == 0:
        raise SpeechError(f"{path}: no sound in it")
    return np.clip(samples, -1.0, 1.0), rate
