"""The sound process: every clip's loudness and every sound track, in a process of its own (run as
``python -m scenes.render.voice.sound_child``), so that a render's own process never loads scipy,
pyloudnorm or the limiter (about a second of imports, on the other core here) and a track is built
while the scene renders (:mod:`.building_track`: each clip limited as its step is said, the track
encoded as far as it is final), so that when the video is done only its tail is encoded, the
packets muxed and the true peak read back (:mod:`.peak_checked`).

Protocol, one request after another, each answered before the next is read: the parent writes a JSON
line, followed by ``samples`` float32 little-endian samples when the line names them; the child
answers with a JSON line (``{"error": …, "speech": bool}`` when it failed), followed by samples when
it names them. Requests:

* ``{"op": "normalize", "rate": R, "samples": N}`` → ``{"samples": N}``: the clip at −16 LUFS
  (:func:`~.loudness.normalize_loudness`; ``"speech": true`` in an error: the clip is silent);
* ``{"op": "place", "track": T, "suffix": ".mp4", "start": S, "rate": R, "samples": N}`` → ``{}``:
  a clip on track T (a new name starts a track, for a video of that suffix), its speech starting at S seconds;
* ``{"op": "finish", "track": T, "seconds": D, "video": PATH, "target": PATH}`` →
  ``{"peak": dBTP, "gain": dB}``: ``video`` with track T (D seconds) written to ``target``; T is forgotten.
* ``{"op": "drop", "track": T}`` → ``{}``: T is forgotten.

The child ends when its input ends.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from scenes.render.voice.building_track import BuildingTrack
from scenes.render.voice.clip import Clip, SpeechError
from scenes.render.voice.loudness import normalize_loudness

__all__ = ["SoundTracks", "main"]


class SoundTracks:
    """The tracks under way, by name (:class:`~.building_track.BuildingTrack`)."""

    def __init__(self):
        self.building: dict[str, BuildingTrack] = {}

    def place(self, track: str, start: float, samples: np.ndarray, rate: int, suffix: str | None = None) -> None:
        if track not in self.building:
            self.building[track] = BuildingTrack(suffix)
        self.building[track].place(start, samples, rate)

    def finish(self, track: str, video: Path, seconds: float, target: Path) -> tuple[float, float]:
        building = self.building.pop(track, None) or BuildingTrack(None)
        return building.finish(video, seconds, target)

    def drop(self, track: str) -> None:
        building = self.building.pop(track, None)
        if building is not None:
            building.drop()


def answer(tracks: SoundTracks, request: dict, samples: np.ndarray | None) -> tuple[dict, np.ndarray | None]:
    """The reply to one request (a failure is a reply too: the child goes on)."""
    op = request["op"]
    try:
        if op == "normalize":
            clip = normalize_loudness(Clip(samples, int(request["rate"]), (), "characters"))
            return {"samples": len(clip.samples)}, clip.samples
        if op == "place":
            tracks.place(str(request["track"]), float(request["start"]), samples, int(request["rate"]),
                         request.get("suffix"))
            return {}, None
        if op == "finish":
            peak, gain = tracks.finish(str(request["track"]), Path(request["video"]), float(request["seconds"]),
                                       Path(request["target"]))
            return {"peak": peak, "gain": gain}, None
        if op == "drop":
            tracks.drop(str(request["track"]))
            return {}, None
        return {"error": f"unknown request {op!r}", "speech": False}, None
    except SpeechError as error:
        return {"error": str(error), "speech": True}, None
    except Exception as error:  # the parent raises it for that render; the child serves the next
        return {"error": f"{type(error).__name__}: {error}", "speech": False}, None


def main() -> int:
    tracks = SoundTracks()
    source, out = sys.stdin.buffer, sys.stdout.buffer
    for line in source:
        request = json.loads(line)
        count = int(request.get("samples", 0))
        data = source.read(4 * count) if count else b""
        if len(data) != 4 * count:
            return 1
        samples = np.frombuffer(data, dtype="<f4").astype(np.float32) if count else None
        reply, payload = answer(tracks, request, samples)
        out.write(json.dumps(reply).encode() + b"\n")
        if payload is not None:
            out.write(np.ascontiguousarray(payload, dtype="<f4").tobytes())
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
