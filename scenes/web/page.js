/* The page: theme switch, media of the theme, subtitles through the TextTrack API (Chromium
 * refuses <track src> from file://), narration that follows the video, embed snippets, widgets. */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var lang = document.documentElement.lang || 'en';
  var t = function (key, vars) { return NG.t(lang, key, vars); };
  var KEY = 'normgeo-theme';

  function stored() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
  function store(value) { try { if (value) localStorage.setItem(KEY, value); else localStorage.removeItem(KEY); } catch (e) { /* private mode */ } }

  function siteBase() {
    // absolute address of the site folder when served over http(s); relative otherwise
    if (/^https?:$/.test(location.protocol)) return location.href.replace(/[^/]*([?#].*)?$/, '');
    return '';
  }

  function applyMedia() {
    var theme = NG.effectiveTheme();
    Array.prototype.forEach.call(document.querySelectorAll('[data-src-' + theme + ']'), function (node) {
      var src = node.getAttribute('data-src-' + theme);
      if (!src || node.classList.contains('ng-snippet')) return;
      if (node.getAttribute('src') !== src) {
        if (node.tagName === 'VIDEO') {
          var time = node.currentTime, paused = node.paused;
          node.setAttribute('src', src);
          if (time) node.addEventListener('loadedmetadata', function once() { node.removeEventListener('loadedmetadata', once); node.currentTime = time; if (!paused) node.play(); });
        } else node.setAttribute('src', src);
      }
      var poster = node.getAttribute('data-poster-' + theme);
      if (poster) node.setAttribute('poster', poster);
    });
    Array.prototype.forEach.call(document.querySelectorAll('[data-href-' + theme + ']'), function (node) {
      var href = node.getAttribute('data-href-' + theme);
      if (href) node.setAttribute('href', href);
    });
    // a video rendered in one theme only plays in both: say so on the other theme's page
    Array.prototype.forEach.call(document.querySelectorAll('[data-only-theme]'), function (note) {
      note.hidden = note.getAttribute('data-only-theme') === theme;
    });
    writeSnippets(theme);
  }

  function writeSnippets(theme) {
    var base = siteBase();
    Array.prototype.forEach.call(document.querySelectorAll('.ng-snippet'), function (box) {
      var area = box.querySelector('textarea');
      var width = box.getAttribute('data-width'), height = box.getAttribute('data-height');
      var size = width ? ' width="' + width + '" height="' + height + '"' : '';
      var text;
      var kind = box.getAttribute('data-snippet');
      var src = box.getAttribute('data-src-' + theme) || box.getAttribute('data-src-dark') || box.getAttribute('data-src-light');
      if (kind === 'gif') {
        text = '<img src="' + base + src + '" alt="' + escapeAttr(box.getAttribute('data-alt')) + '"' + size + ' loading="lazy">';
      } else if (kind === 'loop') {
        text = '<video src="' + base + src + '" autoplay muted loop playsinline aria-label="' +
          escapeAttr(box.getAttribute('data-alt')) + '"' + size + '></video>';
      } else {
        var name = box.getAttribute('data-widget-name');
        text = '<iframe src="' + base + 'widgets/' + name + '.html?lang=' + lang + '&amp;theme=' + theme + '" title="' +
          escapeAttr(box.getAttribute('data-title')) + '"' + size + ' style="border:0;max-width:100%" loading="lazy"></iframe>';
      }
      area.value = text;
    });
  }

  function escapeAttr(text) { return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;'); }

  function themeLabel() {
    var set = document.documentElement.getAttribute('data-theme');
    return t('page.theme-' + (set || 'auto'));
  }

  function setupTheme() {
    var button = document.querySelector('[data-theme-button]');
    var order = [null, 'dark', 'light'];
    var initial = new URLSearchParams(location.search).get('theme');
    NG.applyTheme(initial === 'dark' || initial === 'light' ? initial : stored());
    button.textContent = themeLabel();
    button.addEventListener('click', function () {
      var now = document.documentElement.getAttribute('data-theme');
      var next = order[(order.indexOf(now) + 1) % order.length];
      NG.applyTheme(next);
      store(next);
      button.textContent = themeLabel();
      applyMedia();
    });
    if (window.matchMedia) {
      var query = window.matchMedia('(prefers-color-scheme: dark)');
      if (query.addEventListener) query.addEventListener('change', applyMedia);
    }
    // keep the theme when switching language
    Array.prototype.forEach.call(document.querySelectorAll('[data-lang-link]'), function (link) {
      link.addEventListener('click', function () { store(document.documentElement.getAttribute('data-theme')); });
    });
  }

  function setupVideos() {
    Array.prototype.forEach.call(document.querySelectorAll('.ng-scene'), function (section) {
      var video = section.querySelector('video');
      if (!video) return;
      var data = section.querySelector('script.ng-cues');
      if (data && typeof VTTCue !== 'undefined') {
        var cues = JSON.parse(data.textContent);
        var track = video.addTextTrack('subtitles', data.getAttribute('data-label'), data.getAttribute('data-lang'));
        cues.forEach(function (cue) { track.addCue(new VTTCue(cue[0], cue[1], cue[2])); });
        track.mode = 'showing';
      }
      var items = section.querySelectorAll('.ng-narration li');
      video.addEventListener('timeupdate', function () {
        var now = video.currentTime;
        Array.prototype.forEach.call(items, function (li) {
          var on = now >= parseFloat(li.getAttribute('data-start')) && now < parseFloat(li.getAttribute('data-end'));
          li.classList.toggle('ng-current', on);
        });
      });
      Array.prototype.forEach.call(section.querySelectorAll('.ng-seek'), function (button) {
        button.addEventListener('click', function () {
          video.currentTime = parseFloat(button.getAttribute('data-time'));
          video.play();
        });
      });
    });
  }

  function setupCopy() {
    Array.prototype.forEach.call(document.querySelectorAll('.ng-copy'), function (button) {
      button.addEventListener('click', function () {
        var area = button.parentNode.querySelector('textarea');
        area.focus();
        area.select();
        var done = function () { button.textContent = t('page.copied'); setTimeout(function () { button.textContent = t('page.copy'); }, 1500); };
        if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(area.value).then(done, function () { document.execCommand('copy'); done(); });
        else { document.execCommand('copy'); done(); }
      });
    });
  }

  setupTheme();
  setupVideos();
  applyMedia();
  setupCopy();
  NG.mountAll(document, { lang: lang, theme: null });
})();
