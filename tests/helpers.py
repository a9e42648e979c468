"""Small helpers shared by tests in several folders."""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """In a child before exec: SIGINT to its default, so that Python turns it into
    KeyboardInterrupt as when a terminal sends it (a suite run as a background job of a
    non-interactive shell has SIGINT ignored, and children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def in_fresh_process(function, *args):
    """``function(*args)`` (a module-level function, picklable arguments) in a new Python process,
    and its result. Renders that must repeat each other's bytes run this way: a render that followed
    another in the same process did not always repeat itself (see docs/pipeline.md, "Video encoding")."""
    import pickle
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as folder:
        call, result = Path(folder) / "call.pickle", Path(folder) / "result.pickle"
        call.write_bytes(pickle.dumps((function, args)))
        code = ("import pickle, sys; function, args = pickle.loads(open(sys.argv[1], 'rb').read()); "
                "open(sys.argv[2], 'wb').write(pickle.dumps(function(*args)))")
        done = subprocess.run([sys.executable, "-c", code, str(call), str(result)], cwd=root, capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr[-3000:]
        return pickle.loads(result.read_bytes())


def assert_split_equals_unsplit(whole, parts, name: str) -> list[dict]:
    """The video ``name`` in output folder ``parts`` (a split render) has the decoded frames of the
    one in ``whole`` (unsplit), the same subtitle cues within 1 ms, and the same narrated steps in
    its manifest record within 2 ms. Returns the two manifest records (unsplit, split)."""
    import json
    from pathlib import Path

    whole, parts = Path(whole), Path(parts)
    srt_name = name.replace(".mp4", ".srt")
    records = [json.loads((folder / "manifest.json").read_text())["artifacts"][name] for folder in (whole, parts)]
    assert_same_frames_cues_and_steps(whole / name, parts / name,
                                      *((folder / srt_name).read_text(encoding="utf-8") for folder in (whole, parts)),
                                      *({"duration": record["duration_s"], "steps": record["steps"]} for record in records))
    return records


def assert_joined_equals_whole(whole: dict, joined: dict, folder) -> None:
    """Two results of ``splitting.join_parts`` (one of a single part, one of several) hold the same
    decoded frames, cues (1 ms) and steps (2 ms); ``folder`` takes the videos to decode."""
    from pathlib import Path

    assert set(whole.files) == set(joined.files)
    video = next(name for name in whole.files if name.endswith(".mp4"))
    paths = [Path(folder) / f"{label}.mp4" for label in ("whole", "joined")]
    for path, result in zip(paths, (whole, joined)):
        path.write_bytes(result.files[video])
    srt_name = video.replace(".mp4", ".srt")
    assert_same_frames_cues_and_steps(*paths, *(result.files[srt_name].decode() for result in (whole, joined)),
                                      *({"duration": result.duration, "steps": result.extra["steps"]}
                                        for result in (whole, joined)))


def assert_same_frames_cues_and_steps(expected_video, joined_video, expected_srt: str, joined_srt: str,
                                      expected: dict, joined: dict) -> None:
    """Decoded frames equal (and more than 100), cue texts equal with times within 1 ms, and the
    ``duration`` and narrated ``steps`` of ``expected`` and ``joined`` within 2 ms."""
    import numpy as np
    import pytest
    import srt

    frames, got = read_frames(expected_video), read_frames(joined_video)
    assert len(got) == len(frames) > 100
    differing = [i for i, (a, b) in enumerate(zip(frames, got)) if not np.array_equal(a, b)]
    first = differing[0] if differing else 0
    assert differing == [], (f"{len(differing)} of {len(frames)} frames differ, the first at {first}, mean "
                             f"difference there {np.abs(frames[first].astype(int) - got[first]).mean():.3f}")
    expected_cues, joined_cues = list(srt.parse(expected_srt)), list(srt.parse(joined_srt))
    assert [c.content for c in joined_cues] == [c.content for c in expected_cues] != []
    for a, b in zip(expected_cues, joined_cues):
        assert abs((a.start - b.start).total_seconds()) <= 0.001 and abs((a.end - b.end).total_seconds()) <= 0.001
    assert joined["duration"] == pytest.approx(expected["duration"], abs=0.002)
    for a, b in zip(expected["steps"], joined["steps"], strict=True):
        assert a["key"] == b["key"] and a["start"] == pytest.approx(b["start"], abs=0.002)
        assert a["end"] == pytest.approx(b["end"], abs=0.002)


def read_frames(path, every: int = 1):
    """RGB frames (numpy, HxWx3) of a video or GIF, keeping every ``every``-th."""
    import av

    frames = []
    with av.open(str(path)) as container:
        for index, frame in enumerate(container.decode(video=0)):
            if index % every == 0:
                frames.append(frame.to_ndarray(format="rgb24"))
    return frames
