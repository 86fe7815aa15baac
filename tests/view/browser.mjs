// Drives headless Chromium over the DevTools protocol (--remote-debugging-pipe:
// NUL-separated JSON on fds 3 and 4; no npm packages) through both viewer
// pages written by tests/view/browser.sh, reads the displayed values back and
// compares them with independent outputs of the same runs:
//   R500: the --trace JSON (PC, masks, FC state per issued instruction) and
//         the --raw render target (registers of a clicked pixel);
//   PP5:  the --vcd of the same clocks (IGC signals, probe pixel fields) and
//         the recording's own header.
// Usage: node browser.mjs CHROMIUM DIR SHOTDIR
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [chromium, dir, shots] = process.argv.slice(2);
let failures = 0, checks = { pp5: 0, r500: 0 };
function check(machine, what, got, want) {
  checks[machine]++;
  if (String(got) !== String(want)) {
    failures++;
    console.log(`FAIL ${machine}: ${what}: page shows ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
}

// ---- the browser ----
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-chromium-'));
const proc = spawn(chromium, ['--headless=new', '--remote-debugging-pipe', '--no-sandbox', '--disable-gpu',
  '--no-first-run', '--no-default-browser-check', '--disable-extensions', '--disable-background-networking',
  '--disable-sync', '--disable-component-update', '--user-data-dir=' + profile, 'about:blank'],
  { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
const toBrowser = proc.stdio[3], fromBrowser = proc.stdio[4];
let nextId = 1, pending = new Map(), inbuf = Buffer.alloc(0);
fromBrowser.on('data', (chunk) => {
  inbuf = Buffer.concat([inbuf, chunk]);
  let z;
  while ((z = inbuf.indexOf(0)) >= 0) {
    const msg = JSON.parse(inbuf.subarray(0, z).toString('utf8'));
    inbuf = inbuf.subarray(z + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(JSON.stringify(msg.error))); else resolve(msg.result);
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  const msg = { id, method, params };
  if (sessionId) msg.sessionId = sessionId;
  toBrowser.write(JSON.stringify(msg) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
const exited = new Promise((res) => proc.on('exit', res));
async function cleanup() {
  // close the browser and wait for it to exit before removing its profile
  // (its helper processes write there until they are gone)
  await Promise.race([send('Browser.close').catch(() => {}), exited]);
  const t = setTimeout(() => proc.kill('SIGKILL'), 10000);
  await exited;
  clearTimeout(t);
  fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

async function openPage(file, width, height) {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const s = (m, p) => send(m, p, sessionId);
  await s('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
  await s('Page.enable');
  const t0 = Date.now();
  await s('Page.navigate', { url: 'file://' + file });
  // wait (by polling, no time limit asserted) until the viewer says it is ready
  let ready = null;
  for (let k = 0; k < 600 && !ready; k++) {
    const r = await s('Runtime.evaluate', { expression: 'document.body && document.body.getAttribute("data-ready")', returnByValue: true });
    ready = r.result.value;
    if (!ready) await new Promise((res) => setTimeout(res, 50));
  }
  const loadMs = Date.now() - t0;
  const ev = async (expr) => {
    const r = await s('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(expr + ': ' + JSON.stringify(r.exceptionDetails));
    return r.result.value;
  };
  const key = async (k) => {
    const code = { ArrowRight: 'ArrowRight', ArrowLeft: 'ArrowLeft', ' ': 'Space' }[k] || 'Key' + k.toUpperCase();
    await s('Input.dispatchKeyEvent', { type: 'keyDown', key: k, code });
    await s('Input.dispatchKeyEvent', { type: 'keyUp', key: k, code });
  };
  const shot = async (name) => {
    const r = await s('Page.captureScreenshot', { format: 'png' });
    fs.writeFileSync(path.join(shots, name), Buffer.from(r.data, 'base64'));
  };
  return { ready, loadMs, ev, key, shot, close: () => send('Target.closeTarget', { targetId }) };
}
const text = (id) => `document.getElementById(${JSON.stringify(id)}).textContent`;
// the page's width check, naming the elements that stick out when it fails
const noHScroll = `(() => { const w = window.innerWidth;
  if (document.documentElement.scrollWidth <= w + 1) return true;
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    let clipped = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
      if (getComputedStyle(a).overflowX !== 'visible') { clipped = true; break; }
    if (!clipped && r.right > w + 1 && out.length < 6) out.push((e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + e.className) + ' right=' + Math.round(r.right));
  }
  return 'scrollWidth ' + document.documentElement.scrollWidth + ' > ' + w + ': ' + out.join(', ');
})()`;

// ---- R500 ----
async function r500() {
  const trace = JSON.parse(fs.readFileSync(path.join(dir, 'r500.trace.json'), 'utf8'));
  const raw = new Float32Array(fs.readFileSync(path.join(dir, 'r500.raw')).buffer.slice(0));
  const p = await openPage(path.join(dir, 'r500.html'), 1280, 900);
  check('r500', 'page ready', p.ready, '1');
  const pageLoad = await p.ev('window.lsv.loadMs');
  console.log(`r500: recording ${fs.statSync(path.join(dir, 'r500.lsr')).size} bytes, page ${fs.statSync(path.join(dir, 'r500.html')).size} bytes; ` +
    `load ${p.loadMs} ms to ready (viewer's own parse ${pageLoad.toFixed(0)} ms)`);
  check('r500', 'instructions in the recording = in the trace', await p.ev('document.getElementById("scrub").max'), trace.length - 1);
  const compare = async (i) => {
    const t = trace[i];
    check('r500', `inst ${i} PC`, await p.ev(text('r-pc')), t.pc);
    check('r500', `inst ${i} thread`, (await p.ev(text('r-thread'))).split(' ')[0], t.thread);
    check('r500', `inst ${i} type`, await p.ev(text('r-type')), t.type);
    check('r500', `inst ${i} active`, (await p.ev(text('r-active'))).split(' ')[0], t.active);
    check('r500', `inst ${i} killed`, (await p.ev(text('r-killed'))).split(' ')[0], t.killed);
    check('r500', `inst ${i} branch`, (await p.ev(text('r-branch'))).split(' ')[0], t.fc.branch);
    check('r500', `inst ${i} break`, (await p.ev(text('r-break'))).split(' ')[0], t.fc.break);
    check('r500', `inst ${i} aL`, await p.ev(text('r-aL')), t.fc.aL);
    check('r500', `inst ${i} counters`, await p.ev(text('r-counters')), t.fc.counters.map((c) => c === null ? '-' : c).join(' '));
    check('r500', `inst ${i} loop depth`, await p.ev(`${text('r-loops')} === '(empty)' ? 0 : ${text('r-loops')}.split(' | ').length`), t.fc.loop_stack.length);
    if (t.fc.loop_stack.length)
      check('r500', `inst ${i} loop count`, await p.ev(`${text('r-loops')}.split(' | ').pop().split(' ')[2]`), t.fc.loop_stack[t.fc.loop_stack.length - 1].count);
    check('r500', `inst ${i} listing highlight`, await p.ev('document.querySelector("#listing li.cur").getAttribute("data-addr")'), t.pc);
  };
  // by keyboard: the first steps, a jump, a Done, back
  await compare(0);
  for (let k = 0; k < 5; k++) await p.key('ArrowRight');
  await compare(5);
  await p.key('j');
  const atJ = +(await p.ev('document.getElementById("goto").value'));
  const prev = trace[atJ - 1];
  check('r500', 'j lands after a taken FC jump (previous PC is FC)', prev.type, 'FC');
  check('r500', 'j lands off the fall-through path', trace[atJ].pc !== prev.pc + 1, true);
  await compare(atJ);
  await p.key('d');
  const atD = +(await p.ev('document.getElementById("goto").value'));
  check('r500', 'd stops at the last instruction of the thread', trace[atD + 1].thread !== trace[atD].thread, true);
  await compare(atD);
  await p.key('ArrowLeft');
  await compare(atD - 1);
  // a long thread, deep in its loop
  let longT = 0;
  const counts = {};
  for (const t of trace) counts[t.thread] = (counts[t.thread] || 0) + 1;
  for (const k in counts) if (counts[k] > counts[longT]) longT = +k;
  const first = trace.findIndex((t) => t.thread === longT);
  for (const i of [first + 200, first + 777, trace.length - 1]) { await p.ev(`window.lsv.go(${i})`); await compare(i); }
  // a clicked pixel: at its thread's last instruction out0 = the --raw image;
  // inside the --record-values rectangle (x 0..31) from the recorded writes,
  // outside from the final outputs, with the note saying how to get the rest
  const W = 64;
  for (const [x, y] of [[10, 20], [40, 33], [63, 63]]) {
    await p.ev(`window.lsv.select(${x}, ${y})`);
    const lane = await p.ev(text('px-lane'));
    const th = +lane.split(',')[0];
    const last = trace.length - 1 - [...trace].reverse().findIndex((t) => t.thread === th);
    await p.ev(`window.lsv.go(${last})`);
    const inside = await p.ev(`window.lsv.threadHasValues(${th})`);
    if (x < 32) check('r500', `pixel ${x},${y} (inside the values rectangle): values recorded`, inside, true);
    check('r500', `pixel ${x},${y}: the note on missing values shown = values not recorded`, await p.ev('!!document.getElementById("px-novalues")'), !inside);
    if (!inside)
      check('r500', `pixel ${x},${y}: the note names the option`, await p.ev(`${text('px-novalues')}.includes('--record-values ${x},${y},1,1')`), true);
    for (let ch = 0; ch < 3; ch++) {
      const shown = await p.ev(`(document.querySelector('${inside ? '#px-regs' : '#px-known'} td[data-reg="out0.${'xyz'[ch]}"]') || {}).textContent`);
      check('r500', `pixel ${x},${y} out0.${'xyz'[ch]} vs --raw`, shown, String(raw[4 * (y * W + x) + ch]));
    }
    check('r500', `pixel ${x},${y} shown`, await p.ev(text('px-xy')), `${x}, ${y}`);
  }
  await p.ev(`window.lsv.go(${first + 777})`);
  await p.ev('window.lsv.selectLane(5)');
  check('r500', 'selected lane shown', (await p.ev(text('px-lane'))).split(', ')[1], 5);
  await p.shot('viewer-r500.png');
  await p.close();
  const small = await openPage(path.join(dir, 'r500.html'), 360, 800);
  await small.ev(`window.lsv.go(${first + 300})`);
  check('r500', 'small window: PC', await small.ev(text('r-pc')), trace[first + 300].pc);
  check('r500', 'small window: no horizontal page scroll', await small.ev(noHScroll), true);
  await small.shot('viewer-r500-small.png');
  await small.close();
}

// ---- PP5 ----
function parseVcd(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const ids = {}, names = [];
  let i = 0;
  for (; i < lines.length && !lines[i].startsWith('$enddefinitions'); i++) {
    const m = lines[i].match(/\$var \S+ \d+ (\S+) (\S+)/);
    if (m) { ids[m[1]] = m[2]; names.push(m[2]); }
  }
  const cur = {}, at = new Map();
  let t = null;
  const flush = () => { if (t !== null) at.set(t, { ...cur }); };
  for (i++; i < lines.length; i++) {
    const l = lines[i].trim();
    if (!l || l.startsWith('$')) continue;
    if (l[0] === '#') { flush(); t = +l.slice(1); continue; }
    if (l[0] === 'b') { const [v, id] = l.slice(1).split(' '); cur[ids[id]] = parseInt(v, 2); }
    else cur[ids[l.slice(1)]] = +l[0];
  }
  flush();
  return at;
}
async function pp5() {
  const vcd = parseVcd(path.join(dir, 'pp5.vcd'));
  const p = await openPage(path.join(dir, 'pp5.html'), 1280, 1000);
  check('pp5', 'page ready', p.ready, '1');
  const pageLoad = await p.ev('window.lsv.loadMs');
  console.log(`pp5: recording ${fs.statSync(path.join(dir, 'pp5.lsr')).size} bytes, page ${fs.statSync(path.join(dir, 'pp5.html')).size} bytes; ` +
    `load ${p.loadMs} ms to ready (viewer's own parse ${pageLoad.toFixed(0)} ms)`);
  const meta = await p.ev('window.lsv.meta');
  // the VCD samples clock n at n * 25 ns (Clk = 1), 40 MHz
  const period = 1e9 / 40e6;
  const num = (s) => { const m = s.match(/\((\d+)\)/); return m ? +m[1] : +s; };
  const compare = async (i) => {
    const clk = meta.first_clock + i;
    const v = vcd.get(Math.floor(clk * period));
    if (!v) { failures++; console.log(`FAIL pp5: no VCD sample for clock ${clk}`); return; }
    check('pp5', `clock ${clk} label`, (await p.ev(text('pos'))).split(' ')[1], clk);
    for (const s of ['PC', 'UWord', 'Busy', 'Addr', 'LC1', 'LC2', 'Dst', 'Src', 'AddrL', 'MWrt', 'LdE', 'RMode', 'DirShReg'])
      check('pp5', `clock ${clk} ${s}`, num(await p.ev(text('sig-' + s))), v[s]);
    check('pp5', `clock ${clk} microcode highlight`, await p.ev('document.querySelector("#ucode li.cur") ? document.querySelector("#ucode li.cur").getAttribute("data-addr") : "none"'), v.PC < meta.ucode.length ? v.PC : 'none');
    check('pp5', `clock ${clk} probe E`, await p.ev(text('px-E')), v.EMC_probe_E);
    check('pp5', `clock ${clk} probe z`, await p.ev(text('px-z')), v.EMC_probe_zbuf);
    check('pp5', `clock ${clk} probe ztemp`, await p.ev(text('px-ztemp')), v.EMC_probe_ztemp);
    check('pp5', `clock ${clk} probe colour`, await p.ev(text('px-rgb')), `${v.EMC_probe_red}, ${v.EMC_probe_green}, ${v.EMC_probe_blue}`);
    check('pp5', `clock ${clk} enabled pixels`, await p.ev('(() => { let n = 0; for (let y = 0; y < 128; y++) for (let x = 0; x < 128; x++) n += window.lsv.field("Enable", window.lsv.at, x, y); return n; })()'), v.EMC_enabled_pixels);
  };
  check('pp5', 'pixel selected by default = the VCD probe', await p.ev(text('px-xy')), '64, 64');
  await compare(0);
  for (let k = 0; k < 3; k++) await p.key('ArrowRight');
  await compare(3);
  await p.key('d');
  const atD = +(await p.ev('document.getElementById("goto").value'));
  check('pp5', 'd stops on a word with Done', num(await p.ev(text('sig-Done'))), 1);
  await compare(atD);
  await p.key('j');
  const atJ = +(await p.ev('document.getElementById("goto").value'));
  check('pp5', 'j stops on a clock with Branch', num(await p.ev(text('sig-Branch'))), 1);
  await compare(atJ);
  await p.key('ArrowLeft');
  await compare(atJ - 1);
  for (const i of [2000, 5000, 7777, meta.clocks - 1]) { await p.ev(`window.lsv.go(${i})`); await compare(i); }
  await p.ev('window.lsv.go(7777)');
  await p.shot('viewer-pp5.png');
  await p.close();
  const small = await openPage(path.join(dir, 'pp5.html'), 360, 900);
  await small.ev('window.lsv.go(4000)');
  check('pp5', 'small window: no horizontal page scroll', await small.ev(noHScroll), true);
  await small.shot('viewer-pp5-small.png');
  await small.close();
}

// ---- R500: the demo frame itself (512x512, the default --record-values) ----
async function r500demo() {
  const stats = JSON.parse(fs.readFileSync(path.join(dir, 'r500demo.stats.json'), 'utf8'));
  const raw = new Float32Array(fs.readFileSync(path.join(dir, 'r500demo.raw')).buffer.slice(0));
  const p = await openPage(path.join(dir, 'r500demo.html'), 1280, 900);
  check('r500', 'demo page ready', p.ready, '1');
  const pageLoad = await p.ev('window.lsv.loadMs'), ph = await p.ev('window.lsv.phases');
  console.log(`r500 demo frame: recording ${fs.statSync(path.join(dir, 'r500demo.lsr')).size} bytes, page ${fs.statSync(path.join(dir, 'r500demo.html')).size} bytes; ` +
    `load ${p.loadMs} ms to ready (viewer's own parse ${pageLoad.toFixed(0)} ms: bytes ${ph.bytes.toFixed(0)}, index ${ph.index.toFixed(0)}, first step ${ph.first.toFixed(0)}); ` +
    `load average ${os.loadavg()[0].toFixed(1)}`);
  // the efficiency strip is computed after the page is ready (every thread's control stream)
  for (let k = 0; k < 1200 && !(await p.ev('document.body.getAttribute("data-indexed")')); k++) await new Promise((res) => setTimeout(res, 50));
  console.log(`r500 demo frame: every thread indexed ${(await p.ev('window.lsv.indexMs')).toFixed(0)} ms after the index began`);
  check('r500', 'demo: every thread indexed', await p.ev('window.lsv.allIndexed'), true);
  const total = stats.instructions.total;
  check('r500', 'demo: instructions = --stats', await p.ev('window.lsv.instructions'), total);
  check('r500', 'demo: slider covers every instruction', await p.ev('document.getElementById("scrub").max'), total - 1);
  check('r500', 'demo: threads = --stats', await p.ev('window.lsv.threads'), stats.threads);
  // the longest thread and a few others: instructions per thread = --stats
  const ti = stats.thread_instructions;
  let longT = 0;
  for (let t = 0; t < ti.length; t++) if (ti[t] > ti[longT]) longT = t;
  for (const t of [0, 1, 1000, longT, ti.length - 1]) {
    check('r500', `demo: thread ${t} instructions = --stats`, await p.ev(`window.lsv.threadCount(${t})`), ti[t]);
    await p.ev(`window.lsv.go(window.lsv.threadFirst(${t}) + ${Math.floor(ti[t] / 2)})`);
    check('r500', `demo: thread ${t} shown with its length`, await p.ev(text('r-index')), `${Math.floor(ti[t] / 2)} of ${ti[t]}`);
  }
  // pixels: final out0 = --raw, inside the default values square (the 32x32
  // at the centre) from the recorded writes, elsewhere from the final outputs
  const W = 512;
  for (const [x, y] of [[256, 256], [240, 240], [5, 7], [400, 100], [511, 511]]) {
    await p.ev(`window.lsv.select(${x}, ${y})`);
    const th = +(await p.ev(text('px-lane'))).split(',')[0];
    await p.ev(`window.lsv.go(window.lsv.threadFirst(${th}) + window.lsv.threadCount(${th}) - 1)`);
    const inside = await p.ev(`window.lsv.threadHasValues(${th})`);
    if (x >= 240 && x < 272 && y >= 240 && y < 272) check('r500', `demo: pixel ${x},${y} has values`, inside, true);
    for (let ch = 0; ch < 3; ch++) {
      const shown = await p.ev(`(document.querySelector('${inside ? '#px-regs' : '#px-known'} td[data-reg="out0.${'xyz'[ch]}"]') || {}).textContent`);
      check('r500', `demo: pixel ${x},${y} out0.${'xyz'[ch]} vs --raw`, shown, String(raw[4 * (y * W + x) + ch]));
    }
  }
  // stepping stays on the page's current thread without decoding others
  await p.ev(`window.lsv.go(window.lsv.threadFirst(${longT}) + 100)`);
  for (let k = 0; k < 5; k++) await p.key('ArrowRight');
  check('r500', 'demo: five steps by keyboard', await p.ev(text('r-index')), `105 of ${ti[longT]}`);
  // the screenshot: a pixel near the set's edge inside the values square, deep in its loop
  await p.ev('window.lsv.select(262, 270)');
  const th = +(await p.ev(text('px-lane'))).split(',')[0];
  await p.ev(`window.lsv.go(window.lsv.threadFirst(${th}) + Math.floor(window.lsv.threadCount(${th}) * 0.6))`);
  check('r500', 'demo: pixel 262,270 has values', await p.ev(`window.lsv.threadHasValues(${th})`), true);
  await p.shot('viewer-r500-demo.png');
  await p.close();
}

try {
  await r500();
  await r500demo();
  await pp5();
} catch (e) {
  failures++;
  console.log('FAIL: ' + e.stack);
}
await cleanup();
console.log(`values compared: PP5 ${checks.pp5}, R500 ${checks.r500}; failures ${failures}`);
if (checks.pp5 < 20 || checks.r500 < 20) { console.log('FAIL: fewer than 20 values per machine'); failures++; }
process.exit(failures ? 1 : 0);
