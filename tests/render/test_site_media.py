"""The site's media per language and theme, and a poster for every video (the built HTML is read;
the page's behaviour in a browser is tested in tests/site)."""

import re
from fractions import Fraction

import av
import numpy as np
from PIL import Image

from scenes.render.site import SiteMedia, SiteScene, build_site
from scenes.render.site.placing import Placed
from scenes.render.site.views import scene_view
from scenes.render.site.pages import _words
from scenes.render.site.words import ui_text


def gif(path, colour, frames=3, size=(64, 36)):
    images = [Image.new("RGB", size, colour) for _ in range(frames)]
    images[0].save(path, save_all=True, append_images=images[1:], duration=100, loop=0)
    return SiteMedia("gif", path.name.split(".")[1], "dark", path, path.stat().st_size, *size)


def video(path, last_colour, seconds=2, size=(64, 36), fps=10, kind="video"):
    """A real H.264 file, black but for its last frame (``last_colour``)."""
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = *size, "yuv420p"
        stream.time_base = Fraction(1, fps)
        count = seconds * fps
        for i in range(count):
            pixels = np.full((size[1], size[0], 3), last_colour if i == count - 1 else 0, dtype=np.uint8)
            frame = av.VideoFrame.from_ndarray(pixels, format="rgb24")
            frame.pts = i
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    lang, theme = path.name.split(".")[1:3]
    return SiteMedia(kind, lang, theme, path, path.stat().st_size, *size)


def scene(media):
    return SiteScene("scale-invariance", {"en": "T", "zh": "T", "ru": "T"}, {"en": ""}, {}, media)


def test_each_language_shows_its_own_animation_with_its_own_size(tmp_path):
    """GIFs in ru and zh, a looping MP4 in zh only: the Russian page shows the Russian GIF with its
    size, no note about another language, and no Chinese loop in its snippet or links."""
    ru = gif(tmp_path / "a.ru.dark.gif", (200, 0, 0), frames=8)
    zh = gif(tmp_path / "a.zh.dark.gif", (0, 200, 0), frames=2)
    loop = video(tmp_path / "a.zh.dark.loop.mp4", (0, 0, 200), kind="loop")
    site = tmp_path / "site"
    build_site([scene([zh, loop, ru])], site)
    page = (site / "index.ru.html").read_text(encoding="utf-8")
    assert "gif.ru.dark.gif" in page and "gif.zh." not in page and "loop.zh." not in page
    assert "ng-other-language" not in page
    assert "data-snippet=\"loop\"" not in page
    size = ru.size_bytes / 1000
    assert f"{size:.1f}".replace(".", ",").rstrip("0").rstrip(",") in page
    chinese = (site / "index.zh.html").read_text(encoding="utf-8")
    assert "gif.zh.dark.gif" in chinese and "loop.zh.dark" in chinese and "gif.ru." not in chinese
    english = (site / "index.en.html").read_text(encoding="utf-8")  # no English: one other language, whole
    shown = set(re.findall(r"media/scale-invariance/\w+\.(\w\w)\.", english))
    assert len(shown) == 1 and "ng-other-language" in english


def test_the_page_data_says_a_still_and_a_gif_were_rendered_in_one_theme(tmp_path):
    still_path = tmp_path / "s.en.dark.png"
    Image.new("RGB", (64, 36), (9, 9, 9)).save(still_path)
    still = SiteMedia("still", "en", "dark", still_path, still_path.stat().st_size, 64, 36)
    animation = gif(tmp_path / "a.en.dark.gif", (200, 0, 0))
    item = scene([still, animation])
    placed = Placed(files={(item.id, 0): "still.png", (item.id, 1): "anim.gif"})
    view = scene_view(item, "en", "en", placed, _words(ui_text()))
    assert view["only_theme"] == {"still": "dark", "gif": "dark"}
    assert view["media"]["still"] == {"lang": "en", "themes": {"dark": "dark", "light": "dark"}}
    assert view["still"] == {"dark": "still.png", "light": "still.png"}


def test_a_still_and_a_gif_in_one_theme_carry_a_note_in_the_page_language(tmp_path):
    """A still and a GIF rendered in English in the dark theme only: each figure of the English page
    carries a note for the light page (page.js shows it there) with the command that adds the light
    one; the other languages' pages say instead, in their language, that the English files are
    shown and how to add theirs in both themes; a still rendered in both themes carries none."""
    still_path = tmp_path / "s.en.dark.png"
    Image.new("RGB", (64, 36), (9, 9, 9)).save(still_path)
    still = SiteMedia("still", "en", "dark", still_path, still_path.stat().st_size, 64, 36)
    animation = gif(tmp_path / "a.en.dark.gif", (200, 0, 0))
    site = tmp_path / "site"
    build_site([scene([still, animation])], site)
    page = (site / "index.en.html").read_text(encoding="utf-8")
    figures = dict(re.findall(r'<figure class="ng-(still|gif)">(.*?)</figure>', page, re.S))
    for figure, words, command in (
            ("still", "This still has been rendered in the dark theme only",
             "normgeo still scale-invariance --theme light"),
            ("gif", "This animation has been rendered in the dark theme only",
             "normgeo gif scale-invariance --width 64 --theme light")):
        note = re.search(r'<p class="ng-theme-only" role="note" data-only-theme="dark" hidden>(.*?)</p>',
                         figures[figure], re.S)
        assert note and words in note.group(1) and f"<code>{command}</code>" in note.group(1), figure
    # the Russian and Chinese pages show the English files: one note each, whose command adds both themes
    notes = {"ru": ("Этот кадр ещё не отрендерен на русском", "Эта анимация ещё не отрендерена на русском"),
             "zh": ("这张静帧还没有中文版本", "这个动画还没有中文版本")}
    for lang, (still_note, gif_note) in notes.items():
        page = (site / f"index.{lang}.html").read_text(encoding="utf-8")
        figures = dict(re.findall(r'<figure class="ng-(still|gif)">(.*?)</figure>', page, re.S))
        for figure, words, command in (
                ("still", still_note, f"normgeo still scale-invariance --lang {lang} --theme dark,light"),
                ("gif", gif_note, f"normgeo gif scale-invariance --width 64 --lang {lang} --theme dark,light")):
            note = re.search(r'<p class="ng-other-language" role="note">(.*?)</p>', figures[figure], re.S)
            assert note and words in note.group(1) and f"<code>{command}</code>" in note.group(1), (lang, figure)
            assert "ng-theme-only" not in figures[figure], (lang, figure)
    light = SiteMedia("still", "en", "light", still_path, still_path.stat().st_size, 64, 36)
    both = tmp_path / "both"
    build_site([scene([still, light])], both)
    assert "ng-theme-only" not in (both / "index.en.html").read_text(encoding="utf-8")


def test_every_video_has_a_poster_its_still_or_its_last_frame(tmp_path):
    with_still = video(tmp_path / "v.en.dark.mp4", (250, 250, 250))
    still_path = tmp_path / "s.en.dark.png"
    Image.new("RGB", (64, 36), (9, 9, 9)).save(still_path)
    still = SiteMedia("still", "en", "dark", still_path, still_path.stat().st_size, 64, 36)
    without = video(tmp_path / "v.en.light.mp4", (255, 0, 0))
    site = tmp_path / "site"
    build_site([scene([with_still, still, without])], site)
    page = (site / "index.en.html").read_text(encoding="utf-8")
    dark = re.search(r'data-poster-dark="([^"]+)"', page).group(1)
    light = re.search(r'data-poster-light="([^"]+)"', page).group(1)
    assert dark == "media/scale-invariance/still.en.dark.png"
    red = np.asarray(Image.open(site / light).convert("RGB")).reshape(-1, 3).mean(axis=0)
    assert red[0] > 200 and red[1] < 60 and red[2] < 60  # the video's last frame, not its black start
    assert re.search(r'<video controls[^>]*\sposter="media/', page)
