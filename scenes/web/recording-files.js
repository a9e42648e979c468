/* The files the presenter's recorder saves, written in the page (a static page cannot write a
 * folder): a recording as a PCM WAV file (16-bit, mono, at the recording's own rate), and all of
 * them in one ZIP archive, stored without compression (WAV barely compresses), whose paths are the
 * layout `normgeo render --voice recordings:DIR` reads: recordings/<scene>/<step>.<lang>.wav.
 *
 * window.NormGeoFiles = {wav(channels, rate) → Uint8Array, zip(entries, date) → Uint8Array, crc32(bytes)}
 * where channels is a list of Float32Array (averaged to mono, clipped to [-1, 1]) and entries a list
 * of {path, bytes}. The formats: RIFF WAVE with a 16-byte `fmt ` chunk (PCM, format 1); ZIP per
 * PKWARE's APPNOTE 6.3 (local headers, central directory, end record; method 0, UTF-8 names).
 */
(function () {
  'use strict';

  var CRC_TABLE = (function () {
    var table = new Uint32Array(256);
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
    return table;
  })();

  /** CRC-32 (ISO-HDLC, the ZIP one) of a byte array: crc32("123456789") = 0xCBF43926. */
  function crc32(bytes) {
    var c = 0xFFFFFFFF;
    for (var i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xFF] ^ (c >>> 8);
    return (c ^ 0xFFFFFFFF) >>> 0;
  }

  /** A mono 16-bit PCM WAV file of the channels' average. */
  function wav(channels, rate) {
    var count = channels.length ? channels[0].length : 0;
    var out = new Uint8Array(44 + 2 * count);
    var view = new DataView(out.buffer);
    var text = function (at, s) { for (var i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i); };
    text(0, 'RIFF'); view.setUint32(4, 36 + 2 * count, true); text(8, 'WAVE');
    text(12, 'fmt '); view.setUint32(16, 16, true); view.setUint16(20, 1, true); view.setUint16(22, 1, true);
    view.setUint32(24, rate, true); view.setUint32(28, rate * 2, true); view.setUint16(32, 2, true); view.setUint16(34, 16, true);
    text(36, 'data'); view.setUint32(40, 2 * count, true);
    for (var i = 0; i < count; i++) {
      var sum = 0;
      for (var c = 0; c < channels.length; c++) sum += channels[c][i];
      var x = Math.max(-1, Math.min(1, sum / channels.length));
      view.setInt16(44 + 2 * i, Math.round(x < 0 ? x * 0x8000 : x * 0x7FFF), true);
    }
    return out;
  }

  function dosTime(date) {
    return {
      time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
      date: (Math.max(date.getFullYear() - 1980, 0) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
    };
  }

  /** A ZIP archive holding each {path, bytes} as it is (method 0, "stored"). */
  function zip(entries, date) {
    var when = dosTime(date || new Date());
    var encoder = new TextEncoder();
    var parts = [], central = [], offset = 0;
    entries.forEach(function (entry) {
      var name = encoder.encode(entry.path), data = entry.bytes, crc = crc32(data);
      var header = function (size, signature) {
        var out = new Uint8Array(size + name.length), view = new DataView(out.buffer);
        view.setUint32(0, signature, true);
        return { out: out, view: view };
      };
      var local = header(30, 0x04034B50), v = local.view;
      v.setUint16(4, 20, true); v.setUint16(6, 0x0800, true); v.setUint16(8, 0, true);
      v.setUint16(10, when.time, true); v.setUint16(12, when.date, true); v.setUint32(14, crc, true);
      v.setUint32(18, data.length, true); v.setUint32(22, data.length, true); v.setUint16(26, name.length, true);
      local.out.set(name, 30);
      var dir = header(46, 0x02014B50), d = dir.view;
      d.setUint16(4, 20, true); d.setUint16(6, 20, true); d.setUint16(8, 0x0800, true); d.setUint16(10, 0, true);
      d.setUint16(12, when.time, true); d.setUint16(14, when.date, true); d.setUint32(16, crc, true);
      d.setUint32(20, data.length, true); d.setUint32(24, data.length, true); d.setUint16(28, name.length, true);
      d.setUint32(42, offset, true);
      dir.out.set(name, 46);
      parts.push(local.out, data);
      central.push(dir.out);
      offset += local.out.length + data.length;
    });
    var size = central.reduce(function (sum, part) { return sum + part.length; }, 0);
    // no ZIP64 here: 4 GiB is some 12 hours of 48 kHz speech; beyond, refuse rather than write a broken file
    if (offset + size > 0xFFFFFFFF || entries.length > 0xFFFF) throw new RangeError('too large for a ZIP without ZIP64');
    var end = new Uint8Array(22), e = new DataView(end.buffer);
    e.setUint32(0, 0x06054B50, true); e.setUint16(8, entries.length, true); e.setUint16(10, entries.length, true);
    e.setUint32(12, size, true); e.setUint32(16, offset, true);
    var all = parts.concat(central, [end]);
    var out = new Uint8Array(offset + size + 22), at = 0;
    all.forEach(function (part) { out.set(part, at); at += part.length; });
    return out;
  }

  window.NormGeoFiles = { wav: wav, zip: zip, crc32: crc32 };
})();
