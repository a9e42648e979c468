"""The page: built atomically, opens from file:// with no error and no request, in every language and
theme, with video, subtitles (TextTrack API), narration, still, GIF, embed snippets and live widgets."""

from __future__ import annotations

import shutil

import pytest
from babel import Locale

from scenes.render import site as site_module
from scenes.kit.numbers import BABEL_LOCALES
from scenes.kit.text import fill, placeholders, plural_forms
from scenes.render.site import WIDGET_FOR_SCENE, SiteMedia, SiteScene, build_site, inline_math
from tests.site.conftest import NARRATION, SCENE_IDS, axe_violations, make_scenes


def test_report_and_files(tmp_path, media_dir):
    report = build_site(make_scenes(media_dir), tmp_path / "site")
    assert report.scenes == len(SCENE_IDS)
    assert report.media_files == len(SCENE_IDS) * 3 * 2 * 4
    assert report.media_bytes == sum(p.stat().st_size for p in (tmp_path / "site" / "media").rglob("*") if p.is_file())
    for name in ("index.html", "index.en.html", "index.zh.html", "index.ru.html", "present.html",
                 "widgets/grid.html", "widgets/vector-2d.html", "widgets/layernorm-3d.html", "widgets/conditioning.html"):
        assert (tmp_path / "site" / name).is_file(), name
    assert report.page_bytes <= 1.5e6
    # hard links where the file system allows: same inode, no copy
    placed = tmp_path / "site" / "media" / "conditioning" / "video.en.dark.mp4"
    assert placed.stat().st_ino == (media_dir / "dark.mp4").stat().st_ino


def test_a_failed_build_leaves_the_earlier_site_intact(tmp_path, media_dir, monkeypatch):
    out = tmp_path / "site"
    build_site(make_scenes(media_dir), out)
    before = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    index = (out / "index.html").read_text(encoding="utf-8")

    def broken():
        raise RuntimeError("typst failed")

    monkeypatch.setattr(site_module, "formula_svgs", broken)
    with pytest.raises(RuntimeError, match="typst failed"):
        build_site(make_scenes(media_dir), out)
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == before
    assert (out / "index.html").read_text(encoding="utf-8") == index
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no staging folder left behind
    missing = make_scenes(media_dir)[:1]
    missing[0].media.append(SiteMedia("gif", "en", "dark", tmp_path / "nope.gif", 0, None, None))
    with pytest.raises(FileNotFoundError):
        build_site(missing, out)
    assert (out / "index.html").read_text(encoding="utf-8") == index


def test_widget_mapping_and_titles():
    assert WIDGET_FOR_SCENE == {
        "normalization-axes": "grid", "unified-formula": "grid", "sphere-radii": "vector-2d",
        "layernorm-2d": "vector-2d", "layernorm-hyperplane": "layernorm-3d", "conditioning": "conditioning",
        "real-states-rmsnorm": "states",
    }
    assert inline_math("Какие ячейки делят $mu$ и $sigma$") == "Какие ячейки делят μ и σ"


@pytest.mark.parametrize(("lang", "scheme"), [("en", "dark"), ("zh", "light"), ("ru", "dark")])
def test_page_in_every_language(open_page, site, lang, scheme):
    page = open_page(site / f"index.{lang}.html", color_scheme=scheme)
    assert page.evaluate("document.documentElement.lang") == lang
    sections = page.locator("section.ng-scene")
    assert sections.count() == len(SCENE_IDS)
    assert [s.get_attribute("data-scene") for s in sections.all()] == SCENE_IDS  # lecture order
    axes = page.locator("#normalization-axes h2").inner_text()
    assert "μ" in axes and "σ" in axes and "$" not in axes
    first = page.locator("#radial-projection")
    assert first.locator(".ng-narration li span").all_inner_texts() == NARRATION[lang]
    video = first.locator("video")
    assert video.get_attribute("src").endswith(f".{scheme}.mp4")
    assert first.locator(".ng-still img").get_attribute("src").endswith(f"still.{lang}.{scheme}.png")
    gif_snippet = first.locator('.ng-snippet[data-snippet="gif"] textarea').input_value()
    assert gif_snippet.startswith('<img src="media/radial-projection/gif.') and 'width="96"' in gif_snippet
    # every widget mounted where it belongs, with its embed snippet in this language and theme
    for scene_id, widget in (("normalization-axes", "grid"), ("sphere-radii", "vector-2d"),
                             ("layernorm-hyperplane", "layernorm-3d"), ("conditioning", "conditioning")):
        assert page.locator(f'#{scene_id} [data-widget="{widget}"] [data-control]').count() > 0
        snippet = page.locator(f"#{scene_id} .ng-snippet[data-snippet=widget] textarea").input_value()
        assert f'src="widgets/{widget}.html?lang={lang}&amp;theme={scheme}"' in snippet
    text = page.locator("main").inner_text()
    assert "NaN" not in text and "undefined" not in text


def test_subtitles_work_from_file_urls(open_page, site):
    page = open_page(site / "index.ru.html")
    cues = page.evaluate(
        """async () => {
      const video = document.querySelector('#radial-projection video');
      if (video.readyState < 1) await new Promise((ok) => video.addEventListener('loadedmetadata', ok, {once: true}));
      const track = video.textTracks[0];
      video.currentTime = 0.9;
      await new Promise((ok) => video.addEventListener('seeked', ok, {once: true}));
      await new Promise((ok) => setTimeout(ok, 100));
      return {mode: track.mode, lang: track.language, all: [...track.cues].map((c) => [c.startTime, c.endTime, c.text]),
              active: [...track.activeCues].map((c) => c.text), duration: video.duration};
    }"""
    )
    assert cues["mode"] == "showing" and cues["lang"] == "ru"
    assert [c[2] for c in cues["all"]] == NARRATION["ru"]
    assert cues["active"] == [NARRATION["ru"][1]]
    assert abs(cues["duration"] - 2.0) < 0.1  # the video itself decodes from file://


def test_theme_switch_swaps_media_and_persists(open_page, site):
    page = open_page(site / "index.html", color_scheme="light")
    video = page.locator("#conditioning video")
    assert video.get_attribute("src").endswith(".light.mp4")
    button = page.locator("[data-theme-button]")
    button.click()  # system → dark
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert video.get_attribute("src").endswith(".dark.mp4")
    assert "theme=dark" in page.locator("#conditioning .ng-snippet[data-snippet=widget] textarea").input_value()
    page.locator('[data-lang-link="zh"]').click()
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.lang") == "zh"
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.locator("#conditioning video").get_attribute("src").endswith(".dark.mp4")


def test_a_widget_embedded_alone_in_a_blog_post(open_page, site, tmp_path):
    """The snippet, pasted into a page next to the site folder, shows the widget in the asked language."""
    snippet = '<iframe src="site/widgets/grid.html?lang=zh&amp;theme=dark" title="grid" width="760" height="700"></iframe>'
    post = site.parent / "post.html"
    post.write_text(f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>post</title></head><body>{snippet}</body></html>", encoding="utf-8")
    page = open_page(post)
    frame = page.frame_locator("iframe")
    assert frame.locator('button[data-layer="none"]').inner_text() == "不做归一化"
    frame.locator('button[data-layer="layernorm"]').click()
    assert frame.locator('[data-out-row="0"][data-out-col="0"]').get_attribute("data-value") is not None
    assert page.frames[1].evaluate("document.documentElement.dataset.theme") == "dark"


@pytest.mark.parametrize("widget", ["grid", "vector-2d", "layernorm-3d", "conditioning", "states"])
def test_a_widget_page_copied_alone_next_to_a_post_works_with_nothing_beside_it(open_page, site, tmp_path, widget):
    """The blogger's path without the site folder: widgets/<name>.html copied alone into the post's
    folder (no assets/, no site) and framed by the post shows the widget, styled, in the asked
    language and theme; no request leaves the two files, no console error."""
    blog = tmp_path / "blog"
    blog.mkdir()
    shutil.copyfile(site / "widgets" / f"{widget}.html", blog / f"{widget}.html")
    post = blog / "post.html"
    post.write_text("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>post</title></head><body>"
                    f"<iframe src='{widget}.html?lang=ru&amp;theme=dark' title='w' width='760' height='700'></iframe>"
                    "</body></html>", encoding="utf-8")
    page = open_page(post)
    frame = page.frames[1]
    frame.wait_for_selector(f'[data-widget="{widget}"] *')
    assert frame.evaluate("document.documentElement.lang") == "ru"
    assert frame.evaluate("document.documentElement.dataset.theme") == "dark"
    assert frame.evaluate("getComputedStyle(document.body).backgroundColor") not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)")
    assert frame.locator(f'[data-widget="{widget}"]').inner_text().strip()
    assert sorted(p.name for p in blog.iterdir()) == sorted(["post.html", f"{widget}.html"])


def test_a_gif_and_a_still_copied_next_to_a_post_show_with_the_readme_snippet(open_page, site, tmp_path):
    """The README's way to put a still and a GIF in a post: copy the files next to it, then
    <img src="NAME" width height alt>; both decode in Chromium at their size."""
    blog = tmp_path / "blog"
    blog.mkdir()
    gif = next((site / "media").rglob("*.gif"))
    still = next((site / "media").rglob("*.png"))
    shutil.copyfile(gif, blog / "layernorm.gif")
    shutil.copyfile(still, blog / "layernorm.png")
    post = blog / "post.html"
    post.write_text("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>post</title></head><body>"
                    '<img src="layernorm.png" width="192" height="108" alt="still">'
                    '<img src="layernorm.gif" width="96" height="54" alt="animation" loading="lazy">'
                    "</body></html>", encoding="utf-8")
    page = open_page(post)
    page.wait_for_function("Array.from(document.images).every(i => i.complete)")
    assert page.evaluate("Array.from(document.images).map(i => [i.naturalWidth, i.naturalHeight])") == [[192, 108], [96, 54]]


@pytest.mark.parametrize(("lang", "scheme"), [("en", "light"), ("zh", "dark"), ("ru", "light")])
def test_page_accessibility(open_page, site, lang, scheme):
    page = open_page(site / f"index.{lang}.html", color_scheme=scheme)
    assert axe_violations(page) == []


def test_ui_text_is_complete_in_every_language():
    """Every key in every language with the same placeholders, written as the scenes' text is (the
    kit's parser accepts it), each plural giving every CLDR category of its language (Babel)."""
    text = site_module.ui_text()
    for key, entry in text.items():
        assert set(entry) == {"en", "zh", "ru"}, key
        for lang in ("en", "zh", "ru"):
            names = placeholders(entry[lang])  # raises TextError when malformed
            assert names == placeholders(entry["en"]), (key, lang)
            needed = set(Locale.parse(BABEL_LOCALES[lang]).plural_form.tags) | {"other"}
            for selector, categories in plural_forms(entry[lang]).items():
                assert categories == needed, (key, lang, selector, categories ^ needed)
    assert "нормализации" in text["layer.none"]["ru"] and "归一化" in text["layer.none"]["zh"]


@pytest.mark.parametrize(("lang", "n", "expected"), [
    ("en", 1, "raw features: 1 step"), ("en", 30, "raw features: 30 steps"), ("ru", 1, "исходные признаки: 1 шаг"),
    ("ru", 3, "исходные признаки: 3 шага"), ("ru", 30, "исходные признаки: 30 шагов"), ("ru", 21, "исходные признаки: 21 шаг"),
    ("ru", "5,7", "исходные признаки: 5,7 шага"), ("zh", 30, "原始特征：30 步"),
])
def test_plurals_in_the_browser_are_the_kits(open_page, site, lang, n, expected):
    """NormGeo.t fills a plural as scenes.kit.text.fill does (Intl.PluralRules against Babel)."""
    page = open_page(site / "widgets" / "conditioning.html")
    shown = page.evaluate("([lang, n]) => NormGeo.t(lang, 'cond.legend.raw', {n: n})", [lang, n])
    assert shown == expected == fill(site_module.ui_text()["cond.legend.raw"][lang], lang, {"n": n})


def test_lang_query_opens_that_language(open_page, site):
    page = open_page(site / "index.html", query="?lang=zh&theme=light")
    page.wait_for_url("**/index.zh.html*")
    assert page.evaluate("document.documentElement.lang") == "zh"
    assert page.evaluate("document.documentElement.dataset.theme") == "light"


def test_two_grids_on_one_page_work_independently(open_page, site):
    page = open_page(site / "index.en.html")
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map((n) => n.id)")
    assert len(ids) == len(set(ids))
    first, second = page.locator('#unified-formula [data-widget="grid"]'), page.locator('#normalization-axes [data-widget="grid"]')
    first.locator('button[data-layer="batchnorm"]').click()
    second.locator('button[data-layer="layernorm"]').click()
    assert first.get_attribute("data-layer") == "batchnorm" and second.get_attribute("data-layer") == "layernorm"
    # the formula's glyphs resolve inside each grid's own SVG
    for grid in (first, second):
        href = grid.locator("svg use").first.get_attribute("xlink:href") or grid.locator("svg use").first.get_attribute("href")
        assert grid.locator(f"svg symbol[id='{href[1:]}']").count() == 1


def test_cues_from_vtt_and_srt(tmp_path):
    vtt = tmp_path / "a.vtt"
    vtt.write_text("WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.500 line:90%\nFirst <b>step</b>\n\n00:01:02.250 --> 00:01:03.000\nμ &amp; σ\ntwo lines\n", encoding="utf-8")
    srt = tmp_path / "a.srt"
    srt.write_text("1\r\n00:00:00,000 --> 00:00:01,500\r\nFirst step\r\n\r\n2\r\n00:01:02,250 --> 00:01:03,000\r\nμ & σ\r\n", encoding="utf-8")
    assert site_module.read_cues(vtt) == [(0.0, 1.5, "First step"), (62.25, 63.0, "μ & σ\ntwo lines")]
    assert site_module.read_cues(srt) == [(0.0, 1.5, "First step"), (62.25, 63.0, "μ & σ")]


def test_from_a_static_http_host(browser, site):
    """Served by any static server the page asks that server only, and its snippets carry absolute URLs."""
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context()
    try:
        page = context.new_page()
        errors, foreign = [], []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: None if r.url.startswith((base, "data:", "blob:")) else foreign.append(r.url))
        page.goto(base + "index.ru.html")
        page.wait_for_load_state("load")
        snippet = page.locator("#conditioning .ng-snippet[data-snippet=widget] textarea").input_value()
        assert f'src="{base}widgets/conditioning.html?lang=ru' in snippet
        assert page.locator('#conditioning [data-out="kappa-raw"]').get_attribute("data-value")
        assert not errors and not foreign, (errors, foreign)
    finally:
        context.close()
        server.shutdown()


def test_presenter_accessibility(open_page, site):
    page = open_page(site / "present.html", query="?lang=zh")
    assert page.title() == "normgeo：演讲模式"
    assert axe_violations(page) == []


def _only(media_dir, lang=None, theme=None, ids=("radial-projection", "conditioning")):
    """Scenes whose media exist in one language and/or one theme only."""
    scenes = make_scenes(media_dir, ids=list(ids))
    return [SiteScene(s.id, s.titles, s.descriptions, s.steps,
                      [m for m in s.media if (lang is None or m.lang == lang) and (theme is None or m.theme == theme)], s.widget)
            for s in scenes]


def test_a_scene_shown_in_another_language_says_so_with_the_command_as_code(open_page, media_dir, tmp_path):
    out = tmp_path / "site"
    build_site(_only(media_dir, lang="ru"), out)
    page = open_page(out / "index.en.html")
    note = page.locator("#radial-projection .ng-other-language").first
    assert "Русский" in note.inner_text() and "`" not in note.inner_text()
    assert note.locator("code").inner_text() == "normgeo render radial-projection --lang en --theme dark,light"
    zh = open_page(out / "index.zh.html").locator("#radial-projection .ng-other-language").first
    assert zh.locator("code").inner_text() == "normgeo render radial-projection --lang zh --theme dark,light"
    assert "`" not in zh.inner_text()


def test_each_figure_says_truly_which_language_it_shows(open_page, media_dir, tmp_path):
    """The video rendered in English, the still in Chinese (light theme only), the GIF in Russian:
    the English page says nothing about the video and, under the still and under the animation,
    which language each shows, with the command that adds that kind in English in both themes
    (never one for what is already there), and no second note about the theme."""
    video = [SiteMedia("video", "en", theme, media_dir / f"{theme}.mp4", 1, 192, 108) for theme in ("dark", "light")]
    still = SiteMedia("still", "zh", "light", media_dir / "light.png", 1, 192, 108)
    animation = SiteMedia("gif", "ru", "dark", media_dir / "anim.gif", 1, 96, 54)
    scene = SiteScene("radial-projection", {"en": "T"}, {"en": ""}, {}, [*video, still, animation])
    build_site([scene], tmp_path / "site")
    page = open_page(tmp_path / "site" / "index.html")
    assert page.locator("#radial-projection .ng-video .ng-other-language").count() == 0
    still_note = page.locator("#radial-projection .ng-still .ng-other-language")
    assert "This still has not been rendered in English yet; shown here in 中文." in still_note.inner_text()
    assert still_note.locator("code").inner_text() == "normgeo still radial-projection --lang en --theme dark,light"
    assert page.locator("#radial-projection .ng-still .ng-theme-only").count() == 0  # that command adds both themes
    gif_note = page.locator("#radial-projection .ng-gif .ng-other-language")
    assert "shown here in Русский" in gif_note.inner_text()
    command = "normgeo gif radial-projection --width 96 --lang en --theme dark,light"
    assert gif_note.locator("code").inner_text() == command
    assert "This scene" not in page.inner_text("#radial-projection")
    russian = open_page(tmp_path / "site" / "index.ru.html")
    assert russian.locator("#radial-projection .ng-gif .ng-other-language").count() == 0
    assert "Это видео ещё не отрендерено на русском" in russian.inner_text("#radial-projection .ng-video")


@pytest.mark.parametrize(("lang", "words"), [("en", "dark theme only"), ("zh", "只渲染了深色主题"), ("ru", "только в тёмной теме")])
def test_the_light_page_says_when_it_plays_a_dark_video(open_page, media_dir, tmp_path, lang, words):
    """A scene rendered in the dark theme only plays its dark video and shows its dark still and GIF
    on the light page: a visible note under each says so (and how to add the light one); the dark
    page has no such note."""
    out = tmp_path / "site"
    build_site(_only(media_dir, theme="dark"), out)
    light = open_page(out / f"index.{lang}.html", query="?theme=light")
    note = light.locator("#conditioning .ng-video .ng-theme-only")
    assert light.locator("#conditioning video").get_attribute("src").endswith(".dark.mp4")
    assert note.is_visible() and words in note.inner_text()
    assert note.locator("code").inner_text() == "normgeo render conditioning --theme light"
    dark = open_page(out / f"index.{lang}.html", query="?theme=dark")
    assert not dark.locator("#conditioning .ng-video .ng-theme-only").is_visible()
    for figure, command in (("still", "normgeo still conditioning --theme light"),
                            ("gif", "normgeo gif conditioning --width 96 --theme light")):
        figure_note = light.locator(f"#conditioning .ng-{figure} .ng-theme-only")
        assert figure_note.is_visible() and figure_note.locator("code").inner_text() == command
        assert not dark.locator(f"#conditioning .ng-{figure} .ng-theme-only").is_visible()


def test_no_theme_note_when_both_themes_exist(open_page, site):
    page = open_page(site / "index.en.html", query="?theme=light")
    assert page.locator(".ng-theme-only").count() == 0
