/* The presenter's recorder: the lecturer's own voice for each narrated step, through the browser's
 * microphone (getUserMedia + MediaRecorder), saved as the folder `normgeo render --voice
 * recordings:DIR` reads.
 *
 * For the step on screen: Record (R) starts, Stop (R again) ends it, Play listens to it, Record
 * again replaces it. While recording, the video is muted (its own sound stays out of the
 * microphone; the step may play on, to speak along with it) and the step's text is shown to read from. Each recording is decoded in the page and
 * kept as a 16-bit PCM WAV (MediaRecorder gives WebM/Opus in Chromium); "Save" downloads
 * recordings.zip, whose folder recordings/ holds <scene>/<step>.<lang>.wav, the step being the
 * `say.<step>` key of the scene's text file and lang the language of the text on screen.
 * The microphone is raw (no echo cancelling, noise suppression or automatic gain): the render
 * normalizes loudness itself.
 *
 * Without a microphone (refused, missing, or no MediaRecorder) the presenter works as before and
 * the recorder says so in one line.
 * State on #presenter: data-rec (idle|asking|recording|converting), data-rec-count (recordings
 * kept), data-rec-file (the file the step on screen records into, "" if none).
 */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var ZIP_FOLDER = 'recordings/';

  function canRecord() {
    return !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia && window.MediaRecorder &&
              (window.AudioContext || window.webkitAudioContext));
  }

  function problemKey(error) {
    var name = error && error.name;
    if (name === 'NotAllowedError' || name === 'SecurityError') return 'present.rec.denied';
    if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotReadableError') return 'present.rec.no-device';
    return 'present.rec.failed';
  }

  /** The recorder of the bar in ``root``; ``show(step)`` points it at the step on screen. */
  window.NormGeoRecorder = function (root, video, lang) {
    var t = function (key, vars) { return NG.t(lang, key, vars); };
    var box = root.querySelector('[data-out="recorder"]');
    var recordButton = box.querySelector('[data-act="record"]');
    var playButton = box.querySelector('[data-act="play"]');
    var saveButton = box.querySelector('[data-act="save"]');
    var fileNode = box.querySelector('[data-out="rec-file"]');
    var stateNode = box.querySelector('[data-out="rec-state"]');
    var countNode = box.querySelector('[data-out="rec-count"]');
    var messageNode = root.querySelector('[data-out="rec-message"]');
    var textNode = root.querySelector('[data-out="step-text"]');
    var audio = root.querySelector('[data-out="rec-audio"]');
    var saveLink = root.querySelector('[data-out="rec-save"]');
    var recordings = {};      // file path → {bytes, url, seconds}
    var total = 0;            // steps that have a key (can be recorded)
    var step = null;          // the step on screen
    var state = 'idle';
    var session = null;       // {recorder, stream, path, started, timer, textWasHidden}
    var context = null;
    var unsaved = false;      // recorded since the last save
    NG.lang = lang;

    box.querySelector('[data-out="rec-label"]').textContent = t('present.rec.label');
    playButton.textContent = t('present.rec.play');
    saveButton.textContent = t('present.rec.save');
    box.hidden = false;

    function pathOf(s) { return s && s.key ? s.scene + '/' + s.key + '.' + s.lang + '.wav' : ''; }
    function seconds(x) { return NG.fixed(x, 1); }

    function say(key, vars) {
      messageNode.textContent = key ? t(key, vars) : '';
      messageNode.hidden = !key;
    }

    function showFile(path) {  // the words around the path, the path as code
      if (!path) { fileNode.textContent = t('present.rec.no-key'); return; }
      var parts = t('present.rec.file', { path: '\u0000' }).split('\u0000');
      var code = document.createElement('code');
      code.textContent = path;
      fileNode.replaceChildren(parts[0], code, parts[1] || '');
    }

    function render() {
      var path = session ? session.path : pathOf(step);
      var kept = recordings[path];
      root.setAttribute('data-rec', state);
      root.setAttribute('data-rec-count', String(Object.keys(recordings).length));
      root.setAttribute('data-rec-file', path);
      recordButton.textContent = t(state === 'recording' ? 'present.rec.stop' : kept ? 'present.rec.again' : 'present.rec.record');
      recordButton.setAttribute('aria-pressed', state === 'recording' ? 'true' : 'false');
      recordButton.disabled = !path || state === 'asking' || state === 'converting';
      playButton.disabled = !kept || state !== 'idle';
      saveButton.disabled = !Object.keys(recordings).length || state !== 'idle';
      showFile(path);
      if (state === 'recording') stateNode.textContent = t('present.rec.recording', { seconds: seconds((performance.now() - session.started) / 1000) });
      else if (state === 'asking' || state === 'converting') stateNode.textContent = t('present.rec.wait');
      else stateNode.textContent = kept ? t('present.rec.length', { seconds: seconds(kept.seconds) }) : t('present.rec.none');
      countNode.textContent = t('present.rec.count', { done: Object.keys(recordings).length, total: total });
    }

    function start() {
      if (!canRecord()) { say('present.rec.unsupported'); return; }
      var path = pathOf(step);
      if (!path) return;
      audio.pause();
      state = 'asking';
      say(null);
      render();
      navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } })
        .then(function (stream) {
          var recorder = new MediaRecorder(stream);
          var parts = [];
          session = { recorder: recorder, stream: stream, path: path, started: performance.now(),
                      muted: video.muted, textWasHidden: textNode.hidden };
          recorder.addEventListener('dataavailable', function (event) { if (event.data.size) parts.push(event.data); });
          recorder.addEventListener('stop', function () { finish(new Blob(parts, { type: recorder.mimeType }), path); });
          video.muted = true;
          textNode.hidden = false;
          recorder.start();
          state = 'recording';
          session.timer = setInterval(render, 200);
          render();
        })
        .catch(function (error) {
          state = 'idle';
          say(problemKey(error), { reason: error && error.message ? error.message : String(error) });
          render();
        });
    }

    function stop() {
      if (!session || state !== 'recording') return;
      clearInterval(session.timer);
      state = 'converting';
      render();
      session.recorder.stop();
      session.stream.getTracks().forEach(function (track) { track.stop(); });
    }

    function finish(blob, path) {
      var ended = session;
      var restore = function () {
        video.muted = ended.muted;
        textNode.hidden = ended.textWasHidden;
        session = null;
        state = 'idle';
        render();
      };
      context = context || new (window.AudioContext || window.webkitAudioContext)();
      blob.arrayBuffer()
        .then(function (bytes) { return context.decodeAudioData(bytes); })
        .then(function (buffer) {
          var channels = [];
          for (var c = 0; c < buffer.numberOfChannels; c++) channels.push(buffer.getChannelData(c));
          var bytes = window.NormGeoFiles.wav(channels, buffer.sampleRate);
          if (recordings[path]) URL.revokeObjectURL(recordings[path].url);
          recordings[path] = { bytes: bytes, seconds: buffer.duration,
                               url: URL.createObjectURL(new Blob([bytes], { type: 'audio/wav' })) };
          unsaved = true;
          restore();
        })
        .catch(function (error) {
          say('present.rec.failed', { reason: error && error.message ? error.message : String(error) });
          restore();
        });
    }

    function play() {
      var kept = recordings[pathOf(step)];
      if (!kept || state !== 'idle') return;
      audio.src = kept.url;
      audio.currentTime = 0;
      audio.play().catch(function () { /* stopped by the next action */ });
    }

    function save() {
      var paths = Object.keys(recordings).sort();
      if (!paths.length) return;
      var bytes = window.NormGeoFiles.zip(paths.map(function (path) { return { path: ZIP_FOLDER + path, bytes: recordings[path].bytes }; }));
      if (saveLink.href) URL.revokeObjectURL(saveLink.href);
      saveLink.href = URL.createObjectURL(new Blob([bytes], { type: 'application/zip' }));
      saveLink.download = 'recordings.zip';
      saveLink.click();
      unsaved = false;
      say('present.rec.saved', { count: paths.length });
    }

    function toggle() { if (state === 'recording') stop(); else if (state === 'idle') start(); }

    // a mouse click leaves the keyboard focus where it was, so that a clicker's Space still steps on
    [recordButton, playButton, saveButton].forEach(function (button) {
      button.addEventListener('mousedown', function (event) { event.preventDefault(); });
    });
    recordButton.addEventListener('click', toggle);
    playButton.addEventListener('click', play);
    saveButton.addEventListener('click', save);
    window.addEventListener('beforeunload', function (event) {
      if (unsaved) { event.preventDefault(); event.returnValue = ''; }
    });
    if (!canRecord()) say('present.rec.unsupported');

    return {
      /** Point the recorder at ``s`` ({scene, key, lang}); ``count`` steps can be recorded in all. */
      show: function (s, count) {
        total = count;
        if (state === 'idle' && pathOf(s) !== pathOf(step)) audio.pause();
        step = s;  // a recording under way keeps its own file until it stops
        render();
      },
      toggle: toggle,
      busy: function () { return state !== 'idle'; },
    };
  };
})();
