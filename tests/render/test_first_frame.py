"""A web animation's first frame is never blank: e-mail clients show only that one."""

import numpy as np
from PIL import Image

from scenes.render.media.frames import png_frames


def write(folder, frames):
    folder.mkdir()
    for index, pixels in enumerate(frames):
        Image.fromarray(np.asarray(pixels, dtype=np.uint8)).save(folder / f"{index:05d}.png")
    return folder


def test_a_blank_first_frame_shows_the_finished_picture_for_as_long(tmp_path):
    background = np.full((6, 8, 3), 20)
    half, done = background.copy(), background.copy()
    half[2:4, :4] = 250
    done[2:4, :] = 250
    folder = write(tmp_path / "blank", [background, half, done])
    shown = list(png_frames(folder, [3, 1, 2], 15.0, poster_first=True))
    assert np.array_equal(shown[0][0], done) and shown[0][1] == 3 / 15
    assert np.array_equal(shown[1][0], half) and np.array_equal(shown[2][0], done)
    assert np.array_equal(next(iter(png_frames(folder, [3, 1, 2], 15.0)))[0], background)  # as Manim drew it


def test_a_first_frame_with_something_drawn_is_kept(tmp_path):
    first = np.full((6, 8, 3), 20)
    first[0, 0] = 200
    folder = write(tmp_path / "drawn", [first, np.full((6, 8, 3), 90)])
    assert np.array_equal(next(iter(png_frames(folder, [], 15.0, poster_first=True)))[0], first)
