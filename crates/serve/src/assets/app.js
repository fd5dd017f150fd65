// kalah serve: the analysis board (docs/serve.md). Plain JavaScript, no dependencies.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const RULE_KEYS = ['rules', 'houses', 'seeds', 'capture', 'end', 'leftovers', 'grand_slam', 'early_stop'];
  const SIDE = { S: 'South', N: 'North' };
  const INF = Infinity;
  // The token the server put in the page: an analysis needs it (docs/serve.md).
  const TOKEN = (document.querySelector('meta[name="kalah-token"]') || {}).content || '';

  // The state: rule parameters set (strings), the start position (null: the game's start),
  // the line of sowings, the history entry of each sowing when known, the current point,
  // and the /api/position answer for it.
  const st = { options: null, rp: {}, start: null, line: [], hist: [], cur: 0, pos: null };
  let an = null; // the analysis of st.pos
  let es = null; // its EventSource
  let pvw = null; // the preview of the principal variation: {pv, k, pos}
  let seq = 0, pvSeq = 0, busy = 0, anId = 0, boardH = 0, synced = '', lastErr = '', queued = false;

  // ---- helpers ----
  // An element: `a` sets properties (class; data-*, aria-* and role as attributes), then children.
  function mk(tag, a, ...kids) {
    const e = document.createElement(tag);
    for (const k in a || {}) {
      if (k === 'class') e.className = a[k];
      else if (/^(data-|aria-|role$)/.test(k)) e.setAttribute(k, a[k]);
      else e[k] = a[k];
    }
    e.append(...kids);
    return e;
  }
  const on = (id, ev, f) => $(id).addEventListener(ev, f);
  const fmt = (v) => (v > 0 ? '+' + v : v < 0 ? '\u2212' + -v : '0');
  const fmtRange = (lo, hi) => lo === hi ? fmt(lo) : lo === -INF ? (hi === INF ? '…' : '≤ ' + fmt(hi)) :
    hi === INF ? '≥ ' + fmt(lo) : fmt(lo) + ' … ' + fmt(hi);
  const nodes = (n) => Number(n || 0).toLocaleString('en-US');
  const secs = (s) => (s < 10 ? s.toFixed(2) : s.toFixed(1)) + ' s';
  const sowingsOf = (text) => String(text || '').split(/[\s,;-]+/).filter(Boolean);
  const binOf = (m) => parseInt(m, 10);
  const seeds = (n) => n + (n === 1 ? ' seed' : ' seeds');
  const wins = (v) => (v > 0 ? 'South wins by ' + v : v < 0 ? 'North wins by ' + -v : 'a draw');

  function params(rp, start, moves) {
    const p = {};
    for (const k of RULE_KEYS) if (rp[k] != null && String(rp[k]).trim()) p[k] = String(rp[k]).trim();
    if (start) p.position = start;
    if (moves && moves.length) p.moves = moves.join(' ');
    return p;
  }
  // A value in the query string, its commas, colons and slashes (Bao's rows) kept readable.
  const enc = (v) => encodeURIComponent(v).replace(/%2C/gi, ',').replace(/%3A/gi, ':').replace(/%2F/gi, '/');
  const query = (p) => Object.keys(p).map((k) => k + '=' + enc(p[k])).join('&');

  function setBusy(d) {
    busy += d;
    document.body.dataset.busy = busy > 0 ? 'true' : 'false';
  }
  async function api(p) {
    setBusy(1);
    try {
      let r, j = null;
      try {
        r = await fetch('api/position', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Kalah-Token': TOKEN },
          body: JSON.stringify(p) });
      } catch (e) {
        throw new Error('cannot reach the server (is kalah serve still running?)');
      }
      try { j = await r.json(); } catch (e) { /* not JSON */ }
      if (!r.ok || !j) throw new Error(j && j.error ? j.error : 'the server answered ' + r.status);
      return j;
    } finally {
      setBusy(-1);
    }
  }
  function setError(msg) {
    lastErr = msg || '';
    $('error').textContent = lastErr;
    $('error').hidden = !lastErr;
  }

  // ---- state changes ----
  // Shows `next` ({rp, start, line, hist, cur}): asks the server, then commits, analyses
  // and draws; on an error the previous state stays and the error is shown.
  async function go(next) {
    leavePreview(true);
    closeDirs();
    const my = ++seq;
    let pos;
    try {
      pos = await api(params(next.rp, next.start, next.line.slice(0, next.cur)));
    } catch (e) {
      if (my === seq) setError(e.message);
      return false;
    }
    if (my !== seq) return false;
    setError('');
    Object.assign(st, { rp: next.rp, start: next.start, line: next.line.slice(), cur: next.cur, pos });
    st.hist = (next.hist || []).slice(0, st.line.length);
    pos.history.forEach((h, i) => { st.line[i] = h.move; st.hist[i] = h; });
    updateURL();
    startAnalysis();
    renderAll();
    return true;
  }
  const goTo = (k) => go({ rp: st.rp, start: st.start, line: st.line, hist: st.hist, cur: k });
  function play(moves) {
    const line = st.line.slice(0, st.cur).concat(moves);
    return go({ rp: st.rp, start: st.start, line, hist: st.hist.slice(0, st.cur), cur: line.length });
  }
  const undo = () => { leavePreview(true); if (st.cur > 0) goTo(st.cur - 1); };
  const redo = () => { leavePreview(true); if (st.cur < st.line.length) goTo(st.cur + 1); };

  // The address bar: the rule parameters set, the start position, the moves to the
  // current point written as turns (`3-6,9`).
  function updateURL() {
    const p = params(st.rp, st.start, null);
    let m = '';
    for (let i = 0; i < st.cur; i++) m += (i ? (st.hist[i - 1] && st.hist[i - 1].extra_turn ? '-' : ',') : '') + st.line[i];
    if (m) p.moves = m;
    const q = query(p);
    try { history.replaceState(null, '', location.pathname + (q ? '?' + q : '')); } catch (e) { /* file: */ }
  }

  // ---- analysis ----
  // The analysis stream of `req` (/api/analyse): `when(name, f)` hands each event `name`
  // its data parsed (an `error` also without data: the connection lost) while `live(src)`
  // holds, then calls `after`. Bao's board (bao.js) opens its stream through it too.
  function analysisStream(req, live, after) {
    const src = new EventSource('api/analyse?' + query(req));
    const when = (name, f) => src.addEventListener(name, (e) => {
      if (!live(src)) return;
      let d = null;
      try { d = JSON.parse(e.data); } catch (x) { /* no data */ }
      if (d || name === 'error') f(d, e);
      after();
    });
    return { src, when };
  }
  function closeES() {
    if (es) { es.close(); es = null; }
  }
  function startAnalysis() {
    closeES();
    const p = st.pos;
    if (!p) return;
    const id = ++anId;
    const total = p.south.concat(p.north).reduce((a, b) => a + b, 0) + p.south_store + p.north_store;
    an = { id, rows: [], byIndex: new Map(), done: null, running: true, stopped: false, error: null,
      status: 'solving…', bound: null, sign: p.side_to_move === 'N' ? -1 : 1, total, gotTurns: false };
    const req = Object.assign(params(st.rp, st.start, st.line.slice(0, st.cur)), { token: TOKEN });
    const budget = $('budget') && $('budget').value.trim();
    if (budget) req.time = budget;
    const { src, when } = analysisStream(req, (from) => es === from && an && an.id === id, queueRender);
    es = src;
    when('turns', (d) => {
      an.gotTurns = true;
      an.rows = (d.turns || []).map((t) => ({ index: t.index, turn: t.turn, state: 'pending', lower: null,
        upper: null, value: null, vm: null, pv: null }));
      an.rows.forEach((r) => an.byIndex.set(r.index, r));
    });
    when('status', (d) => { if (d.message) an.status = d.message; });
    // A large position: the anytime analysis' report, each turn's evaluation, depth and
    // proven interval (from South), exact once the interval closes.
    when('estimate', (d) => {
      an.estimate = d;
      for (const t of d.turns || []) {
        const r = an.byIndex.get(t.index);
        if (!r) continue;
        if (t.exact) Object.assign(r, { state: 'exact', value: t.eval, vm: t.eval_mover, pv: r.pv || [r.turn] });
        else Object.assign(r, { state: 'estimate', lower: t.lower, upper: t.upper, ev: t.eval, evm: t.eval_mover, depth: t.depth });
      }
      const b = d.best != null && an.byIndex.get(d.best);
      if (b && d.pv && d.pv.length) b.pv = d.pv;
    });
    // The opening book's entry for a large position (docs/book.md), shown beside the analysis.
    when('book', (d) => { an.book = d; });
    when('bound', (d) => {
      const r = an.byIndex.get(d.index);
      if (!r || r.state === 'exact') return;
      Object.assign(r, { state: 'bound', lower: d.lower, upper: d.upper });
      an.bound = d;
    });
    when('value', (d) => {
      const r = an.byIndex.get(d.index);
      if (r) Object.assign(r, { state: 'exact', value: d.value, vm: d.value_for_mover, pv: d.pv || [r.turn] });
      an.bound = null;
    });
    when('done', (d) => {
      closeES();
      an.done = d;
      an.running = false;
    });
    // A named `error` event carries the server's message; a plain one is the connection.
    when('error', (d) => {
      closeES();
      if (an.done) return;
      an.error = d && d.error ? d.error : 'the analysis stream was lost';
      halt();
    });
    renderAnalysis();
  }
  function halt() {
    an.running = false;
    an.rows.forEach((r) => { if (r.state !== 'exact') r.state = 'stopped'; });
  }
  function stopAnalysis() {
    if (!an || !an.running) return;
    closeES();
    an.stopped = true;
    halt();
    renderAnalysis();
  }

  // A row's value range from South and for the mover; ±Infinity where unbounded.
  function rangeSouth(r) {
    if (r.state === 'exact') return [r.value, r.value];
    return [r.lower == null || r.lower <= -an.total ? -INF : r.lower, r.upper == null || r.upper >= an.total ? INF : r.upper];
  }
  function rangeMover(r) {
    const [lo, hi] = rangeSouth(r);
    return an.sign > 0 ? [lo, hi] : [-hi, -lo];
  }
  // Best first for the mover: exact rows, then rows with bounds, then the pending ones.
  function sortedRows() {
    const key = (r) => {
      const [lo, hi] = rangeMover(r);
      if (r.state === 'estimate') return [1, -r.evm, -hi, r.index];
      return [r.state === 'exact' ? 0 : lo > -INF || hi < INF ? 1 : 2, -lo, -hi, r.index];
    };
    const keyed = an.rows.map((r) => [key(r), r]);
    keyed.sort((a, b) => {
      for (let i = 0; i < 4; i++) if (a[0][i] !== b[0][i]) return a[0][i] < b[0][i] ? -1 : 1;
      return 0;
    });
    return keyed.map((x) => x[1]);
  }
  function topExact() {
    const s = an ? sortedRows() : [];
    return s.length && s[0].state === 'exact' ? s[0] : null;
  }
  // The best turn: done's, else the top exact row once no other row can beat it.
  function bestRow() {
    if (!an) return null;
    if (an.done && an.done.best != null) return an.byIndex.get(an.done.best) || null;
    const top = topExact();
    return top && an.rows.every((r) => r === top || rangeMover(r)[1] <= top.vm) ? top : null;
  }
  function currentPV() {
    if (!an) return [];
    if (an.done && !an.done.over && an.done.pv && an.done.pv.length) return an.done.pv;
    const b = bestRow() || topExact();
    return b && b.pv ? b.pv : [];
  }

  // ---- rendering ----
  function queueRender() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; renderAnalysis(); });
  }
  function renderAll() {
    renderBoard();
    renderMoves();
    $('position-text').value = st.pos ? st.pos.position : '';
    syncRulesForm();
    renderAnalysis();
  }

  function buildBoard(h) {
    const b = $('board');
    b.textContent = '';
    b.style.setProperty('--h', h);
    const store = (side, bin, col) => {
      const s = mk('div', { class: 'store ' + side, id: 'store-' + side },
        mk('span', { class: 'store-name' }, SIDE[side[0].toUpperCase()]), mk('span', { class: 'count' }, '0'),
        mk('span', { class: 'bin' }, String(bin)));
      s.style.gridColumn = String(col);
      return s;
    };
    const cell = (side, bin, col, row) => {
      const btn = mk('button', { class: 'house', type: 'button', 'data-bin': bin }, mk('span', { class: 'count' }, '0'));
      const c = mk('div', { class: 'cell ' + side }, mk('span', { class: 'bin' }, String(bin)), btn,
        mk('span', { class: 'badge', hidden: true }));
      c.style.gridColumn = String(col);
      c.style.gridRow = String(row);
      btn.addEventListener('click', () => clickHouse(bin, c));
      return c;
    };
    b.append(store('north', 2 * h + 2, 1));
    // North's bins H+2..2H+1 run right to left along the top, South's 1..H left to right.
    for (let c = 1; c <= h; c++) b.append(cell('north', 2 * h + 2 - c, c + 1, 1));
    for (let c = 1; c <= h; c++) b.append(cell('south', c, c + 1, 2));
    b.append(store('south', h + 1, h + 2));
    boardH = h;
    buildEditor(h);
  }

  // The position the board shows: the preview's, else the current one.
  const shown = () => (pvw && pvw.pos ? pvw.pos : st.pos);

  function renderBoard() {
    const p = shown();
    if (!p) return;
    const h = p.rules.houses;
    if (h !== boardH) buildBoard(h);
    const b = $('board');
    const live = p === st.pos;
    b.dataset.side = p.side_to_move;
    b.dataset.position = p.position;
    b.classList.toggle('previewing', !live);
    const legal = new Map();
    if (!p.over) for (const m of p.legal) legal.set(m.bin, (legal.get(m.bin) || 0) + 1);
    const last = p.history.length ? p.history[p.history.length - 1].bin : 0;
    b.querySelectorAll('.house').forEach((btn) => {
      const bin = binOf(btn.dataset.bin);
      const n = bin <= h ? p.south[bin - 1] : p.north[bin - h - 2];
      const ok = live && legal.has(bin);
      btn.firstChild.textContent = String(n);
      btn.disabled = !ok;
      btn.classList.toggle('legal', legal.has(bin));
      btn.classList.toggle('empty', n === 0);
      btn.classList.toggle('last', bin === last);
      btn.setAttribute('aria-label', 'bin ' + bin + ', ' + seeds(n) + (ok ? legal.get(bin) > 1 ? ', choose a direction' : ', sow' : ''));
    });
    for (const [side, n] of [['south', p.south_store], ['north', p.north_store]]) {
      const s = $('store-' + side);
      s.querySelector('.count').textContent = String(n);
      s.setAttribute('aria-label', SIDE[side[0].toUpperCase()] + ' store, ' + seeds(n));
    }
    $('side-to-move').textContent = SIDE[p.side_to_move];
    $('side-to-move').className = p.side_to_move === 'N' ? 'north' : 'south';
    $('over-note').hidden = !(p.over && p.result);
    if (p.over && p.result) {
      $('over-note').textContent = 'Game over: South ' + p.result.south + ', North ' + p.result.north + ' — ' + wins(p.result.value);
    }
    $('preview-banner').hidden = !pvw;
    if (pvw) {
      $('preview-banner').textContent = 'Previewing the principal variation, turn ' + pvw.k + ' of ' + pvw.pv.length +
        ' (' + pvw.pv.slice(0, pvw.k).join(' ') + '). Esc or Back returns to the position.';
    }
    renderBadges();
  }

  // Each legal house: the best value for the mover of the turns starting with its sowing.
  function renderBadges() {
    const p = st.pos;
    const byBin = new Map();
    if (an && !pvw && p && !p.over) {
      for (const r of an.rows) {
        const first = sowingsOf(r.turn)[0], bin = binOf(first);
        if (!byBin.has(bin)) byBin.set(bin, { rows: [], moves: new Map() });
        const e = byBin.get(bin);
        e.rows.push(r);
        e.moves.set(first, (e.moves.get(first) || []).concat(r));
      }
    }
    const best = bestRow();
    const bestBin = best ? binOf(best.turn) : 0;
    const summary = (rows) => {
      let lo = -INF, hi = -INF;
      for (const r of rows) {
        const [l, u] = rangeMover(r);
        lo = Math.max(lo, l);
        hi = Math.max(hi, u);
      }
      const exact = lo === hi;
      const est = rows.filter((r) => r.state === 'estimate');
      if (!exact && est.length) {
        const ev = Math.max(...est.map((r) => r.evm));
        return { text: '≈' + fmt(ev), exact: false, stopped: false };
      }
      return { text: exact ? fmt(lo) : fmtRange(lo, hi), exact, stopped: rows.some((r) => r.state === 'stopped') };
    };
    $('board').querySelectorAll('.cell').forEach((c) => {
      const bin = binOf(c.querySelector('.house').dataset.bin);
      const badge = c.querySelector('.badge');
      const e = byBin.get(bin);
      c.classList.toggle('best', !!e && bin === bestBin);
      badge.hidden = !e;
      if (!e) return;
      const s = summary(e.rows);
      badge.textContent = s.text;
      badge.className = 'badge ' + (s.exact ? 'exact' : s.stopped ? 'stopped' : 'bound');
      badge.title = (s.exact ? 'Value' : 'Bound on the value') + ' for ' + SIDE[p.side_to_move] +
        ' (to move) of the best turn starting with bin ' + bin;
      c.querySelectorAll('.dir').forEach((d) => {
        const rows = e.moves.get(d.dataset.move);
        d.querySelector('.dir-value').textContent = rows ? summary(rows).text : '';
      });
    });
  }

  function clickHouse(bin, cell) {
    const p = st.pos;
    if (!p || pvw) return;
    const moves = p.legal.filter((m) => m.bin === bin);
    if (moves.length < 2) { if (moves.length) play([moves[0].move]); return; }
    const open = cell.querySelector('.dirs');
    closeDirs();
    if (open) return;
    // Ethiopian: one button per direction. Counter-clockwise runs left to right along
    // South's row and right to left along North's.
    const box = mk('div', { class: 'dirs', role: 'group', 'aria-label': 'Direction for bin ' + bin });
    for (const m of moves) {
      const right = (p.side_to_move === 'S') !== m.clockwise;
      const title = 'Sow bin ' + bin + (m.clockwise ? ' clockwise' : ' counter-clockwise') + ' (' + m.move + ')';
      const d = mk('button', { class: 'dir', type: 'button', title, 'data-move': m.move, 'aria-label': title },
        mk('span', { class: 'dir-arrow' }, right ? '→' : '←'), mk('span', {}, m.move), mk('span', { class: 'dir-value' }));
      d.addEventListener('click', (e) => { e.stopPropagation(); closeDirs(); play([m.move]); });
      if (right) box.append(d); else box.prepend(d);
    }
    cell.append(box);
    renderBadges();
    box.querySelector('.dir').focus();
  }
  function closeDirs() {
    document.querySelectorAll('.dirs').forEach((d) => d.remove());
  }

  // The move list: one line per turn, each sowing a button going to the point after it.
  function renderMoves() {
    const box = $('moves');
    const ply = (k, text) => {
      const b = mk('button', { class: 'ply' + (k === st.cur ? ' current' : k > st.cur ? ' future' : ''), type: 'button',
        'data-ply': k }, text);
      if (k === st.cur) b.setAttribute('aria-current', 'step');
      b.addEventListener('click', () => goTo(k));
      return b;
    };
    const start = mk('div', { class: 'mv-start' }, ply(0, 'start'));
    if (st.start) start.append(mk('span', { class: 'mv-from', title: st.start }, st.start));
    const ol = mk('ol', { class: 'mv-list' });
    let li = null, n = 0;
    st.line.forEach((m, i) => {
      const h = st.hist[i];
      if (li) li.append(mk('span', { class: 'mv-dash' }, '-'));
      else {
        li = mk('li', { class: 'mv-turn ' + (h ? (h.side === 'S' ? 'south' : 'north') : '') },
          mk('span', { class: 'mv-num' }, ++n + '.'), mk('span', { class: 'mv-side' }, h ? SIDE[h.side] : ''));
        ol.append(li);
      }
      li.append(ply(i + 1, m));
      if (!h || !h.extra_turn) li = null;
    });
    box.replaceChildren(start, ol);
    const cur = box.querySelector('.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
    $('undo').disabled = st.cur === 0;
    $('redo').disabled = st.cur >= st.line.length;
  }

  function renderAnalysis() {
    renderBadges();
    $('stop').disabled = !(an && an.running);
    $('analyse').disabled = !!(an && an.running);
    const p = st.pos, box = $('turns');
    if (!an || !p) return;
    $('mover-head').textContent = 'For ' + SIDE[p.side_to_move];
    const rows = sortedRows(), best = bestRow();
    const old = new Map();
    box.querySelectorAll('.turn').forEach((e) => old.set(e.dataset.key, e));
    for (const r of rows) {
      const key = an.id + ':' + r.index;
      let e = old.get(key);
      old.delete(key);
      if (!e) {
        e = mk('button', { class: 'turn', type: 'button', 'data-key': key, 'data-turn': r.turn },
          mk('span', { class: 'turn-name' }, r.turn), mk('span', { class: 'turn-value' }), mk('span', { class: 'turn-mover' }),
          mk('span', { class: 'turn-pv' }));
        e.addEventListener('click', () => play(sowingsOf(r.turn)));
        e.addEventListener('mouseenter', () => hintBin(binOf(r.turn)));
        e.addEventListener('mouseleave', () => hintBin(0));
      }
      e.dataset.state = r.state;
      if (r.state === 'exact') e.dataset.value = String(r.value); else delete e.dataset.value;
      const stopped = r.state === 'stopped', s = rangeSouth(r), m = rangeMover(r);
      const none = s[0] === -INF && s[1] === INF;
      const est = r.state === 'estimate';
      const value = est ? '≈' + fmt(r.ev) : stopped && none ? '—' : fmtRange(s[0], s[1]);
      e.children[1].textContent = value;
      e.children[2].textContent = est ? '≈' + fmt(r.evm) : stopped && none ? '' : fmtRange(m[0], m[1]);
      e.children[3].textContent = est ? 'depth ' + r.depth + ', proven ' + fmtRange(s[0], s[1]) +
        (r.pv ? ' · ' + r.pv.slice(1).join(' ') : '') :
        r.pv ? r.pv.slice(1).join(' ') : r.state === 'bound' ? 'proving…' : stopped ? 'stopped' : '';
      e.classList.toggle('best', r === best);
      e.title = 'Play ' + r.turn + (r.pv ? ' — line: ' + r.pv.join(' ') : '') +
        (r.state === 'bound' ? ' (bounds: still being proved)' : '');
      e.setAttribute('aria-label', 'turn ' + r.turn + ', ' + (r.state === 'exact' ? 'value ' : r.state + ', ') + value);
      box.append(e); // in sorted order
    }
    old.forEach((e) => e.remove());
    if (an.done && rows.every((r) => r.state === 'exact')) box.dataset.complete = 'true';
    else delete box.dataset.complete;
    $('turns-note').textContent = !an.gotTurns && an.running ? 'listing the turns…' :
      an.gotTurns && !rows.length ? 'No turn to play: the game is over.' : '';
    renderStatus();
    renderValue();
    renderPV();
    renderPie();
  }

  function hintBin(bin) {
    document.querySelectorAll('.cell.hint').forEach((c) => c.classList.remove('hint'));
    const btn = !pvw && document.querySelector('.house[data-bin="' + bin + '"]');
    if (btn) btn.parentNode.classList.add('hint');
  }

  function renderStatus() {
    const s = $('status');
    const solved = an.rows.filter((r) => r.state === 'exact').length, n = an.rows.length;
    let text;
    const rep = an.estimate;
    if (an.error) text = 'Analysis failed: ' + an.error;
    else if (an.done && an.done.exact === false) {
      text = 'Not proved within ' + secs(an.done.budget || 0) + ': depth ' + an.done.depth + ', heuristic ≈' +
        fmt(an.done.eval) + ' for South, proven ' + fmtRange(an.done.lower, an.done.upper) + ' (' +
        nodes(an.done.nodes) + ' nodes' + (an.done.egdb_file ? ', endgame database ' +
        an.done.egdb_file.split(/[\\/]/).pop() : '') + '). Raise the time budget and analyse again for more.';
    } else if (an.done && an.done.budget != null) {
      text = 'Proved by the analysis in ' + secs(an.done.seconds || 0) + ', ' + nodes(an.done.nodes) + ' nodes.';
    } else if (rep && !an.done && !an.stopped) {
      text = 'analysing… depth ' + rep.depth + ', ≈' + fmt(rep.eval) + ' for South, proven ' +
        fmtRange(rep.lower, rep.upper) + ' (' + nodes(rep.nodes) + ' nodes, ' + secs(rep.seconds || 0) +
        ' of ' + secs(rep.budget || 0) + ')';
    } else if (an.done) {
      text = an.done.over ? 'The game is over: nothing to solve.' :
        'Solved in ' + secs(an.done.seconds || 0) +
        (!(st.pos && st.pos.rules.cyclic) ? ', ' + nodes(an.done.nodes) + ' nodes.' :
          ' by retrograde analysis' + (an.done.nodes ? ' of ' + nodes(an.done.nodes) + ' positions.' : '.'));
    } else if (an.stopped) text = 'Stopped: ' + solved + ' of ' + n + ' turns solved. Analyse starts again.';
    else if (!an.gotTurns || !n) text = an.status;
    else {
      text = 'solving… ' + solved + ' of ' + n + ' turns solved';
      const r = an.bound && an.byIndex.get(an.bound.index);
      if (r) {
        const [lo, hi] = rangeSouth(r);
        text += ' — proving ' + r.turn + ': ' + fmtRange(lo, hi) + ' (' + nodes(an.bound.nodes) + ' nodes, ' +
          secs(an.bound.seconds || 0) + ')';
      } else if (!solved && an.status !== 'solving…') text += ' — ' + an.status;
    }
    const b = an.book;
    if (b && !an.error) {
      text += ' Opening book: ' + b.best_turn + ', depth ' + b.depth + ', ' + (b.exact ? '' : '≈') +
        fmt(b.eval) + ' for South, proven ' + fmtRange(b.lower, b.upper) + '.';
    }
    s.textContent = text;
    s.classList.toggle('failed', !!an.error);
    s.classList.toggle('running', an.running);
  }

  function renderValue() {
    const e = $('value'), p = st.pos;
    delete e.dataset.value;
    if (an.done && an.done.value != null) {
      const v = an.done.value;
      e.dataset.value = String(v);
      e.textContent = an.done.over ? 'Value: ' + fmt(v) + ' for South (the game is over: ' + wins(v) + ')' :
        'Value: ' + (v ? fmt(v) + ' for South' : '0') + ' (' + wins(v) + ' under perfect play)' +
        (an.done.best_turn ? ' · best turn ' + an.done.best_turn : '');
      return;
    }
    const rep = an.done && an.done.exact === false ? an.done : !an.done && an.estimate;
    if (rep) {
      e.textContent = 'Heuristic: ≈' + fmt(rep.eval) + ' for South, the value proven in ' + fmtRange(rep.lower, rep.upper) +
        (rep.best_turn ? ' · best turn so far ' + rep.best_turn : '');
      return;
    }
    const ex = an.rows.filter((r) => r.state === 'exact');
    if (ex.length) {
      const v = an.sign * Math.max(...ex.map((r) => r.vm));
      e.textContent = 'Value: ' + (an.sign > 0 ? '≥ ' : '≤ ') + fmt(v) + ' for South' +
        (an.running ? ' (so far)' : ' (not every turn solved)');
    } else if (p.over && p.result) {
      e.textContent = 'Value: ' + fmt(p.result.value) + ' for South (the game is over: ' + wins(p.result.value) + ')';
    } else e.textContent = 'Value: …';
  }

  function renderPV() {
    const box = $('pv');
    const pv = pvw ? pvw.pv : currentPV();
    const k = pvw ? pvw.k : 0;
    $('pv-prev').disabled = $('pv-back').disabled = !pvw;
    $('pv-next').disabled = k >= pv.length;
    $('pv-play').disabled = !k;
    const key = pv.join(' ') + '|' + k + '|' + !!(an && an.running);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.textContent = '';
    if (!pv.length) box.append(mk('span', { class: 'hint' }, an && an.running ? 'waiting for the first exact turn…' : '—'));
    let side = st.pos ? st.pos.side_to_move : 'S';
    pv.forEach((t, i) => {
      const c = mk('button', { class: 'pv-turn ' + (side === 'S' ? 'south' : 'north') + (k === i + 1 ? ' current' : ''),
        type: 'button', title: SIDE[side] + ' plays ' + t + ': show the position after it' }, t);
      c.addEventListener('click', () => preview(i + 1, pv));
      box.append(c);
      side = side === 'S' ? 'N' : 'S';
    });
  }

  function renderPie() {
    const e = $('pie');
    const pie = an.done && an.done.pie;
    const key = an.id + JSON.stringify(pie);
    if (e.dataset.key === key) return;
    e.dataset.key = key;
    e.hidden = !pie;
    e.textContent = '';
    if (!pie) return;
    e.append(mk('strong', {}, 'Pie rule: '));
    if (pie.kind === 'choose') {
      const t = (pie.turns || []).find((x) => x.index === pie.best) || an.byIndex.get(pie.best) || {};
      const v = pie.value;
      e.append('with the swap offered, South should open with ' + (t.turn || '?') + '; the game is then worth ' + fmt(v) +
        ' for South, the first player (' + (v > 0 ? 'South wins by ' + v : v < 0 ? 'South loses by ' + -v : 'a draw') + ').');
      if (pie.turns && pie.turns.length) {
        e.append(mk('details', {}, mk('summary', {}, 'every first turn'), mk('ul', {}, ...pie.turns.map((c) =>
          mk('li', {}, c.turn + ': ' + fmt(c.value) + ' → ' + (c.swap ? 'North swaps' : 'North keeps the sides') +
            ', South ends ' + fmt(c.first_player))))));
      }
    } else if (pie.kind === 'decide') {
      const v = pie.value;
      e.append((pie.swap ? 'North should swap' : 'North should not swap') + ': the position is worth ' + fmt(v) +
        ' for South' + (pie.swap ? ', so North takes South\'s side' : v ? ', so North keeps the sides' : ' (a draw either way)') +
        '; the first player ends ' + fmt(pie.first_player) + '.');
    }
  }

  // ---- principal variation preview ----
  async function preview(k, pv) {
    pv = pv || (pvw ? pvw.pv : currentPV());
    if (k <= 0 || !pv.length) { leavePreview(true); return; }
    k = Math.min(k, pv.length);
    closeDirs();
    pvw = { pv: pv.slice(), k, pos: pvw ? pvw.pos : null };
    const my = ++pvSeq;
    renderPV();
    try {
      const pos = await api(params(st.rp, st.start, st.line.slice(0, st.cur).concat(...pv.slice(0, k).map(sowingsOf))));
      if (my !== pvSeq || !pvw) return;
      pvw.pos = pos;
      renderBoard();
      renderPV();
    } catch (e) {
      if (my === pvSeq) { leavePreview(true); setError(e.message); }
    }
  }
  function leavePreview(redraw) {
    if (!pvw) return;
    pvw = null;
    pvSeq++;
    if (redraw) { renderBoard(); renderPV(); }
  }
  function playPreview() {
    if (!pvw || !pvw.k) return;
    const moves = [].concat(...pvw.pv.slice(0, pvw.k).map(sowingsOf));
    leavePreview(false);
    play(moves);
  }

  // ---- position editor ----
  function buildEditor(h) {
    const g = $('edit-grid');
    g.textContent = '';
    g.style.setProperty('--h', h);
    const input = (id, label, col, row) => {
      const i = mk('input', { type: 'number', min: 0, max: 255, step: 1, id });
      const l = mk('label', { class: 'edit-cell' }, mk('span', { class: 'bin' }, label), i);
      l.style.gridColumn = String(col);
      l.style.gridRow = String(row);
      i.addEventListener('input', editTotal);
      g.append(l);
    };
    input('edit-store-north', 'N store', 1, '1 / span 2');
    for (let c = 1; c <= h; c++) input('edit-house-' + (2 * h + 2 - c), String(2 * h + 2 - c), c + 1, 1);
    for (let c = 1; c <= h; c++) input('edit-house-' + c, String(c), c + 1, 2);
    input('edit-store-south', 'S store', h + 2, '1 / span 2');
  }
  function openEditor() {
    const p = shown();
    if (!p) return;
    const h = p.rules.houses;
    for (let j = 0; j < h; j++) {
      $('edit-house-' + (j + 1)).value = p.south[j];
      $('edit-house-' + (h + 2 + j)).value = p.north[j];
    }
    $('edit-store-south').value = p.south_store;
    $('edit-store-north').value = p.north_store;
    $('edit-side').value = p.side_to_move;
    $('editor').hidden = false;
    $('edit').setAttribute('aria-expanded', 'true');
    editTotal();
    $('edit-house-1').focus();
  }
  function closeEditor() {
    $('editor').hidden = true;
    $('edit').setAttribute('aria-expanded', 'false');
  }
  // The editor's counts in notation order: South's houses, South's store, North's, North's store.
  function editValues() {
    const v = (id) => (/^\d+$/.test($(id).value.trim()) ? parseInt($(id).value, 10) : NaN);
    const out = [];
    for (let j = 1; j <= boardH; j++) out.push(v('edit-house-' + j));
    out.push(v('edit-store-south'));
    for (let j = 0; j < boardH; j++) out.push(v('edit-house-' + (boardH + 2 + j)));
    out.push(v('edit-store-north'));
    return out;
  }
  function editTotal() {
    const all = editValues();
    $('edit-total').textContent = all.some(isNaN) ? 'every count is a whole number' : seeds(all.reduce((a, b) => a + b, 0)) + ' in all';
  }
  function applyEditor() {
    const all = editValues();
    if (all.some(isNaN)) { setError('The position editor needs a whole number (0 or more) in every house and store.'); return; }
    newStart(all.join(',') + ':' + $('edit-side').value, []).then((ok) => { if (ok) closeEditor(); });
  }

  // A new start position (board notation) with `moves` played from it. A `houses`
  // parameter that disagrees with the position's board is dropped (inferred from it).
  function newStart(text, moves) {
    const rp = Object.assign({}, st.rp);
    if (rp.houses && (text.split(':')[0].split(',').length - 2) / 2 !== Number(rp.houses)) delete rp.houses;
    return go({ rp, start: text, line: moves, hist: [], cur: moves.length });
  }

  // ---- notation fields ----
  // A position (it has a ':'), optionally followed by moves; a link; else a move list
  // played from the current start position.
  function pasteGo() {
    const raw = $('paste').value.trim();
    let ok;
    if (!raw) return;
    if (/^https?:\/\//i.test(raw)) {
      let q;
      try { q = new URL(raw).searchParams; } catch (e) { setError('Not a link: ' + raw); return; }
      const rp = {}, line = sowingsOf(q.get('moves'));
      for (const k of RULE_KEYS) if (q.get(k)) rp[k] = q.get(k);
      ok = go({ rp, start: q.get('position') || null, line, cur: line.length });
    } else if (raw.includes(':')) {
      const m = /^([\d\s,]*:\s*[A-Za-z]+)(.*)$/s.exec(raw);
      if (!m) { setError('A position is written as counts and the side to move, e.g. 4,4,4,4,4,4,0,4,4,4,4,4,4,0:S'); return; }
      ok = newStart(m[1].replace(/\s+/g, ''), sowingsOf(m[2]));
    } else {
      const line = sowingsOf(raw);
      ok = go({ rp: st.rp, start: st.start, line, cur: line.length });
    }
    ok.then((done) => { if (done) $('paste').value = ''; });
  }

  async function copyText(text, btn) {
    let ok = false;
    try {
      if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); ok = true; }
    } catch (e) { /* try the old way */ }
    if (!ok) {
      const t = mk('textarea', { value: text, readOnly: true });
      t.style.position = 'fixed';
      t.style.opacity = '0';
      document.body.append(t);
      t.select();
      try { ok = document.execCommand('copy'); } catch (e) { /* not allowed */ }
      t.remove();
    }
    btn.dataset.label = btn.dataset.label || btn.textContent;
    btn.textContent = ok ? 'Copied' : 'Copy failed';
    setTimeout(() => { btn.textContent = btn.dataset.label; }, 1200);
  }

  // ---- rules panel ----
  const optionSelects = () => document.querySelectorAll('select[data-opt]');
  function fillRulesForm() {
    const o = st.options || {};
    $('preset').replaceChildren(...(o.presets || [{ name: 'kalah' }]).map((p) =>
      mk('option', { value: p.name, title: p.description || '' }, p.name)));
    // Bao la Kujifunza has a board of its own (bao.js), chosen here like a preset.
    $('preset').append(mk('option', { value: 'bao', title: 'Bao la Kujifunza: four rows of pits (docs/bao.md)' }, 'bao'));
    if (document.body.dataset.game === 'bao') $('preset').value = 'bao';
    if (o.max_houses) $('houses').max = String(o.max_houses);
    for (const s of optionSelects()) {
      s.replaceChildren(mk('option', { value: '' }, 'preset default'),
        ...((o.options || {})[s.dataset.opt] || []).map((v) => mk('option', { value: v }, v)));
    }
  }
  // The preset's description and, beside each option, the value the preset gives it.
  function presetDefaults() {
    const info = ((st.options || {}).presets || []).find((p) => p.name === $('preset').value);
    const r = info && info.rules;
    document.body.dataset.preset = $('preset').value;
    $('preset-desc').textContent = (info && info.description) ||
      ($('preset').value === 'bao' ? 'Bao la Kujifunza: four rows of pits, moves such as A3+ and b8- (docs/bao.md)' : '');
    const note = (s, v) => {
      let n = s.parentNode.querySelector('.preset-value');
      if (!n) s.before(n = mk('span', { class: 'preset-value' }));
      n.textContent = v ? 'preset: ' + v : '';
    };
    for (const s of optionSelects()) note(s, r ? r[s.dataset.opt] || 'none' : '');
    note($('early-stop'), r ? (r.early_stop ? 'on' : 'off') : '');
  }
  function syncRulesForm() {
    const p = st.pos;
    const key = p ? JSON.stringify(st.rp) + '|' + p.rules.text : '';
    if (!p || key === synced) return;
    synced = key;
    $('preset').value = st.rp.rules || 'kalah';
    if (!$('preset').value) $('preset').value = 'kalah';
    $('houses').value = p.rules.houses;
    $('seeds').value = p.rules.seeds;
    for (const s of optionSelects()) s.value = st.rp[s.dataset.opt] || '';
    $('early-stop').value = st.rp.early_stop || '';
    presetDefaults();
    $('rules-text').textContent = $('rules-line').textContent = p.rules.text;
    document.title = 'kalah · ' + p.rules.text.split(' ')[0] + ' · analysis board';
  }
  // Only what differs from the defaults goes into the parameters (and the address bar).
  function applyRules() {
    const rp = {}, preset = $('preset').value, hs = $('houses').value.trim(), ss = $('seeds').value.trim();
    const other = renderer(preset);
    if (other) {
      closeES();
      if (an) halt();
      other.enter({ houses: hs, seeds: ss });
      return;
    }
    const bao = renderer('bao');
    if (bao && bao.active()) bao.leave();
    if (preset && preset !== 'kalah') rp.rules = preset;
    if (hs && hs !== '6') rp.houses = hs;
    if (ss && ss !== '4') rp.seeds = ss;
    for (const s of optionSelects()) if (s.value) rp[s.dataset.opt] = s.value;
    if ($('early-stop').value) rp.early_stop = $('early-stop').value;
    synced = '';
    go({ rp, start: null, line: [], cur: 0 });
  }

  // ---- wiring ----
  function bind() {
    on('undo', 'click', undo);
    on('redo', 'click', redo);
    on('stop', 'click', stopAnalysis);
    on('analyse', 'click', () => { leavePreview(true); startAnalysis(); });
    on('edit', 'click', () => { leavePreview(true); if ($('editor').hidden) openEditor(); else closeEditor(); });
    on('edit-apply', 'click', applyEditor);
    on('edit-cancel', 'click', closeEditor);
    on('editor', 'keydown', (e) => { if (e.key === 'Enter' && e.target.tagName === 'INPUT') applyEditor(); });
    on('pv-prev', 'click', () => { if (pvw) preview(pvw.k - 1); });
    on('pv-next', 'click', () => preview((pvw ? pvw.k : 0) + 1));
    on('pv-play', 'click', playPreview);
    on('pv-back', 'click', () => leavePreview(true));
    on('copy-position', 'click', (e) => copyText($('position-text').value, e.currentTarget));
    on('copy-link', 'click', (e) => copyText(location.href, e.currentTarget));
    on('paste-go', 'click', pasteGo);
    on('paste', 'keydown', (e) => { if (e.key === 'Enter') pasteGo(); });
    on('rules-apply', 'click', applyRules);
    on('preset', 'change', presetDefaults);
    on('error', 'click', () => setError(''));
    document.addEventListener('click', (e) => { if (!e.target.closest('.dirs, .house')) closeDirs(); });
    document.addEventListener('keydown', (e) => {
      if (document.body.dataset.game === 'bao') return; // bao.js has the keys
      if (e.key === 'Escape') {
        if (document.querySelector('.dirs')) closeDirs();
        else if (pvw) leavePreview(true);
        else if (!$('editor').hidden) closeEditor();
        return;
      }
      if (e.target.closest && e.target.closest('input, select, textarea, [contenteditable]')) return;
      const mod = e.ctrlKey || e.metaKey, key = e.key.toLowerCase(), plain = !mod && !e.altKey && !e.shiftKey;
      if ((plain && e.key === 'ArrowLeft') || (mod && !e.shiftKey && key === 'z')) { e.preventDefault(); undo(); }
      else if ((plain && e.key === 'ArrowRight') || (mod && (key === 'y' || (e.shiftKey && key === 'z')))) { e.preventDefault(); redo(); }
    });
    window.addEventListener('beforeunload', closeES);
  }

  // The renderer of the board the rules name, where it is not the sowing board of this
  // file: Bao's four rows (bao.js) for `bao`; null for the sowing games.
  function renderer(rules) {
    return rules === 'bao' ? window.kalahBao || null : null;
  }

  // Reads the state from the address bar. A link that cannot be shown as it is falls back
  // to the longest playable part of its moves, then to the start, then to the defaults.
  async function init() {
    setBusy(1);
    bind();
    try {
      try {
        const r = await fetch('api/options', { headers: { 'X-Kalah-Token': TOKEN } });
        if (r.ok) st.options = await r.json();
      } catch (e) { /* the panel keeps its defaults */ }
      fillRulesForm();
      const q = new URLSearchParams(location.search);
      const other = renderer(q.get('rules'));
      if (other) { // a link to a board of another kind: its renderer shows it
        await other.enter({ houses: q.get('houses') || q.get('pits'), seeds: q.get('seeds') }, q.get('position'),
          other.movesOf(q.get('moves')));
        return;
      }
      const rp = {}, start = q.get('position') || null, line = sowingsOf(q.get('moves'));
      for (const k of RULE_KEYS) if (q.get(k)) rp[k] = q.get(k);
      let ok = await go({ rp, start, line, cur: line.length });
      const first = ok ? '' : lastErr;
      let note = '';
      if (!ok && line.length) {
        let lo = 0, hi = line.length; // a prefix of a playable line is playable
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          try { await api(params(rp, start, line.slice(0, mid))); lo = mid; } catch (e) { hi = mid; }
        }
        ok = await go({ rp, start, line: line.slice(0, lo), cur: lo });
        if (ok) note = lo ? ' (showing its first ' + lo + ' of ' + line.length + ' sowings)' : ' (showing no moves)';
      }
      if (!ok && start) ok = await go({ rp, start: null, line: [], cur: 0 });
      if (!ok) await go({ rp: {}, start: null, line: [], cur: 0 });
      if (first) setError('The link could not be shown as it is: ' + first + note);
    } finally {
      setBusy(-1);
    }
  }

  // What the renderers of the other boards (bao.js) share with this one: the page's token,
  // elements, the query string, the position request and the analysis stream.
  window.kalahBoard = { TOKEN, mk, query, api, analysisStream };

  init();
})();
