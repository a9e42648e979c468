/* The presenter's captions: the cue being said, drawn in the page over the bottom of the picture,
 * each word lit from its WebVTT word timestamp on (a narrated render writes one `<hh:mm:ss.mmm>`
 * before every word after a cue's first; Chromium does not style `::cue(:past)`/`:future`, so the
 * cue is drawn here). Words already said are plain, the word being said is marked, the words to
 * come are dimmed. A cue without timestamps is shown whole.
 *
 * window.NormGeoCaptions(node, video) → {set(cues), update()}: cues are [start, end, text, shift],
 * seconds of the scene's video (its timestamps too), shifted by `shift` into the video playing (a
 * scene's chapter start in the joined lecture). The node's data-word holds the word being said
 * ("" between cues); it is aria-hidden: the step's text (aria-live) is the accessible one.
 */
(function () {
  'use strict';
  var STAMP = /<((?:\d+:)?\d{2}:\d{2}\.\d{3})>/g;

  function seconds(stamp) {
    return stamp.split(':').reduce(function (sum, part) { return sum * 60 + Number(part); }, 0);
  }

  /** [{text, at}] of a cue: each piece of text from the moment it begins (the first at the cue's start). */
  function pieces(cue, shift) {
    var out = [], last = 0, at = cue[0], match;
    STAMP.lastIndex = 0;
    while ((match = STAMP.exec(cue[2])) !== null) {
      out.push({ text: cue[2].slice(last, match.index), at: at });
      at = seconds(match[1]) + shift;
      last = STAMP.lastIndex;
    }
    out.push({ text: cue[2].slice(last), at: at });
    return out.filter(function (piece) { return piece.text.length; });
  }

  window.NormGeoCaptions = function (node, video) {
    var cues = [];          // [{start, end, pieces}]
    var shown = null;       // the cue drawn
    var spans = [];

    function draw(cue) {
      shown = cue;
      spans = [];
      node.replaceChildren();
      if (!cue) { node.hidden = true; return; }
      cue.pieces.forEach(function (piece) {  // the word in a span, the space after it outside (not underlined)
        var span = document.createElement('span');
        var word = piece.text.replace(/\s+$/, '');
        span.textContent = word;
        node.appendChild(span);
        if (word.length < piece.text.length) node.appendChild(document.createTextNode(piece.text.slice(word.length)));
        spans.push(span);
      });
      node.hidden = false;
    }

    function update() {
      var now = video.currentTime;
      var cue = null;
      for (var i = 0; i < cues.length; i++) if (cues[i].start <= now && now < cues[i].end) { cue = cues[i]; break; }
      if (cue !== shown) draw(cue);
      var word = '';
      if (cue) {
        var current = -1;
        cue.pieces.forEach(function (piece, k) { if (piece.at <= now) current = k; });
        spans.forEach(function (span, k) { span.className = k < current ? 'ng-said' : k === current ? 'ng-saying' : 'ng-to-say'; });
        word = current >= 0 ? cue.pieces[current].text.trim() : '';
      }
      node.setAttribute('data-word', word);
    }

    function loop() { update(); if (!video.paused) requestAnimationFrame(loop); }
    ['play', 'seeked', 'timeupdate', 'pause', 'loadedmetadata'].forEach(function (name) {
      video.addEventListener(name, name === 'play' ? function () { requestAnimationFrame(loop); } : update);
    });

    return {
      /** The cues of the video now loaded: [start, end, text, shift], each moved by its shift (seconds). */
      set: function (list) {
        cues = list.map(function (cue) {
          var moved = [cue[0] + cue[3], cue[1] + cue[3], cue[2]];
          return { start: moved[0], end: moved[1], pieces: pieces(moved, cue[3]) };
        });
        shown = undefined;
        update();
      },
      update: update,
    };
  };
})();
