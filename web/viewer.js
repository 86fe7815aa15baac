/* lockstep viewer: reads a recording (docs/viewer.md, "Recording format";
 * include/lockstep/record.h) embedded in the page, or fetched from run.lsr
 * when served, and shows it step by step. No network access beyond that. */
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const hex = (v, w) => '0x' + v.toString(16).padStart(w || 1, '0');

  /* ---- the file ---- */
  function parse(u8) {
    const dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
    if (u8.length < 8 || u8[0] !== 0x4c || u8[1] !== 0x53 || u8[2] !== 0x52 || u8[3] !== 0)
      throw new Error('not a lockstep recording');
    const version = dv.getUint16(4, true), machine = dv.getUint16(6, true);
    if (version === 1) throw new Error('recording version 1 (written by an older lockstep); this viewer reads version 2: record the run again');
    if (version !== 2) throw new Error('recording version ' + version + ' (this viewer reads 2)');
    const tags = [], offs = [], lens = [];
    let p = 8;
    while (p + 5 <= u8.length) {
      const n = dv.getUint32(p + 1, true);
      if (p + 5 + n > u8.length) throw new Error('record at byte ' + p + ' runs past the end');
      tags.push(u8[p]); offs.push(p + 5); lens.push(n);
      p += 5 + n;
    }
    if (!tags.length || tags[0] !== 1) throw new Error('no META record');
    const meta = JSON.parse(new TextDecoder().decode(u8.subarray(offs[0], offs[0] + lens[0])));
    return { u8, dv, version, machine, tags, offs, lens, meta };
  }

  /* ---- shared stepping ---- */
  let view = null; // {n, at, show(i), jump(i), done(i), thread(i), label(i)}
  let playing = null;
  function go(i) {
    if (!view) return;
    i = Math.max(0, Math.min(view.n - 1, i | 0));
    view.at = i;
    $('scrub').value = i;
    $('goto').value = i;
    view.show(i);
    $('pos').textContent = view.label(i);
  }
  function find(from, pred) {
    for (let i = from + 1; i < view.n; i++) if (pred(i)) return i;
    return view.n - 1;
  }
  function setupControls() {
    $('scrub').max = view.n - 1;
    $('goto').max = view.n - 1;
    $('scrub').addEventListener('input', () => go(+$('scrub').value));
    $('goto').addEventListener('change', () => go(+$('goto').value));
    $('b-back').onclick = () => go(view.at - 1);
    $('b-step').onclick = () => go(view.at + 1);
    $('b-jump').onclick = () => go(find(view.at, view.jump));
    $('b-done').onclick = () => go(find(view.at, view.done));
    $('b-play').onclick = togglePlay;
    document.addEventListener('keydown', (ev) => {
      if (ev.target && ev.target.tagName === 'INPUT' && ev.target.type === 'number') return;
      const k = ev.key;
      let handled = true;
      if (k === 'ArrowRight' || k === 'l') go(view.at + 1);
      else if (k === 'ArrowLeft' || k === 'h') go(view.at - 1);
      else if (k === 'j') go(find(view.at, view.jump));
      else if (k === 'd') go(find(view.at, view.done));
      else if (k === 't' && view.thread) go(find(view.at, view.thread));
      else if (k === ' ') togglePlay();
      else if (k === 'Home') go(0);
      else if (k === 'End') go(view.n - 1);
      else if (k === 'PageDown') go(view.at + 100);
      else if (k === 'PageUp') go(view.at - 100);
      else handled = false;
      if (handled) ev.preventDefault();
    });
  }
  function togglePlay() {
    if (playing) { clearInterval(playing); playing = null; $('b-play').textContent = 'play'; return; }
    $('b-play').textContent = 'pause';
    playing = setInterval(() => { if (view.at >= view.n - 1) togglePlay(); else go(view.at + 1); }, 30);
  }
  function section(title, id) {
    const s = el('section', { id });
    s.appendChild(el('h2', {}, title));
    $('main').appendChild(s);
    return s;
  }
  function listing(sec, lines, id) {
    const ol = el('ol', { class: 'listing', id });
    lines.forEach((t, a) => {
      const li = el('li', { 'data-addr': a });
      li.appendChild(el('span', { class: 'addr' }, String(a)));
      li.appendChild(document.createTextNode(t));
      ol.appendChild(li);
    });
    sec.appendChild(ol);
    let cur = null;
    return (a) => {
      if (cur) cur.classList.remove('cur');
      cur = ol.children[a] || null;
      if (cur) {
        cur.classList.add('cur');
        const top = cur.offsetTop - ol.offsetTop;
        if (top < ol.scrollTop || top > ol.scrollTop + ol.clientHeight - 20) ol.scrollTop = top - ol.clientHeight / 3;
      }
    };
  }
  function pixelCanvas(fig, w, h, caption, id) {
    const f = el('figure');
    const c = el('canvas', { class: 'px', width: w, height: h, id, tabindex: '0' });
    f.appendChild(c);
    f.appendChild(el('figcaption', {}, caption));
    fig.appendChild(f);
    return c;
  }
  /* canvas pixel under a mouse event; y counts from the bottom row */
  function pixelAt(c, ev, w, h) {
    const r = c.getBoundingClientRect();
    const x = Math.floor((ev.clientX - r.left) / r.width * w);
    const yt = Math.floor((ev.clientY - r.top) / r.height * h);
    return [Math.max(0, Math.min(w - 1, x)), Math.max(0, Math.min(h - 1, h - 1 - yt))];
  }

  /* ================================================================ PP5 */
  function pp5(R) {
    const m = R.meta, dv = R.dv, u8 = R.u8;
    const nsig = m.signals.length, N = m.clocks, first = m.first_clock;
    const W = m.width, H = m.height, NP = W * H;
    const sigIndex = {};
    m.signals.forEach((s, i) => { sigIndex[s.name] = i; });
    /* every clock's signals */
    const sig = new Uint32Array(N * nsig);
    const cur = new Uint32Array(nsig);
    const fieldRecs = m.fields.map(() => []);
    let k = 0;
    for (let r = 1; r < R.tags.length; r++) {
      const o = R.offs[r];
      if (R.tags[r] === 2) {
        const clk = dv.getUint32(o, true) - first;
        for (; k < clk && k < N; k++) sig.set(cur, k * nsig);
        const n = u8[o + 4];
        for (let j = 0; j < n; j++) cur[u8[o + 5 + 5 * j]] = dv.getUint32(o + 6 + 5 * j, true);
      } else if (R.tags[r] === 3) {
        fieldRecs[u8[o + 4]].push(r);
      }
    }
    for (; k < N; k++) sig.set(cur, k * nsig);
    const S = (i, name) => sig[i * nsig + sigIndex[name]];
    /* fields: values after each record, with a snapshot every 64 records */
    function applyField(arr, r) {
      const o = R.offs[r], by = u8[o + 5], mode = u8[o + 6], np = dv.getUint32(o + 7, true);
      let q = o + 11;
      const rd = by === 1 ? (p) => u8[p] : by === 2 ? (p) => dv.getUint16(p, true) : (p) => dv.getUint32(p, true);
      if (mode === 0) { for (let p = 0; p < np; p++, q += by) arr[p] = rd(q); }
      else if (mode === 2) { for (let p = 0; p < np; p++) arr[p] = (u8[q + (p >> 3)] >> (p & 7)) & 1; }
      else if (mode === 3) {
        const k = u8[q++], nb = (np + 7) >> 3;
        for (let j = 0; j < k; j++, q += 1 + nb) {
          const bit = (1 << u8[q]) >>> 0;
          for (let b = 0; b < nb; b++) {
            const x = u8[q + 1 + b];
            if (x) for (let t = 0; t < 8; t++) if ((x >> t) & 1) arr[8 * b + t] = (arr[8 * b + t] ^ bit) >>> 0;
          }
        }
      }
      else {
        const n = dv.getUint32(q, true); q += 4;
        for (let j = 0; j < n; j++, q += 4 + by) arr[dv.getUint32(q, true)] = rd(q + 4);
      }
    }
    const recClock = (r) => dv.getUint32(R.offs[r], true) - first;
    const F = m.fields.map((f, fi) => {
      const recs = fieldRecs[fi], snaps = [new Uint32Array(NP)];
      const arr = new Uint32Array(NP);
      recs.forEach((r, j) => { applyField(arr, r); if ((j + 1) % 64 === 0) snaps.push(arr.slice()); });
      return { recs, snaps, arr: new Uint32Array(NP), applied: -1, clocks: Int32Array.from(recs, recClock) };
    });
    /* the field after clock index i: records with clock <= i */
    function fieldAt(fi, i) {
      const f = F[fi];
      let lo = 0, hi = f.clocks.length; // count of records with clock <= i
      while (lo < hi) { const mid = (lo + hi) >> 1; if (f.clocks[mid] <= i) lo = mid + 1; else hi = mid; }
      const want = lo;
      if (f.applied === want) return f.arr;
      if (f.applied < 0 || want < f.applied || want - f.applied > 64) {
        const s = Math.floor(want / 64);
        f.arr.set(f.snaps[s]);
        f.applied = s * 64;
      }
      for (; f.applied < want; f.applied++) applyField(f.arr, f.recs[f.applied]);
      return f.arr;
    }
    const fi = (name) => m.fields.findIndex((f) => f.name === name);
    const FE = fi('Enable'), FC = fi('Carry'), FZ = fi('z'), FT = fi('ztemp'), FR = fi('red'), FG = fi('green'), FB = fi('blue');

    $('title').textContent = 'lockstep viewer — PP5: ' + m.scene + ' (' + N + ' clocks, ' + W + '×' + H + ' array)';
    $('main').innerHTML = '';
    const secU = section('Microcode (current word = PC)', 'pp5-ucode');
    const markU = listing(secU, m.ucode.map((u) => hex(u[0] >>> 0, 8) + '  ' + u[1]), 'ucode');
    const secI = section('Pixel array', 'pp5-array');
    const imgs = el('div', { class: 'images' });
    secI.appendChild(imgs);
    const cE = pixelCanvas(imgs, W, H, 'Enable plane', 'img-enable');
    const cZ = pixelCanvas(imgs, W, H, 'z buffer (24 bits; near = bright)', 'img-z');
    const cC = pixelCanvas(imgs, W, H, 'colour (red, green, blue fields)', 'img-colour');
    const secM = section('IGC modules', 'pp5-modules');
    secM.appendChild(el('p', { id: 'segment' }));
    const modules = [
      ['InputLatch', ['ST1', 'ST2']],
      ['Controller', ['Busy', 'IBsy', 'CBsy', 'IP', 'PostI', 'PostC', 'RMode', 'Shift']],
      ['Sequencer', ['PC', 'UWord', 'Done', 'DirEn', 'NewL', 'Branch']],
      ['LoopCount', ['LC1', 'LC2', 'TC1', 'TC2']],
      ['PixMemAddr', ['Addr', 'Dst', 'Src', 'Aux']],
      ['DirectReg', ['ALUDatInt', 'DirShReg', 'ALUDat']],
      ['Serializer', ['FBits', 'CSB', 'LSBInt', 'MsIn', 'TRR', 'ABit', 'CBit', 'Ser.IBsy']],
      ['OutputLatch (pins)', ['AddrL', 'AddrH', 'ACmp', 'AGtsS', 'AGtsT', 'BCmp', 'BGtsE', 'BGtsM', 'CCmp', 'CGtsC', 'LdC', 'LdE', 'MWrt', 'ExtOp', 'Config', 'Pair']],
    ];
    const mods = el('div', { class: 'modules' });
    secM.appendChild(mods);
    const sigCells = {};
    for (const [name, sigs] of modules) {
      const d = el('div');
      d.appendChild(el('h3', {}, name));
      const t = el('table');
      for (const s of sigs) {
        if (!(s in sigIndex)) continue;
        const tr = el('tr');
        tr.appendChild(el('th', {}, s));
        const td = el('td', { id: 'sig-' + s.replace('.', '_'), 'data-signal': s });
        tr.appendChild(td);
        t.appendChild(tr);
        sigCells[s] = td;
      }
      d.appendChild(t);
      mods.appendChild(d);
    }
    const secQ = section('QEE coefficient streams (serializer pins, last 64 clocks; newest right)', 'pp5-qee');
    const qee = el('table');
    const qeeCells = {};
    for (const s of ['ADat', 'BDat', 'CDat', 'DDat', 'EDat', 'FDat', 'LSB', 'TrSt']) {
      const tr = el('tr');
      tr.appendChild(el('th', {}, s));
      const td = el('td', { class: 'bits', id: 'qee-' + s });
      tr.appendChild(td);
      qee.appendChild(tr);
      qeeCells[s] = td;
    }
    secQ.appendChild(qee);
    const secP = section('Pixel (click an image)', 'pp5-pixel');
    const pxInfo = el('div', { id: 'pixel' });
    secP.appendChild(pxInfo);
    let selected = [Math.floor(W / 2), Math.floor(H / 2)];
    for (const c of [cE, cZ, cC]) c.addEventListener('click', (ev) => { selected = pixelAt(c, ev, W, H); go(view.at); });

    const ctxs = [cE, cZ, cC].map((c) => c.getContext('2d'));
    const ims = ctxs.map((c) => c.createImageData(W, H));
    function draw(i) {
      const e = fieldAt(FE, i), z = fieldAt(FZ, i), r = fieldAt(FR, i), g = fieldAt(FG, i), b = fieldAt(FB, i);
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          const p = y * W + x, q = 4 * ((H - 1 - y) * W + x);
          const ev = e[p] ? 255 : 30;
          ims[0].data.set([ev, e[p] ? 220 : 30, e[p] ? 80 : 40, 255], q);
          const zv = 255 - (z[p] >>> 16);
          ims[1].data.set([zv, zv, zv, 255], q);
          ims[2].data.set([r[p], g[p], b[p], 255], q);
        }
      ctxs.forEach((c, k) => c.putImageData(ims[k], 0, 0));
    }
    function segmentOf(i) {
      const c = first + i;
      for (const s of m.segments) if (c >= s.first && c < s.first + s.clocks) return s;
      return null;
    }
    function showPixel(i) {
      const [x, y] = selected, p = y * W + x;
      const v = (f) => fieldAt(f, i)[p];
      const z = v(FZ), zt = v(FT), rr = v(FR), gg = v(FG), bb = v(FB);
      pxInfo.innerHTML = '';
      const t = el('table');
      const row = (k, val, id) => { const tr = el('tr'); tr.appendChild(el('th', {}, k)); tr.appendChild(el('td', { id }, String(val))); t.appendChild(tr); };
      row('pixel (x, y)', x + ', ' + y, 'px-xy');
      row('Enable', v(FE), 'px-E');
      row('Carry', v(FC), 'px-Carry');
      row('z (bits 0–23)', z, 'px-z');
      row('ztemp (bits 24–47)', zt, 'px-ztemp');
      row('colour (bits 48–71)', rr + ', ' + gg + ', ' + bb, 'px-rgb');
      pxInfo.appendChild(t);
      let bits = '';
      const word = [[z, 24], [zt, 24], [rr, 8], [gg, 8], [bb, 8]];
      let a = 0;
      for (const [val, n] of word) for (let b = 0; b < n; b++, a++) bits += ((val >>> b) & 1) + ((a + 1) % 24 === 0 ? '\n' : (a + 1) % 8 === 0 ? ' ' : '');
      pxInfo.appendChild(el('div', { class: 'bits', id: 'px-bits' }, 'memory bits 0–71 (bit 0 first):\n' + bits));
      /* history: every recorded change of this pixel up to clock i */
      const lines = [];
      [FE, FZ, FT, FR, FG, FB].forEach((f) => {
        let prev = 0;
        const tmp = new Uint32Array(NP);
        for (const r of F[f].recs) {
          const c = recClock(r);
          if (c > i) break;
          applyFieldOne(tmp, r, p);
          if (tmp[p] !== prev) { lines.push([c, m.fields[f].name + ' = ' + tmp[p]]); prev = tmp[p]; }
        }
      });
      lines.sort((a, b) => a[0] - b[0]);
      pxInfo.appendChild(el('div', { class: 'hist', id: 'px-hist' }, 'history (clock: field = value):\n' +
        lines.slice(-200).map(([c, s]) => 'clock ' + (c + first) + ': ' + s).join('\n')));
    }
    function applyFieldOne(arr, r, p) {
      const o = R.offs[r], by = u8[o + 5], mode = u8[o + 6], np = dv.getUint32(o + 7, true);
      let q = o + 11;
      const rd = by === 1 ? (x) => u8[x] : by === 2 ? (x) => dv.getUint16(x, true) : (x) => dv.getUint32(x, true);
      if (mode === 0) arr[p] = rd(q + p * by);
      else if (mode === 2) arr[p] = (u8[q + (p >> 3)] >> (p & 7)) & 1;
      else if (mode === 3) {
        const k = u8[q++], nb = (np + 7) >> 3;
        for (let j = 0; j < k; j++, q += 1 + nb) if ((u8[q + 1 + (p >> 3)] >> (p & 7)) & 1) arr[p] = (arr[p] ^ (1 << u8[q])) >>> 0;
      }
      else {
        const n = dv.getUint32(q, true); q += 4;
        let lo = 0, hi = n;
        while (lo < hi) { const mid = (lo + hi) >> 1; if (dv.getUint32(q + mid * (4 + by), true) < p) lo = mid + 1; else hi = mid; }
        if (lo < n && dv.getUint32(q + lo * (4 + by), true) === p) arr[p] = rd(q + lo * (4 + by) + 4);
      }
    }
    view = {
      n: N, at: 0,
      label: (i) => 'clock ' + (first + i) + ' (' + i + ' of ' + (N - 1) + ')',
      jump: (i) => S(i, 'Branch') === 1,
      done: (i) => S(i, 'Done') === 1,
      show: (i) => {
        markU(S(i, 'PC'));
        for (const s in sigCells) {
          const w = m.signals[sigIndex[s]].width, v = S(i, s);
          sigCells[s].textContent = w > 4 ? hex(v >>> 0, Math.ceil(w / 4)) + ' (' + (v >>> 0) + ')' : String(v);
        }
        for (const s in qeeCells) {
          let t = '';
          for (let j = Math.max(0, i - 63); j <= i; j++) t += S(j, s);
          qeeCells[s].textContent = t;
        }
        const seg = segmentOf(i);
        $('segment').textContent = 'host stream: ' + (seg ? seg.name + ', clock ' + (first + i - seg.first) + ' of ' + seg.clocks : '—');
        draw(i);
        showPixel(i);
      },
    };
    window.lsv = { machine: 'pp5', go, meta: m, get at() { return view.at; }, signal: S, field: (name, i, x, y) => fieldAt(fi(name), i)[y * W + x], select: (x, y) => { selected = [x, y]; go(view.at); } };
  }

  /* =============================================================== R500 */
  function r500(R) {
    const m = R.meta, u8 = R.u8;
    const W = m.width, H = m.height;
    /* ---- version 2 primitives (include/lockstep/record.h) over u8 at p ---- */
    let p = 0;
    const rv = () => { let v = 0, s = 1, x; do { x = u8[p++]; v += (x & 0x7f) * s; s *= 128; } while (x & 0x80); return v; };
    const rs = () => { const u = rv(); return u % 2 ? -(u + 1) / 2 : u / 2; };
    let MLO = 0, MHI = 0;
    function rraw(n) {
      let lo = 0, hi = 0;
      const nb = (n + 7) >> 3;
      for (let i = 0; i < nb; i++) { const b = u8[p++]; if (i < 4) lo |= b << (8 * i); else hi |= b << (8 * (i - 4)); }
      MLO = lo >>> 0; MHI = hi >>> 0;
    }
    function rmask(lo, hi, n) {
      const k = u8[p++];
      if (k === 0xff) { rraw(n); return; }
      for (let j = 0; j < k; j++) { const l = u8[p++]; if (l < 32) lo ^= 1 << l; else hi ^= 1 << (l - 32); }
      MLO = lo >>> 0; MHI = hi >>> 0;
    }
    const XS = new Uint32Array(64);
    function rxor(k) {
      const nb = p;
      p += (k + 1) >> 1;
      for (let j = 0; j < k; j++) {
        const mm = (u8[nb + (j >> 1)] >> (4 * (j & 1))) & 15;
        let x = 0;
        for (let i = 0; i < 4; i++) if ((mm >> i) & 1) x |= u8[p++] << (8 * i);
        XS[j] = x >>> 0;
      }
    }
    function rblocks(n, cb) {
      const k = u8[p++];
      for (let j = 0; j < k; j++) {
        const file = u8[p++], reg = u8[p++], ch = u8[p++], r = u8[p++];
        rxor(n);
        const v = new Uint32Array(n);
        for (let l = 0; l < n; l++) v[l] = (XS[l] ^ (r && l >= r ? v[l - r] : 0)) >>> 0;
        cb(file, reg, ch, v);
      }
    }
    function skipBlocks(n) {
      const k = u8[p++], nb = (n + 1) >> 1;
      for (let j = 0; j < k; j++) {
        p += 4;
        const q = p;
        p += nb;
        for (let i = 0; i < nb; i++) p += NBITS[u8[q + i]];
      }
    }
    const NBITS = new Uint8Array(256);
    for (let i = 1; i < 256; i++) NBITS[i] = (i & 1) + NBITS[i >> 1];
    const F1 = new Float32Array(1), U1 = new Uint32Array(F1.buffer);
    const tof = (u) => { U1[0] = u; return F1[0]; };
    const bit = (lo, hi, l) => (l < 32 ? (lo >>> l) & 1 : (hi >>> (l - 32)) & 1);
    const pc32 = (v) => { v -= (v >>> 1) & 0x55555555; v = (v & 0x33333333) + ((v >>> 2) & 0x33333333); return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24; };

    /* A control entry's h and e bits (0 inside a run of plain entries). */
    let RUN = 0;
    function head() {
      if (RUN) { RUN--; return 0; }
      let f = u8[p++];
      if (f & 0x80) { f |= u8[p++] << 8; if (f === 0x80) { RUN = u8[p++] - 1; f = 0; } }
      return f;
    }
    /* One thread's control stream: each(i, S) per entry, S the state as the
     * instruction issues (arrays in S are replaced, never changed, so a
     * shallow copy of S is a snapshot). */
    const zeroFrame = { count: 0, aL: 0, isLoop: 0, bLo: 0, bHi: 0, cLo: 0, cHi: 0 };
    function walkCtl(T, each) {
      const n = T.n;
      p = T.ctlOff;
      const S = { pc: -1, aLo: 0, aHi: 0, kLo: 0, kHi: 0, bLo: 0, bHi: 0, rLo: 0, rHi: 0, cLo: 0, cHi: 0,
        pred: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], aL: 0, counters: new Uint8Array(n), loops: [], addrs: [] };
      RUN = 0;
      for (let i = 0; i < T.count; i++) {
        const f = head();
        S.pc = f & 1 ? rv() : S.pc + 1;
        if (f & 2) { rmask(S.aLo, S.aHi, n); S.aLo = MLO; S.aHi = MHI; }
        if (f & 4) { rmask(S.bLo, S.bHi, n); S.bLo = MLO; S.bHi = MHI; }
        if (f & 8) { rmask(S.rLo, S.rHi, n); S.rLo = MLO; S.rHi = MHI; }
        if (f & 16) { rmask(S.cLo, S.cHi, n); S.cLo = MLO; S.cHi = MHI; }
        if (f & 32) {
          const k = u8[p++], c = S.counters.slice();
          if (k === 0x80) for (let l = 0; l < n; l++) c[l] = bit(S.bLo, S.bHi, l) ? u8[p++] : 0;
          else for (let j = 0; j < k; j++, p += 2) c[u8[p]] = u8[p + 1];
          S.counters = c;
        }
        if (f & 64) {
          const d = u8[p++], old = S.loops, nl = [];
          for (let j = 0; j < d; j++) {
            const o = j < old.length ? old[j] : zeroFrame, fm = u8[p++];
            if (!fm) { nl.push(o); continue; }
            const x = Object.assign({}, o);
            if (fm & 32) x.count = (x.count - 1) >>> 0;
            if (fm & 1) x.count = rv();
            if (fm & 2) x.aL = rs();
            if (fm & 4) x.isLoop = u8[p++];
            if (fm & 8) { rmask(o.bLo, o.bHi, n); x.bLo = MLO; x.bHi = MHI; }
            if (fm & 16) { rmask(o.cLo, o.cHi, n); x.cLo = MLO; x.cHi = MHI; }
            nl.push(x);
          }
          S.loops = nl;
        }
        if (f & 0x100) { rmask(S.kLo, S.kHi, n); S.kLo = MLO; S.kHi = MHI; }
        if (f & 0x3e00) {
          const pr = S.pred.slice();
          for (let j = 0; j < 5; j++) if (f & (0x200 << j)) { rmask(pr[2 * j], pr[2 * j + 1], n); pr[2 * j] = MLO; pr[2 * j + 1] = MHI; }
          S.pred = pr;
        }
        if (f & 0x4000) S.aL = rs();
        if (f & 0x8000) { const d = u8[p++], a = []; for (let j = 0; j < d; j++) a.push(rv()); S.addrs = a; }
        const save = p;
        each(i, S);
        p = save;
      }
    }

    /* The load pass over a control stream: only PC, active, killed (and
     * branch, for the counters' length) are kept; the rest is skipped. */
    const skipMask = (nb) => { const k = u8[p++]; p += k === 0xff ? nb : k; };
    function indexCtl(T) {
      const n = T.n, nb = (n + 7) >> 3, f0 = T.first, idx = T.idx, cLo = T.covLo, cHi = T.covHi;
      p = T.ctlOff;
      let pc = -1, aLo = 0, aHi = 0, kLo = 0, kHi = 0, bLo = 0, bHi = 0;
      RUN = 0;
      for (let i = 0; i < T.count; i++) {
        const f = head();
        pc = f & 1 ? rv() : pc + 1;
        if (f & 2) { rmask(aLo, aHi, n); aLo = MLO; aHi = MHI; }
        if (f & 4) { rmask(bLo, bHi, n); bLo = MLO; bHi = MHI; }
        if (f & 8) skipMask(nb);
        if (f & 16) skipMask(nb);
        if (f & 32) { const k = u8[p++]; p += k === 0x80 ? pc32(bLo) + pc32(bHi) : 2 * k; }
        if (f & 64) {
          const d = u8[p++];
          for (let j = 0; j < d; j++) {
            const fm = u8[p++];
            if (fm & 1) rv();
            if (fm & 2) rv();
            if (fm & 4) p++;
            if (fm & 8) skipMask(nb);
            if (fm & 16) skipMask(nb);
          }
        }
        if (f & 0x100) { rmask(kLo, kHi, n); kLo = MLO; kHi = MHI; }
        for (let j = 0; j < 5; j++) if (f & (0x200 << j)) skipMask(nb);
        if (f & 0x4000) rv();
        if (f & 0x8000) { const d = u8[p++]; for (let j = 0; j < d; j++) rv(); }
        iThread[f0 + i] = idx; iPc[f0 + i] = pc;
        eff[f0 + i] = (pc32(aLo & cLo & ~kLo) + pc32(aHi & cHi & ~kHi)) / n;
      }
    }

    /* ---- index: threads, and per issued instruction its thread, PC and SIMD efficiency ---- */
    const threads = [], byId = new Map();
    let N = 0;
    const img = new Float32Array(W * H * 4);
    const pixLane = new Int32Array(W * H).fill(-1); // thread index * 64 + lane
    let valueThreads = 0;
    for (let r = 1; r < R.tags.length; r++) {
      if (R.tags[r] !== 4) continue;
      p = R.offs[r];
      const id = rv(), n = u8[p++];
      rraw(n);
      const T = { id, n, covLo: MLO, covHi: MHI, px: new Uint16Array(n), py: new Uint16Array(n), idx: threads.length };
      let x = 0, y = 0;
      for (let l = 0; l < n; l++) { x += rs(); y += rs(); T.px[l] = x; T.py[l] = y; }
      T.ntemps = u8[p++];
      T.tempsOff = p;
      skipBlocks(n);
      T.count = rv();
      const nb = rv();
      T.ctlOff = p;
      p += nb;
      T.finalOff = p;
      rblocks(n, (file, reg, ch, v) => {
        if (file !== 1 || reg !== 0) return;
        for (let l = 0; l < n; l++)
          if (bit(T.covLo, T.covHi, l) && T.px[l] < W && T.py[l] < H) img[4 * (T.py[l] * W + T.px[l]) + ch] = tof(v[l]);
      });
      T.hasValues = u8[p++] === 1;
      if (T.hasValues) { rv(); T.valOff = p; valueThreads++; }
      T.first = N;
      N += T.count;
      threads.push(T);
      byId.set(id, T);
      for (let l = 0; l < n; l++) {
        if (T.px[l] >= W || T.py[l] >= H) continue;
        const q = T.py[l] * W + T.px[l];
        if (pixLane[q] < 0 || bit(T.covLo, T.covHi, l)) pixLane[q] = T.idx * 64 + l;
      }
    }
    const iThread = new Int32Array(N), iPc = new Uint16Array(N), eff = new Float32Array(N);
    for (const T of threads) iThread.fill(T.idx, T.first, T.first + T.count);
    /* PC and efficiency per instruction: a thread on demand, all of them
     * in slices after the page is ready (then the efficiency strip) */
    const indexed = new Uint8Array(threads.length);
    let nIndexed = 0;
    const need = (t) => { if (!indexed[t]) { indexCtl(threads[t]); indexed[t] = 1; nIndexed++; } };

    /* ---- one thread in full, on demand (the current one is kept) ---- */
    let cache = { T: null };
    function decodeThread(T) {
      if (cache.T === T) return cache;
      const states = [];
      walkCtl(T, (i, S) => { states.push(Object.assign({}, S)); });
      /* registers at instruction 0 (temps) and at the end (outputs) */
      const initial = new Map(), fin = new Map();
      p = T.tempsOff;
      rblocks(T.n, (file, reg, ch, v) => initial.set('t' + reg + '.' + 'xyzw'[ch], v));
      p = T.finalOff;
      rblocks(T.n, (file, reg, ch, v) => fin.set(file === 1 ? 'out' + reg + '.' + 'xyzw'[ch] : 'W', v));
      if (T.hasValues) {
        const shadow = new Map();
        for (const [k, v] of initial) shadow.set(k, v.slice());
        p = T.valOff;
        for (let i = 0; i < T.count; i++) {
          const s = states[i], nw = rv(), writes = [];
          for (let j = 0; j < nw; j++) {
            const key = rv(), file = key & 3, ch = (key >> 2) & 3, reg = Math.floor(key / 16);
            const name = file === 0 ? 't' + reg + '.' + 'xyzw'[ch] : file === 1 ? 'out' + reg + '.' + 'xyzw'[ch] : 'W';
            rmask(s.aLo, s.aHi, T.n);
            const lo = MLO, hi = MHI, k = pc32(lo) + pc32(hi);
            rxor(k);
            let sh = shadow.get(name);
            if (!sh) { sh = new Uint32Array(T.n); shadow.set(name, sh); }
            const vals = [];
            let q = 0;
            for (let l = 0; l < T.n; l++) if (bit(lo, hi, l)) { sh[l] = (sh[l] ^ XS[q++]) >>> 0; vals.push([l, tof(sh[l])]); }
            writes.push({ name, vals });
          }
          s.writes = writes;
        }
      }
      /* the lanes × time picture, drawn once per thread */
      const w = Math.max(1, Math.min(2000, T.count));
      const im = new ImageData(w, T.n);
      for (let x = 0; x < w; x++) {
        const s = states[Math.floor(x * T.count / w)];
        for (let l = 0; l < T.n; l++) {
          let col;
          if (!bit(T.covLo, T.covHi, l)) col = [0, 0, 0];
          else if (bit(s.kLo, s.kHi, l)) col = [200, 40, 40];
          else if (bit(s.aLo, s.aHi, l)) col = [60, 170, 90];
          else if (bit(s.rLo, s.rHi, l)) col = [230, 140, 30];
          else if (bit(s.cLo, s.cHi, l)) col = [70, 110, 220];
          else col = [170, 170, 170];
          const o = 4 * (l * w + x);
          im.data[o] = col[0]; im.data[o + 1] = col[1]; im.data[o + 2] = col[2]; im.data[o + 3] = 255;
        }
      }
      /* the thread's SIMD efficiency so far, per instruction */
      const cum = new Float64Array(T.count);
      need(T.idx);
      for (let k = 0, a = 0; k < T.count; k++) { a += eff[T.first + k]; cum[k] = a; }
      cache = { T, states, initial, fin, im, cum };
      return cache;
    }

    const vm = m.values;
    const valuesRule = vm === 'all' ? 'every thread' : vm === 'none' ? 'no thread' :
      Array.isArray(vm) ? 'the threads covering pixels x ' + vm[0] + '–' + (vm[0] + vm[2] - 1) + ', y ' + vm[1] + '–' + (vm[1] + vm[3] - 1) + ' (--record-values ' + vm.join(',') + ')' : 'some threads';
    $('title').textContent = 'lockstep viewer — R500: ' + m.program + ' (' + W + '×' + H + ', ' + threads.length + ' threads of ' + m.thread_size + ', ' + N + ' instructions issued; register values of ' + valueThreads + ' threads)';
    $('main').innerHTML = '';
    const secL = section('Program (current instruction = PC)', 'r500-listing');
    const mark = listing(secL, m.listing.map((x) => '[' + m.types[x.type] + '] ' + x.text.replace(/\n\s*/g, ' ')), 'listing');
    const secS = section('Thread state (as the instruction issues)', 'r500-state');
    const stT = el('table', { id: 'state' });
    secS.appendChild(stT);
    const cells = {};
    for (const [k, label] of [['thread', 'thread'], ['pc', 'PC'], ['type', 'type'], ['index', 'instruction in thread'], ['active', 'active'], ['killed', 'killed'], ['branch', 'branch (counted)'], ['break', 'break'], ['continue', 'continue'], ['pred', 'predicates R G B A'], ['alu', 'ALU result'], ['aL', 'aL'], ['counters', 'branch counters'], ['loops', 'loop stack'], ['addrs', 'address stack'], ['eff', 'SIMD efficiency (thread so far)']]) {
      const tr = el('tr');
      tr.appendChild(el('th', {}, label));
      cells[k] = el('td', { id: 'r-' + k });
      tr.appendChild(cells[k]);
      stT.appendChild(tr);
    }
    const secA = section('Lanes × time (this thread; green active, grey branch, orange break, blue continue, red killed, black not covered)', 'r500-lanes');
    const cL = el('canvas', { class: 'strip', id: 'lanes', width: 400, height: 64 });
    secA.appendChild(cL);
    secA.appendChild(el('h2', {}, 'SIMD efficiency over the run (active lanes / lanes per issued instruction)'));
    const cEff = el('canvas', { class: 'eff', id: 'eff', width: 600, height: 60 });
    secA.appendChild(cEff);
    const secP = section('Pixel (click the image or a lane)', 'r500-pixel');
    secP.appendChild(el('p', { id: 'values-rule' }, 'Register values written by each instruction are in this recording for ' + valuesRule + '; for the other threads it has the control flow above, the inputs and the final outputs.'));
    const imgs = el('div', { class: 'images' });
    secP.appendChild(imgs);
    const cI = pixelCanvas(imgs, W, H, 'render target 0 (final outputs, from the recording)', 'img-target');
    const pxInfo = el('div', { id: 'pixel' });
    secP.appendChild(pxInfo);
    { // the image
      const c = cI.getContext('2d'), id = c.createImageData(W, H);
      const cl = (v) => Math.max(0, Math.min(255, Math.round(v * 255)));
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
        const q0 = 4 * (y * W + x), q = 4 * ((H - 1 - y) * W + x);
        id.data[q] = cl(img[q0]); id.data[q + 1] = cl(img[q0 + 1]); id.data[q + 2] = cl(img[q0 + 2]); id.data[q + 3] = 255;
      }
      c.putImageData(id, 0, 0);
    }
    let effBase = null;
    function drawEff() {
      const c = cEff.getContext('2d'), w = cEff.width, h = cEff.height;
      c.fillStyle = '#fff'; c.fillRect(0, 0, w, h);
      c.fillStyle = '#396';
      for (let x = 0; x < w; x++) {
        const a = Math.floor(x * N / w), b = Math.max(a + 1, Math.floor((x + 1) * N / w));
        let s = 0; for (let i = a; i < b && i < N; i++) s += eff[i];
        const v = s / (b - a);
        c.fillRect(x, h - v * h, 1, v * h);
      }
      effBase = c.getImageData(0, 0, w, h);
      if (view) { c.fillStyle = '#d33'; c.fillRect(Math.floor(view.at * w / N), 0, 2, h); }
    }
    const t0 = performance.now();
    let nextT = 0;
    function indexSlice() {
      const end = performance.now() + 15;
      while (nextT < threads.length && performance.now() < end) for (let k = 0; k < 16 && nextT < threads.length; k++) need(nextT++);
      if (nextT < threads.length) { setTimeout(indexSlice, 0); return; }
      drawEff();
      window.lsv.indexMs = performance.now() - t0;
      document.body.setAttribute('data-indexed', '1');
    }
    setTimeout(indexSlice, 0);
    let selLane = null; // [thread index, lane]
    cI.addEventListener('click', (ev) => { const [x, y] = pixelAt(cI, ev, W, H); selectPixel(x, y); });
    cL.addEventListener('click', (ev) => {
      const r = cL.getBoundingClientRect();
      const T = threads[iThread[view.at]];
      const l = Math.floor((ev.clientY - r.top) / r.height * T.n);
      const k = Math.floor((ev.clientX - r.left) / r.width * T.count);
      selLane = [T.idx, Math.max(0, Math.min(T.n - 1, l))];
      go(T.first + Math.max(0, Math.min(T.count - 1, k)));
    });
    const hex64 = (lo, hi) => '0x' + hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
    const fmtMask = (lo, hi, n) => { let s = ''; for (let l = 0; l < n; l++) s += bit(lo, hi, l) ? '1' : '.'; return hex64(lo, hi) + '  ' + s; };
    function drawLanes(C, k) {
      const T = C.T;
      if (cL.width !== C.im.width || cL.height !== T.n) { cL.width = C.im.width; cL.height = T.n; }
      const c = cL.getContext('2d');
      c.putImageData(C.im, 0, 0);
      c.fillStyle = 'rgba(255,220,0,0.9)';
      c.fillRect(Math.floor(k * cL.width / T.count), 0, Math.max(1, Math.ceil(cL.width / T.count)), T.n);
      if (selLane && selLane[0] === T.idx) { c.fillStyle = 'rgba(0,0,0,0.35)'; c.fillRect(0, selLane[1], cL.width, 1); }
    }
    const numeric = (a, c) => a.localeCompare(c, 'en', { numeric: true });
    function regTable(id, rows) {
      const rt = el('table', { id });
      for (const [key, v, note] of rows) {
        const tr = el('tr');
        tr.appendChild(el('th', {}, key));
        tr.appendChild(el('td', { 'data-reg': key }, String(v)));
        if (note) tr.appendChild(el('td', { class: 'note' }, note));
        rt.appendChild(tr);
      }
      return rt;
    }
    function showLane(C, k) {
      const T = C.T;
      pxInfo.innerHTML = '';
      if (!selLane || selLane[0] !== T.idx) { pxInfo.appendChild(el('p', {}, 'Click a pixel in the image or a lane in the lanes × time picture.')); return; }
      const l = selLane[1];
      const t = el('table');
      const row = (key, val, id) => { const tr = el('tr'); tr.appendChild(el('th', {}, key)); tr.appendChild(el('td', { id }, String(val))); t.appendChild(tr); };
      row('pixel (x, y)', T.px[l] + ', ' + T.py[l], 'px-xy');
      row('thread, lane', T.id + ', ' + l, 'px-lane');
      const s = C.states[k];
      row('active now', bit(s.aLo, s.aHi, l), 'px-active');
      const path = [];
      for (let j = 0; j <= k; j++) if (bit(C.states[j].aLo, C.states[j].aHi, l)) path.push(C.states[j].pc);
      row('path (PCs while active, so far)', path.length > 60 ? path.slice(0, 30).join(' ') + ' … ' + path.slice(-20).join(' ') + ' (' + path.length + ')' : path.join(' '), 'px-path');
      pxInfo.appendChild(t);
      if (T.hasValues) {
        /* registers after instruction k: the inputs, then the writes */
        const regs = new Map();
        for (const ch of 'xyzw') regs.set('out0.' + ch, 0); // outputs start at 0 (src/r500/exec.c)
        for (const [key, a] of C.initial) regs.set(key, tof(a[l]));
        for (let j = 0; j <= k; j++) for (const w of C.states[j].writes) for (const [ll, v] of w.vals) if (ll === l) regs.set(w.name, v);
        pxInfo.appendChild(el('p', {}, 'registers after this instruction (unlisted temps are 0):'));
        pxInfo.appendChild(regTable('px-regs', [...regs.keys()].sort(numeric).map((key) => [key, regs.get(key)])));
      } else {
        const rows = [];
        for (const [key, a] of [...C.initial].sort((a, c) => numeric(a[0], c[0]))) rows.push([key, tof(a[l]), 'at instruction 0']);
        for (const [key, a] of [...C.fin].sort((a, c) => numeric(a[0], c[0]))) rows.push([key, tof(a[l]), 'after the last instruction']);
        const note = el('p', { id: 'px-novalues', class: 'note' },
          'This recording has this thread\'s registers only at its ends: inputs at instruction 0 and outputs after its last instruction (other temps start at 0). ' +
          'To see every value pixel ' + T.px[l] + ', ' + T.py[l] + ' computes, record the run again with ');
        note.appendChild(el('code', {}, '--record-values ' + T.px[l] + ',' + T.py[l] + ',1,1'));
        note.appendChild(document.createTextNode(' (or a rectangle around it, or all).'));
        pxInfo.appendChild(note);
        pxInfo.appendChild(regTable('px-known', rows));
      }
    }
    view = {
      n: N, at: 0,
      label: (i) => 'instruction ' + i + ' of ' + (N - 1) + ' (thread ' + threads[iThread[i]].id + ')',
      /* the instruction an FC jump went to: the thread's previous one was FC and this is not the next address */
      jump: (i) => i > 0 && iThread[i - 1] === iThread[i] && (need(iThread[i]), m.listing[iPc[i - 1]] !== undefined) &&
        m.listing[iPc[i - 1]].type === 2 && iPc[i] !== iPc[i - 1] + 1,
      done: (i) => i + 1 >= N || iThread[i + 1] !== iThread[i],
      thread: (i) => i > 0 && iThread[i] !== iThread[i - 1],
      show: (i) => {
        const T = threads[iThread[i]];
        const C = decodeThread(T), k = i - T.first, s = C.states[k];
        mark(s.pc);
        cells.thread.textContent = T.id + ' (' + T.n + ' lanes' + (T.hasValues ? ', values recorded' : '') + ')';
        cells.pc.textContent = String(s.pc);
        cells.type.textContent = m.listing[s.pc] ? m.types[m.listing[s.pc].type] : '?';
        cells.index.textContent = k + ' of ' + T.count;
        cells.active.textContent = fmtMask(s.aLo, s.aHi, T.n);
        cells.killed.textContent = fmtMask(s.kLo, s.kHi, T.n);
        cells.branch.textContent = fmtMask(s.bLo, s.bHi, T.n);
        cells.break.textContent = fmtMask(s.rLo, s.rHi, T.n);
        cells.continue.textContent = fmtMask(s.cLo, s.cHi, T.n);
        cells.pred.textContent = [0, 1, 2, 3].map((j) => hex64(s.pred[2 * j], s.pred[2 * j + 1])).join(' ');
        cells.alu.textContent = hex64(s.pred[8], s.pred[9]);
        cells.aL.textContent = String(s.aL);
        cells.counters.textContent = [...Array(T.n)].map((_, l) => bit(s.bLo, s.bHi, l) ? s.counters[l] : '-').join(' ');
        cells.loops.textContent = s.loops.length ? s.loops.map((f) => (f.isLoop ? 'LOOP' : 'REP') + ' count ' + f.count + ' aL ' + f.aL + ' break ' + hex64(f.bLo, f.bHi) + ' continue ' + hex64(f.cLo, f.cHi)).join(' | ') : '(empty)';
        cells.addrs.textContent = s.addrs.length ? s.addrs.join(' ') : '(empty)';
        cells.eff.textContent = (100 * C.cum[k] / (k + 1)).toFixed(1) + '%';
        drawLanes(C, k);
        const c = cEff.getContext('2d');
        if (effBase) c.putImageData(effBase, 0, 0);
        c.fillStyle = '#d33';
        c.fillRect(Math.floor(i * cEff.width / N), 0, 2, cEff.height);
        showLane(C, k);
      },
    };
    function selectPixel(x, y) {
      if (x < 0 || y < 0 || x >= W || y >= H || pixLane[y * W + x] < 0) return;
      const v = pixLane[y * W + x], T = threads[Math.floor(v / 64)];
      selLane = [T.idx, v % 64];
      go(iThread[view.at] === T.idx ? view.at : T.first);
    }
    window.lsv = { machine: 'r500', go, meta: m, get at() { return view.at; }, select: selectPixel,
      selectLane: (l) => { selLane = [iThread[view.at], l]; go(view.at); },
      threadFirst: (id) => byId.get(id).first, threadCount: (id) => byId.get(id).count,
      threadHasValues: (id) => byId.get(id).hasValues, instructions: N, threads: threads.length, valueThreads,
      get allIndexed() { return nIndexed === threads.length; } };
  }

  /* ---- start ---- */
  async function load() {
    const t0 = performance.now();
    const tag = $('lsr');
    let u8;
    if (tag) {
      const text = tag.textContent.trim();
      if (Uint8Array.fromBase64) u8 = Uint8Array.fromBase64(text);
      else {
        const s = atob(text);
        u8 = new Uint8Array(s.length);
        for (let i = 0; i < s.length; i++) u8[i] = s.charCodeAt(i);
      }
      if (tag.getAttribute('data-encoding') === 'gzip') {
        if (typeof DecompressionStream === 'undefined')
          throw new Error('this browser cannot inflate the embedded recording (no DecompressionStream); serve it instead: lockstep view RUN.lsr');
        const st = new Blob([u8]).stream().pipeThrough(new DecompressionStream('gzip'));
        u8 = new Uint8Array(await new Response(st).arrayBuffer());
      }
    } else {
      const r = await fetch('run.lsr');
      u8 = new Uint8Array(await r.arrayBuffer());
    }
    const t1 = performance.now();
    const R = parse(u8);
    if (R.machine === 1) pp5(R); else if (R.machine === 2) r500(R); else throw new Error('unknown machine ' + R.machine);
    const t2 = performance.now();
    setupControls();
    go(0);
    const t3 = performance.now();
    window.lsv.loadMs = t3 - t0;
    window.lsv.phases = { bytes: t1 - t0, index: t2 - t1, first: t3 - t2 };
    document.body.setAttribute('data-ready', '1');
  }
  load().catch((e) => {
    $('main').innerHTML = '';
    $('main').appendChild(el('p', { id: 'error' }, 'cannot show this recording: ' + e.message));
    document.body.setAttribute('data-ready', 'error');
  });
})();
