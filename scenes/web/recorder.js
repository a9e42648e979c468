/* The presenter's recorder: the lecturer's own voice for each narrated step, through the browser's
 * microphone (getUserMedia + MediaRecorder), saved as the folder `normgeo render --voice
 * recordings:DIR` reads.
 *
 * For the step on screen: Record (R) starts, Stop (R again) ends it, Listen plays it, Record again
 * replaces it. While recording, the video is muted (its sound stays out of the microphone; the step
 * may play on, to speak along with it) and the step's text is shown to read from. Each recording is
 * decoded in the page and kept as a 16-bit PCM WAV (Chromium's MediaRecorder gives WebM/Opus).
 * "Save" downloads recordings.zip, whose folder recordings/ holds <scene>/<step>.<lang>.wav: the
 * step is the `say.<step>` key of the scene's text file, lang the language of the text on screen.
 * "Open a folder…" takes such a folder back in (unpacked; WAV, FLAC, Ogg or MP3) to go on another
 * day: its files are saved again with the rest, byte for byte, unless recorded again.
 * The microphone is raw (no echo cancelling, noise suppression or automatic gain): the render
 * normalizes loudness itself.
 *
 * Without a microphone (refused, missing, or no MediaRecorder) the presenter works as before and
 * the recorder says so in one line.
 * State on #presenter: data-rec (idle|asking|recording|converting), data-rec-count (this
 * presenter's steps recorded), data-rec-file (the file of the step on screen, "" if it has no key).
 */
(function () {
  'use strict';
  var NG = window.NormGeo;
  var ZIP_FOLDER = 'recordings/';
  // the layout recordings:DIR reads, at the end of a path in the folder chosen: scene, step, language, format
  var RECORDING = /(?:^|\/)([a-z0-9-]+)\/([A-Za-z0-9_-]+)\.(en|zh|ru)\.(wav|flac|ogg|mp3)$/i;

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
  window.NormGeoRecorder = function (root, video, lang, steps) {
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
    var openButton = box.querySelector('[data-act="open"]');
    var openInput = root.querySelector('[data-out="rec-open"]');
    var recordings = {};      // <scene>/<step>.<lang> → {bytes, ext, url, seconds}
    var ours = {};            // the same names of this presenter's steps
    steps.forEach(function (s) { if (s.key) ours[nameOf(s)] = true; });
    var total = Object.keys(ours).length;
    var step = null;          // the step on screen
    var state = 'idle';
    var session = null;       // the recording under way: {recorder, stream, name, started, timer, muted, textWasHidden}
    var context = null;
    var unsaved = false;      // recorded since the last save
    NG.lang = lang;

    box.querySelector('[data-out="rec-label"]').textContent = t('present.rec.label');
    playButton.textContent = t('present.rec.play');
    saveButton.textContent = t('present.rec.save');
    openButton.textContent = t('present.rec.open');
    box.hidden = false;

    function nameOf(s) { return s && s.key ? s.scene + '/' + s.key + '.' + s.lang : ''; }
    function fileOf(name) { return name ? name + '.' + (recordings[name] ? recordings[name].ext : 'wav') : ''; }
    function keep(name, bytes, ext, duration) {
      if (recordings[name]) URL.revokeObjectURL(recordings[name].url);
      recordings[name] = { bytes: bytes, ext: ext, seconds: duration,
                           url: URL.createObjectURL(new Blob([bytes], { type: 'audio/' + (ext === 'mp3' ? 'mpeg' : ext) })) };
    }
    function decode(bytes) {
      context = context || new (window.AudioContext || window.webkitAudioContext)();
      return context.decodeAudioData(bytes.slice(0).buffer);
    }
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
      var name = session ? session.name : nameOf(step);
      var kept = recordings[name];
      var path = session ? name + '.wav' : fileOf(name);
      var done = Object.keys(recordings).filter(function (n) { return ours[n]; }).length;
      root.setAttribute('data-rec', state);
      root.setAttribute('data-rec-count', String(done));
      root.setAttribute('data-rec-file', path);
      recordButton.textContent = t(state === 'recording' ? 'present.rec.stop' : kept ? 'present.rec.again' : 'present.rec.record');
      recordButton.disabled = !name;  // busy, it stays enabled (a disabled button would drop the keyboard focus)
      recordButton.setAttribute('aria-disabled', state === 'asking' || state === 'converting' ? 'true' : 'false');
      playButton.disabled = !kept || state !== 'idle';
      saveButton.disabled = !Object.keys(recordings).length || state !== 'idle';
      openButton.disabled = state !== 'idle';
      countNode.textContent = t('present.rec.count', { done: done, total: total });
      if (!step && !session) { fileNode.textContent = stateNode.textContent = ''; return; }  // nothing on screen yet
      showFile(path);
      if (state === 'recording') stateNode.textContent = t('present.rec.recording', { seconds: seconds((performance.now() - session.started) / 1000) });
      else if (state === 'asking' || state === 'converting') stateNode.textContent = t('present.rec.wait');
      else stateNode.textContent = kept ? t('present.rec.length', { seconds: seconds(kept.seconds) }) : t('present.rec.none');
    }

    function start() {
      if (!canRecord()) { say('present.rec.unsupported'); return; }
      var name = nameOf(step);
      if (!name) return;
      audio.pause();
      state = 'asking';
      say(null);
      render();
      navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } })
        .then(function (stream) {
          var recorder = new MediaRecorder(stream);
          var parts = [];
          session = { recorder: recorder, stream: stream, name: name, started: performance.now(),
                      muted: video.muted, textWasHidden: textNode.hidden };
          recorder.addEventListener('dataavailable', function (event) { if (event.data.size) parts.push(event.data); });
          recorder.addEventListener('stop', function () { finish(new Blob(parts, { type: recorder.mimeType }), name); });
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

    function finish(blob, name) {
      var ended = session;
      var restore = function () {
        video.muted = ended.muted;
        textNode.hidden = ended.textWasHidden;
        session = null;
        state = 'idle';
        render();
      };
      blob.arrayBuffer()
        .then(function (bytes) { return decode(new Uint8Array(bytes)); })
        .then(function (buffer) {
          var channels = [];
          for (var c = 0; c < buffer.numberOfChannels; c++) channels.push(buffer.getChannelData(c));
          keep(name, window.NormGeoFiles.wav(channels, buffer.sampleRate), 'wav', buffer.duration);
          unsaved = true;
          restore();
        })
        .catch(function (error) {
          say('present.rec.failed', { reason: error && error.message ? error.message : String(error) });
          restore();
        });
    }

    function play() {
      var kept = recordings[nameOf(step)];
      if (!kept || state !== 'idle') return;
      audio.src = kept.url;
      audio.currentTime = 0;
      audio.play().catch(function () { /* stopped by the next action */ });
    }

    function save() {
      var names = Object.keys(recordings).sort();
      if (!names.length) return;
      var bytes;
      try {
        bytes = window.NormGeoFiles.zip(names.map(function (name) { return { path: ZIP_FOLDER + fileOf(name), bytes: recordings[name].bytes }; }));
      } catch (error) { say('present.rec.failed', { reason: error.message }); return; }
      if (saveLink.href) URL.revokeObjectURL(saveLink.href);
      saveLink.href = URL.createObjectURL(new Blob([bytes], { type: 'application/zip' }));
      saveLink.download = 'recordings.zip';
      saveLink.click();
      unsaved = false;
      say('present.rec.saved', { count: names.length });
    }

    /** Take in a folder of recordings chosen in the page (one saved before, unpacked): every file
     *  named <scene>/<step>.<lang>.<wav|flac|ogg|mp3> that decodes is kept (a step's own replaces
     *  the one recorded here), also those of scenes this presenter does not show (saved with the rest). */
    function open(files) {
      var found = files.map(function (file) { return { file: file, match: RECORDING.exec(file.webkitRelativePath || file.name) }; })
        .filter(function (item) { return item.match; });
      var skipped = files.length - found.length;
      state = 'converting';
      say(null);
      render();
      var bad = [];
      Promise.all(found.map(function (item) {
        var bytes;
        return item.file.arrayBuffer()
          .then(function (buffer) { bytes = new Uint8Array(buffer); return decode(bytes); })
          .then(function (audioBuffer) { return { item: item, bytes: bytes, seconds: audioBuffer.duration }; })
          .catch(function () { bad.push(item.file.webkitRelativePath || item.file.name); return null; });
      })).then(function (loaded) {
        loaded.forEach(function (got) {
          if (!got) return;
          var m = got.item.match;
          keep(m[1] + '/' + m[2] + '.' + m[3], got.bytes, m[4].toLowerCase(), got.seconds);
        });
        var count = loaded.filter(Boolean).length;
        state = 'idle';
        if (bad.length) say('present.rec.open-bad', { files: bad.join(', ') });
        else say('present.rec.opened', { count: count, skipped: skipped });
        render();
      });
    }

    function toggle() { if (state === 'recording') stop(); else if (state === 'idle') start(); }

    // a mouse click leaves the keyboard focus where it was, so that a clicker's Space still steps on
    [recordButton, playButton, saveButton, openButton].forEach(function (button) {
      button.addEventListener('mousedown', function (event) { event.preventDefault(); });
    });
    recordButton.addEventListener('click', toggle);
    playButton.addEventListener('click', play);
    saveButton.addEventListener('click', save);
    openButton.addEventListener('click', function () { openInput.value = ''; openInput.click(); });
    openInput.addEventListener('change', function () { open(Array.prototype.slice.call(openInput.files)); });
    window.addEventListener('beforeunload', function (event) {
      if (unsaved) { event.preventDefault(); event.returnValue = ''; }
    });
    render();  // labelled before any step is shown (a page with nothing to present shows none)
    if (!canRecord()) say('present.rec.unsupported');

    return {
      /** Point the recorder at the step ``s`` ({scene, key, lang}) on screen. */
      show: function (s) {
        if (state === 'idle' && nameOf(s) !== nameOf(step)) audio.pause();
        step = s;  // a recording under way keeps its own file until it stops
        render();
      },
      toggle: toggle,
      busy: function () { return state !== 'idle'; },
    };
  };
})();
