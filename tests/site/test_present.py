"""Presenter mode, driven by the keys a clicker sends: it pauses at the end of every narrated step,
goes on across scenes, and goes back, home and to the end."""

from __future__ import annotations

import pytest

from scenes.render.site import SiteLecture, SiteScene, build_site
from tests.site.conftest import NARRATION, SCENE_IDS, STEP_TIMES, make_scenes, write_video

STATE = """() => {
  const root = document.getElementById('presenter');
  const video = document.getElementById('present-video');
  return {state: root.dataset.state, cursor: Number(root.dataset.cursor), total: Number(root.dataset.total),
          scene: root.dataset.scene, step: Number(root.dataset.step), time: video.currentTime, paused: video.paused,
          src: video.getAttribute('src'), text: document.querySelector('[data-out="step-text"]').textContent,
          textHidden: document.querySelector('[data-out="step-text"]').hidden};
}"""


def wait_paused_at(page, cursor: int):
    page.wait_for_function(
        """(c) => { const r = document.getElementById('presenter'), v = document.getElementById('present-video');
           return r.dataset.state === 'paused' && Number(r.dataset.cursor) === c && !v.seeking && v.readyState >= 1
                  && Math.abs(v.currentTime - Number(r.dataset.time)) < 0.07; }""",
        arg=cursor,
        timeout=5000,
    )
    return page.evaluate(STATE)


def press(page, key):
    page.keyboard.press(key)


@pytest.fixture
def presenter(open_page, site):
    page = open_page(site / "present.html", query="?lang=ru", color_scheme="dark")
    page.wait_for_function("document.getElementById('present-video').readyState >= 1")
    return page


def test_steps_pause_at_their_ends_and_go_on_across_scenes(presenter):
    page = presenter
    state = page.evaluate(STATE)
    assert state["state"] == "paused" and state["cursor"] == 0 and state["total"] == 3 * len(SCENE_IDS)
    assert state["src"].endswith("video.ru.dark.mp4")
    for i, key in enumerate((" ", "ArrowRight", "PageDown"), start=1):
        press(page, key)
        state = wait_paused_at(page, i)
        assert abs(state["time"] - STEP_TIMES[i - 1][1]) < 0.06, state
        assert state["paused"] and state["scene"] == SCENE_IDS[0]
        assert state["text"] == NARRATION["ru"][i - 1]
    press(page, " ")  # the next scene starts without a break
    state = wait_paused_at(page, 4)
    assert state["scene"] == SCENE_IDS[1] and state["step"] == 0
    assert "/" + SCENE_IDS[1] + "/" in state["src"]
    assert abs(state["time"] - STEP_TIMES[0][1]) < 0.06


def test_back_home_end_and_text(presenter):
    page = presenter
    press(page, " ")
    wait_paused_at(page, 1)
    press(page, " ")
    wait_paused_at(page, 2)
    press(page, "ArrowLeft")
    state = wait_paused_at(page, 1)
    assert abs(state["time"] - STEP_TIMES[0][1]) < 1e-3
    press(page, "PageUp")
    state = wait_paused_at(page, 0)
    assert state["time"] == 0
    press(page, "End")
    state = wait_paused_at(page, 3 * len(SCENE_IDS))
    assert state["scene"] == SCENE_IDS[-1] and abs(state["time"] - STEP_TIMES[-1][1]) < 1e-3
    press(page, "ArrowLeft")  # back across a scene boundary is the same as within
    state = wait_paused_at(page, 3 * len(SCENE_IDS) - 1)
    assert state["scene"] == SCENE_IDS[-1] and abs(state["time"] - STEP_TIMES[1][1]) < 1e-3
    press(page, "Home")
    state = wait_paused_at(page, 0)
    assert state["scene"] == SCENE_IDS[0]
    assert state["textHidden"]
    press(page, "t")
    assert not page.evaluate(STATE)["textHidden"]


def test_the_joined_lecture_is_used_when_there_is_one(open_page, media_dir, tmp_path):
    lecture_video = write_video(tmp_path / "lecture.mp4", seconds=4.0)
    scenes = make_scenes(media_dir, ids=SCENE_IDS[:2])
    out = tmp_path / "site"
    build_site(scenes, out, lectures=[SiteLecture("en", "light", lecture_video, [(0.0, 2.0), (2.0, 4.0)])])
    page = open_page(out / "present.html", query="?lang=en&theme=light")
    page.wait_for_function("document.getElementById('present-video').readyState >= 1")
    assert page.evaluate(STATE)["src"].startswith("media/lecture/")
    press(page, "End")
    press(page, "ArrowLeft")
    state = wait_paused_at(page, 5)
    assert abs(state["time"] - (2.0 + STEP_TIMES[1][1])) < 1e-3
    press(page, " ")
    state = wait_paused_at(page, 6)
    assert abs(state["time"] - (2.0 + STEP_TIMES[2][1])) < 0.06


POSTER = """() => new Promise((done) => {
  const poster = document.getElementById('present-video').getAttribute('poster');
  if (!poster) { done(null); return; }
  const image = new Image();
  image.onload = () => done([poster, image.naturalWidth]);
  image.onerror = () => done([poster, 0]);
  image.src = poster;
})"""


def test_the_presenters_video_has_a_poster_before_space(presenter):
    """Before the first Space the video shows the first scene's still, not a blank box."""
    poster, width = presenter.evaluate(POSTER)
    assert poster == f"media/{SCENE_IDS[0]}/still.ru.dark.png" and width == 192


def test_the_joined_lecture_has_its_own_poster(open_page, media_dir, tmp_path):
    """The lecture's poster is its last frame before the end of its first chapter (2 s): there the
    bar of the test video has swept to x = 49/100·182 = 89 pixels."""
    import numpy as np
    from PIL import Image

    lecture_video = write_video(tmp_path / "lecture.mp4", seconds=4.0)
    out = tmp_path / "site"
    build_site(make_scenes(media_dir, ids=SCENE_IDS[:2]), out,
               lectures=[SiteLecture("en", "light", lecture_video, [(0.0, 2.0), (2.0, 4.0)])])
    page = open_page(out / "present.html", query="?lang=en&theme=light")
    page.wait_for_function("document.getElementById('present-video').readyState >= 1")
    poster, width = page.evaluate(POSTER)
    assert poster == "media/lecture/poster.en.light.png" and width == 192
    pixels = np.asarray(Image.open(out / poster).convert("RGB")).astype(int)
    bar = np.flatnonzero((pixels[54, :, 0] > 180) & (pixels[54, :, 2] < 120))
    assert abs(int(bar.min()) - 89) <= 2, bar


@pytest.mark.parametrize(("lang", "words"), [("ru", "Русская версия лекции ещё не отрендерена"), ("zh", "还没有渲染中文版讲座")])
def test_a_language_with_nothing_rendered_says_what_it_plays(open_page, media_dir, tmp_path, lang, words):
    """present.html?lang=ru with English media only plays the English videos and their text, and
    says so visibly, in Russian, naming the language shown."""
    scenes = make_scenes(media_dir, ids=SCENE_IDS[:2])
    scenes = [SiteScene(s.id, s.titles, s.descriptions, {"en": s.steps["en"]}, [m for m in s.media if m.lang == "en"], s.widget)
              for s in scenes]
    out = tmp_path / "site"
    build_site(scenes, out)
    page = open_page(out / "present.html", query=f"?lang={lang}")
    page.wait_for_function("document.getElementById('present-video').readyState >= 1")
    note = page.locator('[data-out="fallback"]')
    assert note.is_visible()
    assert words in note.inner_text() and "English" in note.inner_text()
    assert page.locator("#presenter").get_attribute("data-shown-langs") == "en"
    assert page.evaluate(STATE)["src"].endswith("video.en.light.mp4")


def test_no_note_when_the_language_is_rendered(presenter):
    assert not presenter.locator('[data-out="fallback"]').is_visible()
    assert presenter.locator("#presenter").get_attribute("data-shown-langs") == ""


def test_the_overlay_leaves_the_picture_alone(presenter):
    """The scene title, the status and the hint sit below the video, never over it (the video has
    its own title at the top); only the step text (T) lies over the picture, on request."""
    video = presenter.locator("#present-video").bounding_box()
    assert presenter.locator('[data-out="scene-title"]').inner_text()
    for name in ("scene-title", "status", "hint"):
        box = presenter.locator(f'[data-out="{name}"]').bounding_box()
        assert box["y"] >= video["y"] + video["height"] - 0.5, name
    assert presenter.locator('[data-out="step-text"]').is_hidden()
