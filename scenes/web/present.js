/* Presenter mode for a lecturer with a clicker: the lecture full screen, pausing at the end of
 * every narrated step.
 *
 * Keys: Space, →, PageDown play the next step (and go on into the next scene); ←, PageUp go back
 * a step; Home the first step, End the end; T shows or hides the step's text; C the captions, the
 * word being said lit (scenes/web/present-captions.js; ?captions=1 starts with them); F full screen; R
 * records the step on screen in the lecturer's voice, or stops recording (scenes/web/recorder.js).
 * State on #presenter: data-state (paused|playing), data-cursor (steps done, 0 … data-total),
 * data-scene (scene id), data-step (index of the current step within its scene), data-time (the
 * pause point, seconds in the current video).
 */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var deck = window.NORMGEO_DECK;
  var query = new URLSearchParams(location.search);
  var lang = ['en', 'zh', 'ru'].indexOf(query.get('lang')) >= 0 ? query.get('lang') : document.documentElement.lang || 'en';
  var t = function (key, vars) { return NG.t(lang, key, vars); };
  var root = document.getElementById('presenter');
  var video = document.getElementById('present-video');
  var titleNode = root.querySelector('[data-out="scene-title"]');
  var textNode = root.querySelector('[data-out="step-text"]');
  var statusNode = root.querySelector('[data-out="status"]');
  var hintNode = root.querySelector('[data-out="hint"]');
  var fallbackNode = root.querySelector('[data-out="fallback"]');
  var LANG_OF_FILE = /(?:^|\/)(?:video|lecture)\.(en|zh|ru)\.(?:dark|light)\./;  // the site's media names
  var theme = NG.effectiveTheme();
  if (query.get('text') === '1') textNode.hidden = false;
  var captions = window.NormGeoCaptions(root.querySelector('[data-out="captions"]'), video);
  var cuesOf = {};         // video file → its cues [start, end, text, shift]
  var posterOf = {};       // video file → its poster (never a blank box before Space)
  root.setAttribute('data-captions', query.get('captions') === '1' ? 'on' : 'off');

  // a single-file deck (normgeo slides --format html) carries its videos inside it, as data: URIs
  // in window.NORMGEO_MEDIA (the site's address → the URI): each is played from a blob made once
  var inside = window.NORMGEO_MEDIA || {};
  var blobs = {};
  function playable(src) {
    var uri = inside[src];
    if (!uri) return src;
    if (!blobs[src]) {
      var comma = uri.indexOf(','), bytes = atob(uri.slice(comma + 1)), data = new Uint8Array(bytes.length);
      for (var i = 0; i < bytes.length; i++) data[i] = bytes.charCodeAt(i);
      blobs[src] = URL.createObjectURL(new Blob([data], { type: uri.slice(5, uri.indexOf(';')) }));
    }
    return blobs[src];
  }

  // ---- the steps, in lecture order: each plays [from, to] of one video
  var steps = [];
  var lecture = (deck.lectures[lang] || {})[theme] || (deck.lectures[lang] || {})[theme === 'dark' ? 'light' : 'dark'];
  deck.scenes.forEach(function (scene, sceneIndex) {
    var own = scene.video[lang] || {};
    var src = own[theme] || own.dark || own.light;
    var posters = (scene.poster || {})[lang] || {};
    var poster = own[theme] ? posters[theme] : own.dark ? posters.dark : posters.light;
    var offset = 0;
    if (lecture && lecture.chapters[sceneIndex]) {
      src = lecture.video; offset = lecture.chapters[sceneIndex][0]; poster = lecture.poster;
    }
    if (!src) return;
    src = playable(src);
    if (poster && !posterOf[src]) posterOf[src] = playable(poster);
    cuesOf[src] = (cuesOf[src] || []).concat(((scene.cues || {})[lang] || []).map(function (cue) { return cue.concat([offset]); }));
    var list = scene.steps[lang] || [];
    var textLang = (scene.steps_lang || {})[lang] || lang;  // the language the steps' text is in
    list.forEach(function (step, i) {
      steps.push({
        scene: scene.id, title: scene.titles[lang], index: i, src: src,
        from: i === 0 ? offset : offset + list[i - 1][1], to: offset + step[1], text: step[2],
        key: step[3] || '', lang: textLang,
      });
    });
  });
  root.setAttribute('data-total', String(steps.length));
  var recorder = window.NormGeoRecorder ? window.NormGeoRecorder(root, video, lang, steps) : null;

  // a language with nothing rendered plays another language's videos (and its text): say which
  var shownLangs = {};
  steps.forEach(function (step) { var m = LANG_OF_FILE.exec(step.src); if (m && m[1] !== lang) shownLangs[m[1]] = true; });
  var others = Object.keys(shownLangs);
  if (others.length) {
    fallbackNode.textContent = t('present.fallback', { language: others.map(function (code) { return NG.t(code, 'page.lang-name'); }).join(', ') });
    fallbackNode.hidden = false;
  }
  root.setAttribute('data-shown-langs', others.join(' '));

  var cursor = 0;          // steps completed; the next Space plays steps[cursor]
  var playing = false;
  var target = null;       // the time to pause at while playing
  var pending = null;      // a seek waiting for a new source to load

  function show(src, time, then) {
    if (video.getAttribute('src') !== src) {
      if (posterOf[src]) video.setAttribute('poster', posterOf[src]); else video.removeAttribute('poster');
      video.setAttribute('src', src);
      captions.set(cuesOf[src] || []);
      pending = function () { video.currentTime = time; if (then) then(); };
      video.addEventListener('loadedmetadata', function once() {
        video.removeEventListener('loadedmetadata', once);
        var go = pending; pending = null; if (go) go();
      });
      video.load();
    } else if (pending) {
      pending = function () { video.currentTime = time; if (then) then(); };
    } else {
      video.currentTime = time;
      if (then) then();
    }
  }

  function render() {
    var current = steps[Math.min(cursor, steps.length - 1)];
    var shown = playing ? steps[cursor] : (cursor > 0 ? steps[cursor - 1] : steps[0]);
    root.setAttribute('data-state', playing ? 'playing' : 'paused');
    root.setAttribute('data-cursor', String(cursor));
    if (!shown) { statusNode.textContent = t('present.empty'); return; }
    root.setAttribute('data-scene', (playing ? current : shown).scene);
    root.setAttribute('data-step', String((playing ? current : shown).index));
    titleNode.textContent = shown.title;
    textNode.textContent = shown.text;
    statusNode.textContent = t('present.status', { done: playing ? cursor + 1 : Math.max(cursor, 1), total: steps.length });
    if (recorder) recorder.show(shown);
  }

  function pauseAt(time) {
    video.pause();
    playing = false;
    target = null;
    if (Math.abs(video.currentTime - time) > 1e-3) video.currentTime = time;
    root.setAttribute('data-time', String(time));
    render();
  }

  function watch() {
    if (!playing || target === null) return;
    if (video.currentTime >= target - 0.02 || video.ended) {
      cursor += 1;
      pauseAt(target);
      return;
    }
    requestAnimationFrame(watch);
  }

  function next() {
    if (cursor >= steps.length) return;
    if (playing) { // a click while playing: finish this step now and go straight on
      cursor += 1;
      if (cursor >= steps.length) { pauseAt(steps[steps.length - 1].to); return; }
    }
    var step = steps[cursor];
    playing = true;
    target = step.to;
    render();
    var start = function () {
      var promise = video.play();
      if (promise && promise.catch) promise.catch(function () { playing = false; render(); });
      requestAnimationFrame(watch);
    };
    var here = video.getAttribute('src') === step.src && !pending;
    if (here && video.currentTime >= step.from - 0.05 && video.currentTime < step.to) start();
    else show(step.src, step.from, start);
  }

  function goTo(newCursor) {
    cursor = Math.max(0, Math.min(steps.length, newCursor));
    playing = false;
    target = null;
    video.pause();
    var time, src;
    if (cursor === 0) { src = steps[0].src; time = steps[0].from; }
    else { src = steps[cursor - 1].src; time = steps[cursor - 1].to; }
    root.setAttribute('data-time', String(time));
    render();
    show(src, time);
  }

  function back() {
    // while playing: back to the start of this step; paused: to the start of the previous step
    if (playing) goTo(cursor); else goTo(cursor - 1);
  }

  function fullScreen() {
    if (document.fullscreenElement || !root.requestFullscreen) return;
    root.requestFullscreen().catch(function () { /* refused: keep the window */ });
  }

  document.addEventListener('keydown', function (event) {  // the hint stays in the bar below the picture
    if (event.altKey || event.ctrlKey || event.metaKey || !steps.length) return;
    var key = event.key;
    // Space or Enter on a focused button (reached with Tab) presses that button
    if ((key === ' ' || key === 'Enter') && event.target && event.target.tagName === 'BUTTON') return;
    if (key === ' ' || key === 'Spacebar' || key === 'ArrowRight' || key === 'PageDown') { next(); }
    else if (key === 'ArrowLeft' || key === 'PageUp') { back(); }
    else if (key === 'Home') { goTo(0); }
    else if (key === 'End') { goTo(steps.length); }
    else if (key === 't' || key === 'T') { textNode.hidden = !textNode.hidden; }
    else if (key === 'c' || key === 'C') { root.setAttribute('data-captions', root.getAttribute('data-captions') === 'on' ? 'off' : 'on'); }
    else if (key === 'f' || key === 'F') { fullScreen(); }
    else if ((key === 'r' || key === 'R') && recorder) { recorder.toggle(); }
    else return;
    event.preventDefault();
  });
  video.addEventListener('click', function () { next(); });

  hintNode.textContent = t('present.hint');
  document.documentElement.lang = lang;
  document.title = t('present.title');
  document.getElementById('present-title').textContent = t('present.title');
  if (steps.length) { goTo(0); } else render();
  root.focus();
})();
