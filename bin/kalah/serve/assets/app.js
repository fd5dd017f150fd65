// kalah serve: the analysis board (docs/serve.md). Plain JavaScript, no dependencies.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const RULE_KEYS = ['rules', 'houses', 'seeds', 'capture', 'end', 'leftovers', 'grand_slam', 'early_stop'];
  const OPT_KEYS = ['capture', 'end', 'leftovers', 'grand_slam'];
  const MINUS = '\u2212';
  const SIDE = { S: 'South', N: 'North' };

  // The state: rule parameters set (strings), the start position (null: the game's start),
  // the line of sowings, the history entry of each sowing when known, the current point.
  const st = { options: null, rp: {}, start: null, line: [], hist: [], cur: 0, pos: null };
  let an = null; // the analysis of st.pos
  let es = null; // its EventSource
  let pvw = null; // the preview of the principal variation: {pv, k, pos}
  let seq = 0, pvSeq = 0, busy = 0, anId = 0, boardH = 0, syncedRules = '', lastErr = '';
  let renderQueued = false;

  // ---- helpers ----
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  };
  const fmt = (v) => (v > 0 ? '+' + v : v < 0 ? MINUS + -v : '0');
  const fmtB = (v) => (v === Infinity || v === -Infinity ? '' : fmt(v));
  const fmtRange = (lo, hi) => {
    if (lo === hi) return fmt(lo);
    if (lo === -Infinity && hi === Infinity) return '…';
    if (lo === -Infinity) return '≤ ' + fmtB(hi);
    if (hi === Infinity) return '≥ ' + fmtB(lo);
    return fmtB(lo) + ' … ' + fmtB(hi);
  };
  const nodes = (n) => Number(n || 0).toLocaleString('en-US');
  const secs = (s) => (s < 10 ? s.toFixed(2) : s.toFixed(1)) + ' s';
  const sowingsOf = (text) => String(text || '').split(/[\s,;\-]+/).filter(Boolean);
  const bs = (m) => parseInt(m, 10);
  const sideSign = (side) => (side === 'N' ? -1 : 1);

  function params(rp, start, moves) {
    const p = {};
    for (const k of RULE_KEYS) if (rp[k] != null && String(rp[k]).trim() !== '') p[k] = String(rp[k]).trim();
    if (start) p.position = start;
    if (moves && moves.length) p.moves = moves.join(' ');
    return p;
  }
  const enc = (v) => encodeURIComponent(v).replace(/%2C/gi, ',').replace(/%3A/gi, ':');
  const query = (p) => Object.keys(p).map((k) => k + '=' + enc(p[k])).join('&');

  function setBusy(d) {
    busy += d;
    document.body.dataset.busy = busy > 0 ? 'true' : 'false';
  }

  async function api(p) {
    setBusy(1);
    try {
      let r;
      try {
        r = await fetch('api/position', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(p),
        });
      } catch (e) {
        throw new Error('cannot reach the server (is kalah serve still running?)');
      }
      let j = null;
      try { j = await r.json(); } catch (e) { /* not JSON */ }
      if (!r.ok) throw new Error(j && j.error ? j.error : 'the server answered ' + r.status);
      if (!j) throw new Error('the server sent no position');
      return j;
    } finally {
      setBusy(-1);
    }
  }

  function showError(msg) {
    lastErr = msg;
    const e = $('error');
    e.textContent = msg;
    e.hidden = false;
  }
  function clearError() {
    lastErr = '';
    const e = $('error');
    e.textContent = '';
    e.hidden = true;
  }

  // ---- state changes ----
  // Shows `next` ({rp, start, line, hist, cur}): asks the server, then commits, draws and
  // analyses; on an error the previous state stays and the error is shown.
  async function go(next) {
    leavePreview(false);
    closeDirs();
    const my = ++seq;
    let pos;
    try {
      pos = await api(params(next.rp, next.start, next.line.slice(0, next.cur)));
    } catch (e) {
      if (my === seq) showError(e.message);
      return false;
    }
    if (my !== seq) return false;
    clearError();
    st.rp = next.rp;
    st.start = next.start;
    st.line = next.line.slice();
    st.hist = (next.hist || []).slice(0, st.line.length);
    st.cur = next.cur;
    pos.history.forEach((h, i) => { st.line[i] = h.move; st.hist[i] = h; });
    st.pos = pos;
    updateURL();
    renderAll();
    startAnalysis();
    return true;
  }
  const here = () => ({ rp: st.rp, start: st.start, line: st.line, hist: st.hist, cur: st.cur });
  const goTo = (k) => go(Object.assign(here(), { cur: Math.max(0, Math.min(st.line.length, k)) }));
  function play(moves) {
    const line = st.line.slice(0, st.cur).concat(moves);
    return go({ rp: st.rp, start: st.start, line, hist: st.hist.slice(0, st.cur), cur: line.length });
  }
  const undo = () => { leavePreview(true); if (st.cur > 0) goTo(st.cur - 1); };
  const redo = () => { leavePreview(true); if (st.cur < st.line.length) goTo(st.cur + 1); };

  // The moves to st.cur as turns: `3-6,9`.
  function movesText(n) {
    let s = '';
    for (let i = 0; i < n; i++) {
      s += st.line[i];
      if (i < n - 1) s += st.hist[i] && st.hist[i].extra_turn ? '-' : ',';
    }
    return s;
  }
  function updateURL() {
    const p = params(st.rp, st.start, null);
    if (st.cur > 0) p.moves = movesText(st.cur);
    const q = query(p);
    try { history.replaceState(null, '', location.pathname + (q ? '?' + q : '')); } catch (e) { /* file: */ }
  }

  // ---- analysis ----
  function closeES() {
    if (es) { es.close(); es = null; }
  }
  function totalSeeds(p) {
    return p.south.concat(p.north).reduce((a, b) => a + b, 0) + p.south_store + p.north_store;
  }
  function startAnalysis() {
    closeES();
    const p = st.pos;
    if (!p) return;
    const id = ++anId;
    an = { id, rows: [], byIndex: new Map(), done: null, running: true, stopped: false, error: null,
      status: 'solving…', bound: null, sign: sideSign(p.side_to_move), total: totalSeeds(p), gotTurns: false };
    const src = new EventSource('api/analyse?' + query(params(st.rp, st.start, st.line.slice(0, st.cur))));
    es = src;
    const on = (name, f) => src.addEventListener(name, (e) => {
      if (es !== src || !an || an.id !== id) return;
      let d = null;
      if (e.data != null) { try { d = JSON.parse(e.data); } catch (x) { d = null; } }
      f(d, e);
      queueRender();
    });
    on('turns', (d) => {
      if (!d) return;
      an.gotTurns = true;
      an.rows = (d.turns || []).map((t) => ({ index: t.index, turn: t.turn, after: t.after, state: 'pending',
        lower: null, upper: null, value: null, vm: null, pv: null }));
      an.rows.forEach((r) => an.byIndex.set(r.index, r));
    });
    on('status', (d) => { if (d && d.message) an.status = d.message; });
    on('bound', (d) => {
      const r = d && an.byIndex.get(d.index);
      if (!r || r.state === 'exact') return;
      r.state = 'bound'; r.lower = d.lower; r.upper = d.upper;
      an.bound = d;
    });
    on('value', (d) => {
      const r = d && an.byIndex.get(d.index);
      if (!r) return;
      Object.assign(r, { state: 'exact', value: d.value, vm: d.value_for_mover, pv: d.pv || [d.turn || r.turn] });
      an.bound = null;
    });
    on('done', (d) => {
      closeES();
      an.done = d || {};
      an.running = false;
    });
    src.addEventListener('error', (e) => {
      if (es !== src || !an || an.id !== id) return;
      let msg = 'the analysis stream was lost';
      if (e.data != null) {
        try { msg = JSON.parse(e.data).error || msg; } catch (x) { msg = String(e.data); }
      }
      closeES();
      if (!an.done) {
        an.error = msg; an.running = false;
        an.rows.forEach((r) => { if (r.state !== 'exact') r.state = 'stopped'; });
      }
      queueRender();
    });
    renderAnalysis();
  }
  function stopAnalysis() {
    if (!an || !an.running) return;
    closeES();
    an.running = false; an.stopped = true;
    an.rows.forEach((r) => { if (r.state !== 'exact') r.state = 'stopped'; });
    renderAnalysis();
  }

  // A row's value range for the mover, and from South; ±Infinity where unbounded.
  function rangeSouth(r) {
    if (r.state === 'exact') return [r.value, r.value];
    const T = an.total;
    const lo = r.lower == null || r.lower <= -T ? -Infinity : r.lower;
    const hi = r.upper == null || r.upper >= T ? Infinity : r.upper;
    return [lo, hi];
  }
  function rangeMover(r) {
    const [lo, hi] = rangeSouth(r);
    return an.sign > 0 ? [lo, hi] : [-hi, -lo];
  }
  function sortedRows() {
    const key = (r) => {
      const [lo, hi] = rangeMover(r);
      const known = lo !== -Infinity || hi !== Infinity;
      return [r.state === 'exact' ? 0 : known ? 1 : 2, -lo, -hi, r.index];
    };
    return an.rows.map((r) => [key(r), r]).sort((a, b) => {
      for (let i = 0; i < 4; i++) if (a[0][i] !== b[0][i]) return a[0][i] < b[0][i] ? -1 : 1;
      return 0;
    }).map((x) => x[1]);
  }
  // The best turn: done's, else the top exact row once no other row can beat it.
  function bestRow() {
    if (!an) return null;
    if (an.done && an.done.best != null) return an.byIndex.get(an.done.best) || null;
    const top = topExact();
    return top && an.rows.every((r) => r === top || rangeMover(r)[1] <= top.vm) ? top : null;
  }
  function topExact() {
    const s = an ? sortedRows() : [];
    return s.length && s[0].state === 'exact' ? s[0] : null;
  }
  function currentPV() {
    if (!an) return [];
    if (an.done && !an.done.over && an.done.pv && an.done.pv.length) return an.done.pv;
    const b = bestRow() || topExact();
    return b && b.pv ? b.pv : [];
  }

  // ---- rendering ----
  function queueRender() {
    if (renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(() => { renderQueued = false; renderAnalysis(); });
  }
  function renderAll() {
    renderBoard();
    renderMoves();
    renderNotation();
    syncRulesForm();
    renderAnalysis();
  }

  function buildBoard(h) {
    const b = $('board');
    b.textContent = '';
    b.style.setProperty('--h', h);
    const store = (side, bin, col) => {
      const s = el('div', 'store ' + side);
      s.id = 'store-' + side;
      s.style.gridColumn = String(col);
      s.append(el('span', 'store-name', side === 'north' ? 'North' : 'South'), el('span', 'count', '0'),
        el('span', 'bin', String(bin)));
      return s;
    };
    b.append(store('north', 2 * h + 2, 1));
    const cell = (side, bin, col, row) => {
      const c = el('div', 'cell ' + side);
      c.style.gridColumn = String(col);
      c.style.gridRow = String(row);
      const btn = el('button', 'house');
      btn.type = 'button';
      btn.dataset.bin = String(bin);
      btn.append(el('span', 'count', '0'));
      btn.addEventListener('click', () => clickHouse(bin, c));
      btn.addEventListener('keydown', (e) => { if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') e.stopPropagation(); });
      const badge = el('span', 'badge');
      badge.hidden = true;
      c.append(el('span', 'bin', String(bin)), btn, badge);
      return c;
    };
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
    b.classList.toggle('over', !!p.over);
    const legal = new Map();
    if (!p.over) for (const m of p.legal) legal.set(m.bin, (legal.get(m.bin) || []).concat(m));
    const last = p.history.length ? p.history[p.history.length - 1].bin : null;
    const lastSide = p.history.length ? p.history[p.history.length - 1].side : null;
    b.querySelectorAll('.house').forEach((btn) => {
      const bin = bs(btn.dataset.bin);
      const n = bin <= h ? p.south[bin - 1] : p.north[bin - h - 2];
      btn.querySelector('.count').textContent = String(n);
      const ok = live && legal.has(bin);
      btn.disabled = !ok;
      btn.classList.toggle('legal', !!legal.has(bin));
      btn.classList.toggle('empty', n === 0);
      btn.classList.toggle('last', bin === last && (bin <= h ? 'S' : 'N') === lastSide);
      btn.setAttribute('aria-label', 'bin ' + bin + ', ' + n + (n === 1 ? ' seed' : ' seeds') +
        (ok ? (legal.get(bin).length > 1 ? ', choose a direction' : ', sow') : ''));
    });
    for (const [side, n] of [['south', p.south_store], ['north', p.north_store]]) {
      const s = $('store-' + side);
      s.querySelector('.count').textContent = String(n);
      s.setAttribute('aria-label', (side === 'south' ? 'South' : 'North') + ' store, ' + n + (n === 1 ? ' seed' : ' seeds'));
    }
    $('side-to-move').textContent = SIDE[p.side_to_move];
    $('side-to-move').className = p.side_to_move === 'N' ? 'north' : 'south';
    const over = $('over-note');
    over.hidden = !p.over;
    if (p.over && p.result) {
      const v = p.result.value;
      over.textContent = 'Game over: South ' + p.result.south + ', North ' + p.result.north +
        (v > 0 ? ' — South wins by ' + v : v < 0 ? ' — North wins by ' + -v : ' — a draw');
    }
    const ban = $('preview-banner');
    ban.hidden = !pvw;
    if (pvw) {
      ban.textContent = 'Previewing the principal variation, turn ' + pvw.k + ' of ' + pvw.pv.length +
        ' (' + pvw.pv.slice(0, pvw.k).join(' ') + '). Esc or Back returns to the position.';
    }
    renderBadges();
  }

  function renderBadges() {
    const p = st.pos;
    const b = $('board');
    const byBin = new Map();
    if (an && !pvw && p && !p.over) {
      for (const r of an.rows) {
        const first = sowingsOf(r.turn)[0];
        const bin = bs(first);
        if (!byBin.has(bin)) byBin.set(bin, { rows: [], moves: new Map() });
        const e = byBin.get(bin);
        e.rows.push(r);
        if (!e.moves.has(first)) e.moves.set(first, []);
        e.moves.get(first).push(r);
      }
    }
    const best = bestRow();
    const bestFirst = best ? sowingsOf(best.turn)[0] : null;
    const summary = (rows) => {
      let lo = -Infinity, hi = -Infinity, exact = true;
      for (const r of rows) {
        const [l, u] = rangeMover(r);
        lo = Math.max(lo, l); hi = Math.max(hi, u);
        if (r.state !== 'exact') exact = false;
      }
      return { lo, hi, exact: exact || lo === hi, stopped: rows.some((r) => r.state === 'stopped') };
    };
    b.querySelectorAll('.cell').forEach((c) => {
      const bin = bs(c.querySelector('.house').dataset.bin);
      const badge = c.querySelector('.badge');
      const e = byBin.get(bin);
      if (!e) { badge.hidden = true; c.classList.remove('best'); return; }
      const s = summary(e.rows);
      badge.hidden = false;
      badge.textContent = s.exact ? fmt(s.lo) : fmtRange(s.lo, s.hi);
      badge.className = 'badge ' + (s.exact ? 'exact' : s.stopped ? 'stopped' : 'bound');
      badge.title = (s.exact ? 'Value ' : 'Bound on the value ') + 'for ' + SIDE[p.side_to_move] +
        ' (the mover) of the best turn starting with bin ' + bin;
      c.classList.toggle('best', !!bestFirst && bs(bestFirst) === bin);
      c.querySelectorAll('.dir').forEach((d) => {
        const rows = e.moves.get(d.dataset.move);
        const v = d.querySelector('.dir-value');
        if (!v) return;
        if (!rows) { v.textContent = ''; return; }
        const t = summary(rows);
        v.textContent = t.exact ? fmt(t.lo) : fmtRange(t.lo, t.hi);
      });
    });
  }

  function clickHouse(bin, cell) {
    const p = st.pos;
    if (!p || pvw) return;
    const moves = p.legal.filter((m) => m.bin === bin);
    if (!moves.length) return;
    if (moves.length === 1) { play([moves[0].move]); return; }
    const open = cell.querySelector('.dirs');
    closeDirs();
    if (open) return;
    const box = el('div', 'dirs');
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', 'Direction for bin ' + bin);
    for (const m of moves) {
      const d = el('button', 'dir');
      d.type = 'button';
      d.dataset.move = m.move;
      // Counter-clockwise runs left to right along South's row, right to left along North's.
      const right = (p.side_to_move === 'S') !== m.clockwise;
      d.append(el('span', 'dir-arrow', right ? '→' : '←'), el('span', 'dir-move', m.move), el('span', 'dir-value', ''));
      d.title = 'Sow bin ' + bin + (m.clockwise ? ' clockwise' : ' counter-clockwise') + ' (' + m.move + ')';
      d.setAttribute('aria-label', d.title);
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

  function renderMoves() {
    const box = $('moves');
    box.textContent = '';
    const ply = (k, text) => {
      const b = el('button', 'ply', text);
      b.type = 'button';
      b.dataset.ply = String(k);
      if (k === st.cur) { b.classList.add('current'); b.setAttribute('aria-current', 'step'); }
      if (k > st.cur) b.classList.add('future');
      b.addEventListener('click', () => { leavePreview(true); goTo(k); });
      return b;
    };
    const start = el('div', 'mv-start');
    start.append(ply(0, 'start'));
    if (st.start) start.append(el('span', 'mv-from', st.start));
    box.append(start);
    const ol = el('ol', 'mv-list');
    let li = null, n = 0;
    for (let i = 0; i < st.line.length; i++) {
      const h = st.hist[i];
      if (!li) {
        n++;
        li = el('li', 'mv-turn ' + (h ? (h.side === 'S' ? 'south' : 'north') : ''));
        li.append(el('span', 'mv-num', n + '.'), el('span', 'mv-side', h ? SIDE[h.side] : ''));
        ol.append(li);
      } else {
        li.append(el('span', 'mv-dash', '-'));
      }
      li.append(ply(i + 1, st.line[i]));
      if (!h || !h.extra_turn) li = null;
    }
    box.append(ol);
    const cur = box.querySelector('.current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
    $('undo').disabled = st.cur === 0;
    $('redo').disabled = st.cur >= st.line.length;
  }

  function renderNotation() {
    $('position-text').value = st.pos ? st.pos.position : '';
  }

  function renderAnalysis() {
    const box = $('turns');
    const p = st.pos;
    renderBadges();
    $('stop').disabled = !(an && an.running);
    $('analyse').disabled = !!(an && an.running);
    if (!an || !p) return;
    $('mover-head').textContent = 'For ' + SIDE[p.side_to_move];
    const rows = sortedRows();
    const best = bestRow();
    const existing = new Map();
    box.querySelectorAll('.turn').forEach((e) => existing.set(e.dataset.key, e));
    const keep = new Set();
    for (const r of rows) {
      const key = an.id + ':' + r.index;
      keep.add(key);
      let e = existing.get(key);
      if (!e) {
        e = el('button', 'turn');
        e.type = 'button';
        e.dataset.key = key;
        e.dataset.turn = r.turn;
        e.append(el('span', 'turn-name', r.turn), el('span', 'turn-value'), el('span', 'turn-mover'), el('span', 'turn-pv'));
        e.addEventListener('click', () => { leavePreview(false); play(sowingsOf(r.turn)); });
        e.addEventListener('mouseenter', () => hintBin(bs(sowingsOf(r.turn)[0]), true));
        e.addEventListener('mouseleave', () => hintBin(0, false));
      }
      e.dataset.state = r.state;
      if (r.state === 'exact') e.dataset.value = String(r.value); else delete e.dataset.value;
      const [lo, hi] = rangeSouth(r);
      const [ml, mh] = rangeMover(r);
      const stopped = r.state === 'stopped';
      e.querySelector('.turn-value').textContent = r.state === 'exact' ? fmt(r.value) :
        stopped && lo === -Infinity && hi === Infinity ? '—' : fmtRange(lo, hi);
      e.querySelector('.turn-mover').textContent = r.state === 'exact' ? fmt(r.vm) :
        stopped && ml === -Infinity && mh === Infinity ? '' : fmtRange(ml, mh);
      const line = r.pv ? r.pv.slice(1).join(' ') : r.state === 'bound' ? 'proving…' : stopped ? 'stopped' : '';
      e.querySelector('.turn-pv').textContent = line;
      e.classList.toggle('best', r === best);
      e.title = 'Play ' + r.turn + (r.pv ? ' — line: ' + r.pv.join(' ') : '') +
        (r.state === 'exact' ? '' : r.state === 'bound' ? ' (bounds, still being proved)' : '');
      e.setAttribute('aria-label', 'turn ' + r.turn + ', value ' + e.querySelector('.turn-value').textContent +
        (r.state === 'exact' ? '' : ' (' + r.state + ')'));
      box.append(e); // in sorted order
    }
    existing.forEach((e, k) => { if (!keep.has(k)) e.remove(); });
    const complete = !!an.done && rows.every((r) => r.state === 'exact');
    if (complete) box.dataset.complete = 'true'; else delete box.dataset.complete;
    const note = $('turns-note');
    note.textContent = !an.gotTurns && an.running ? 'listing the turns…' :
      an.gotTurns && !rows.length ? 'No turn to play: the game is over.' : '';
    renderStatus();
    renderValue();
    renderPV();
    renderPie();
  }

  function hintBin(bin, on) {
    document.querySelectorAll('.cell.hint').forEach((c) => c.classList.remove('hint'));
    if (!on || pvw) return;
    const btn = document.querySelector('.house[data-bin="' + bin + '"]');
    if (btn) btn.parentNode.classList.add('hint');
  }

  function renderStatus() {
    const s = $('status');
    const solved = an.rows.filter((r) => r.state === 'exact').length;
    const n = an.rows.length;
    let text;
    s.classList.toggle('failed', !!an.error);
    if (an.error) text = 'Analysis failed: ' + an.error;
    else if (an.done) text = an.done.over ? 'The game is over: nothing to solve.' :
      'Solved in ' + secs(an.done.seconds || 0) + ', ' + nodes(an.done.nodes) + ' nodes.';
    else if (an.stopped) text = 'Stopped: ' + solved + ' of ' + n + ' turns solved. Analyse resumes.';
    else {
      text = an.gotTurns && n ? 'solving… ' + solved + ' of ' + n + ' turns solved' : an.status;
      if (an.gotTurns && an.status && an.status !== 'solving…' && !an.bound && solved === 0) text += ' — ' + an.status;
      if (an.bound) {
        const r = an.byIndex.get(an.bound.index);
        if (r) {
          const [lo, hi] = rangeSouth(r);
          text += ' — proving ' + r.turn + ': ' + fmtRange(lo, hi) + ' (' + nodes(an.bound.nodes) + ' nodes, ' +
            secs(an.bound.seconds || 0) + ')';
        }
      }
    }
    s.textContent = text;
    s.classList.toggle('running', an.running);
  }

  function valueWords(v) {
    return v > 0 ? 'South wins by ' + v : v < 0 ? 'North wins by ' + -v : 'a draw';
  }
  function renderValue() {
    const e = $('value');
    const p = st.pos;
    delete e.dataset.value;
    if (an.done && an.done.value != null) {
      const v = an.done.value;
      e.dataset.value = String(v);
      if (an.done.over) {
        e.textContent = 'Value: ' + fmt(v) + ' for South (the game is over: ' + valueWords(v) + ')';
      } else {
        e.textContent = 'Value: ' + (v === 0 ? '0' : fmt(v) + ' for South') + ' (' + valueWords(v) +
          ' under perfect play)' + (an.done.best_turn ? ' · best turn ' + an.done.best_turn : '');
      }
      return;
    }
    const ex = an.rows.filter((r) => r.state === 'exact');
    if (ex.length) {
      const m = Math.max(...ex.map((r) => r.vm));
      const v = an.sign * m;
      e.textContent = 'Value: ' + (an.sign > 0 ? '≥ ' : '≤ ') + fmt(v) + ' for South' +
        (an.running ? ' (so far)' : ' (not all turns solved)');
    } else if (p.over && p.result) {
      e.textContent = 'Value: ' + fmt(p.result.value) + ' for South (the game is over: ' + valueWords(p.result.value) + ')';
    } else {
      e.textContent = 'Value: …';
    }
  }

  function renderPV() {
    const box = $('pv');
    const pv = pvw ? pvw.pv : currentPV();
    box.textContent = '';
    if (!pv.length) box.append(el('span', 'hint', an && an.running ? 'waiting for the first exact turn…' : '—'));
    let side = st.pos ? st.pos.side_to_move : 'S';
    pv.forEach((t, i) => {
      const c = el('button', 'pv-turn ' + (side === 'S' ? 'south' : 'north'), t);
      c.type = 'button';
      c.dataset.k = String(i + 1);
      c.title = SIDE[side] + ' plays ' + t + ' (preview the position after it)';
      if (pvw && pvw.k === i + 1) c.classList.add('current');
      c.addEventListener('click', () => preview(i + 1, pv));
      box.append(c);
      side = side === 'S' ? 'N' : 'S';
    });
    const k = pvw ? pvw.k : 0;
    $('pv-prev').disabled = !pvw;
    $('pv-next').disabled = k >= pv.length;
    $('pv-play').disabled = !pvw || k === 0;
    $('pv-back').disabled = !pvw;
  }

  function renderPie() {
    const e = $('pie');
    const pie = an.done && an.done.pie;
    e.hidden = !pie;
    e.textContent = '';
    if (!pie) return;
    e.append(el('strong', '', 'Pie rule: '));
    if (pie.kind === 'choose') {
      const t = (pie.turns || []).find((x) => x.index === pie.best);
      const name = t ? t.turn : (an.byIndex.get(pie.best) || {}).turn || '?';
      e.append(document.createTextNode('with the swap offered, South should open with ' + name +
        '; the game is then worth ' + fmt(pie.value) + ' for South (' +
        (pie.value > 0 ? 'South wins by ' + pie.value : pie.value < 0 ? 'South loses by ' + -pie.value : 'a draw') + ').'));
      if (pie.turns && pie.turns.length) {
        const d = el('details');
        d.append(el('summary', '', 'every first turn'));
        const ul = el('ul');
        for (const c of pie.turns) {
          ul.append(el('li', '', c.turn + ': ' + fmt(c.value) + ' → ' + (c.swap ? 'North swaps' : 'North keeps the sides') +
            ', South ends ' + fmt(c.first_player)));
        }
        d.append(ul);
        e.append(d);
      }
    } else if (pie.kind === 'decide') {
      const v = pie.value;
      e.append(document.createTextNode((pie.swap ? 'North should swap' : 'North should not swap') +
        ': the position is worth ' + fmt(v) + ' for South' +
        (pie.swap ? ', so North takes South\'s side' : v === 0 ? ' (a draw either way)' : ', so North keeps the sides') +
        '; the first player ends ' + fmt(pie.first_player) + '.'));
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
    const moves = st.line.slice(0, st.cur).concat(...pv.slice(0, k).map(sowingsOf));
    renderPV();
    try {
      const pos = await api(params(st.rp, st.start, moves));
      if (my !== pvSeq || !pvw) return;
      pvw.pos = pos;
      renderBoard();
      renderPV();
    } catch (e) {
      if (my === pvSeq) { showError(e.message); leavePreview(true); }
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
      const l = el('label', 'edit-cell');
      l.style.gridColumn = String(col);
      l.style.gridRow = String(row);
      const i = el('input');
      i.type = 'number'; i.min = '0'; i.max = '255'; i.step = '1'; i.id = id;
      i.addEventListener('input', editTotal);
      l.append(el('span', 'bin', label), i);
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
  function editValues() {
    const h = boardH;
    const v = (id) => {
      const s = $(id).value.trim();
      return /^\d+$/.test(s) ? parseInt(s, 10) : NaN;
    };
    const south = [], north = [];
    for (let j = 0; j < h; j++) { south.push(v('edit-house-' + (j + 1))); north.push(v('edit-house-' + (h + 2 + j))); }
    return { south, north, ss: v('edit-store-south'), ns: v('edit-store-north') };
  }
  function editTotal() {
    const e = editValues();
    const all = e.south.concat(e.north, [e.ss, e.ns]);
    $('edit-total').textContent = all.some(isNaN) ? 'every count is a whole number' :
      all.reduce((a, b) => a + b, 0) + ' seeds in all';
  }
  function applyEditor() {
    const e = editValues();
    if (e.south.concat(e.north, [e.ss, e.ns]).some(isNaN)) {
      showError('The position editor needs a whole number (0 or more) in every house and store.');
      return;
    }
    const text = e.south.join(',') + ',' + e.ss + ',' + e.north.join(',') + ',' + e.ns + ':' + $('edit-side').value;
    newStart(text, []).then((ok) => { if (ok) closeEditor(); });
  }

  // A new start position (board notation) with `moves` played from it. A `houses`
  // parameter that disagrees with the position's board is dropped (inferred from it).
  function newStart(text, moves) {
    const rp = Object.assign({}, st.rp);
    const counts = text.split(':')[0].split(',').length;
    if (rp.houses && (counts - 2) / 2 !== Number(rp.houses)) delete rp.houses;
    return go({ rp, start: text, line: moves, hist: [], cur: moves.length });
  }

  // ---- notation fields ----
  function pasteGo() {
    const raw = $('paste').value.trim();
    if (!raw) return;
    let ok;
    if (/^https?:\/\//i.test(raw) || raw.startsWith('?')) {
      let q;
      try { q = new URL(raw, location.href).searchParams; } catch (e) { showError('Not a link: ' + raw); return; }
      const rp = {};
      for (const k of RULE_KEYS) if (q.get(k)) rp[k] = q.get(k);
      const line = sowingsOf(q.get('moves'));
      ok = go({ rp, start: q.get('position') || null, line, hist: [], cur: line.length });
    } else if (raw.includes(':')) {
      const m = /^([\d\s,]*:\s*[A-Za-z]+)(.*)$/s.exec(raw);
      if (!m) { showError('A position is written as counts and the side to move, e.g. 4,4,4,4,4,4,0,4,4,4,4,4,4,0:S'); return; }
      ok = newStart(m[1].replace(/\s+/g, ''), sowingsOf(m[2]));
    } else {
      const line = sowingsOf(raw);
      ok = go({ rp: st.rp, start: st.start, line, hist: [], cur: line.length });
    }
    ok.then((done) => { if (done) $('paste').value = ''; });
  }

  async function copyText(text, btn) {
    let ok = false;
    try {
      if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); ok = true; }
    } catch (e) { ok = false; }
    if (!ok) {
      const t = el('textarea');
      t.value = text;
      t.setAttribute('readonly', '');
      t.style.position = 'fixed'; t.style.opacity = '0';
      document.body.append(t);
      t.select();
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      t.remove();
    }
    const old = btn.dataset.label || btn.textContent;
    btn.dataset.label = old;
    btn.textContent = ok ? 'Copied' : 'Copy failed';
    setTimeout(() => { btn.textContent = old; }, 1200);
  }

  // ---- rules panel ----
  function presetInfo(name) {
    return st.options && st.options.presets ? st.options.presets.find((p) => p.name === name) : null;
  }
  function fillRulesForm() {
    const o = st.options;
    const sel = $('preset');
    sel.textContent = '';
    const presets = o && o.presets ? o.presets : [{ name: 'kalah' }];
    for (const p of presets) {
      const opt = el('option', '', p.name);
      opt.value = p.name;
      if (p.description) opt.title = p.description;
      sel.append(opt);
    }
    if (o && o.max_houses) $('houses').max = String(o.max_houses);
    for (const s of document.querySelectorAll('select[data-opt]')) {
      s.textContent = '';
      s.append(el('option', '', 'preset default'));
      s.firstChild.value = '';
      for (const v of (o && o.options && o.options[s.dataset.opt]) || []) {
        const opt = el('option', '', v);
        opt.value = v;
        s.append(opt);
      }
    }
  }
  function presetDefaults() {
    const name = $('preset').value;
    const info = presetInfo(name);
    $('preset-desc').textContent = info && info.description ? info.description : '';
    const r = info && info.rules;
    const note = (s, v) => {
      const l = s.closest('label');
      let n = l.querySelector('.preset-value');
      if (!n) { n = el('span', 'preset-value'); l.insertBefore(n, s); }
      n.textContent = v ? 'preset: ' + v : '';
    };
    for (const s of document.querySelectorAll('select[data-opt]')) note(s, r ? r[s.dataset.opt] || 'none' : '');
    note($('early-stop'), r ? (r.early_stop ? 'on' : 'off') : '');
  }
  function syncRulesForm() {
    const p = st.pos;
    if (!p) return;
    const key = JSON.stringify(st.rp) + '|' + p.rules.text;
    if (key === syncedRules) return;
    syncedRules = key;
    $('preset').value = st.rp.rules || 'kalah';
    if (!$('preset').value) $('preset').value = 'kalah';
    $('houses').value = p.rules.houses;
    $('seeds').value = p.rules.seeds;
    for (const s of document.querySelectorAll('select[data-opt]')) s.value = st.rp[s.dataset.opt] || '';
    $('early-stop').value = st.rp.early_stop || '';
    presetDefaults();
    $('rules-text').textContent = p.rules.text;
    $('rules-line').textContent = p.rules.text;
    document.title = 'kalah · ' + p.rules.text.split(' ')[0] + ' · analysis board';
  }
  function applyRules() {
    const rp = {};
    const preset = $('preset').value;
    if (preset && preset !== 'kalah') rp.rules = preset;
    const hs = $('houses').value.trim(), ss = $('seeds').value.trim();
    if (hs && hs !== '6') rp.houses = hs;
    if (ss && ss !== '4') rp.seeds = ss;
    for (const s of document.querySelectorAll('select[data-opt]')) if (s.value) rp[s.dataset.opt] = s.value;
    if ($('early-stop').value) rp.early_stop = $('early-stop').value;
    syncedRules = '';
    go({ rp, start: null, line: [], hist: [], cur: 0 });
  }

  // ---- wiring ----
  function bind() {
    $('undo').addEventListener('click', undo);
    $('redo').addEventListener('click', redo);
    $('stop').addEventListener('click', stopAnalysis);
    $('analyse').addEventListener('click', () => { leavePreview(true); startAnalysis(); });
    $('edit').addEventListener('click', () => { leavePreview(true); if ($('editor').hidden) openEditor(); else closeEditor(); });
    $('edit-apply').addEventListener('click', applyEditor);
    $('edit-cancel').addEventListener('click', closeEditor);
    $('pv-prev').addEventListener('click', () => { if (pvw) preview(pvw.k - 1); });
    $('pv-next').addEventListener('click', () => preview((pvw ? pvw.k : 0) + 1));
    $('pv-play').addEventListener('click', playPreview);
    $('pv-back').addEventListener('click', () => leavePreview(true));
    $('copy-position').addEventListener('click', (e) => copyText($('position-text').value, e.currentTarget));
    $('copy-link').addEventListener('click', (e) => copyText(location.href, e.currentTarget));
    $('paste-go').addEventListener('click', pasteGo);
    $('paste').addEventListener('keydown', (e) => { if (e.key === 'Enter') pasteGo(); });
    $('rules-apply').addEventListener('click', applyRules);
    $('preset').addEventListener('change', presetDefaults);
    $('error').addEventListener('click', clearError);
    $('editor').addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && e.target.tagName === 'INPUT') applyEditor();
    });
    document.addEventListener('click', (e) => {
      if (!e.target.closest('.dirs') && !e.target.closest('.house')) closeDirs();
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        if (document.querySelector('.dirs')) closeDirs();
        else if (pvw) leavePreview(true);
        else if (!$('editor').hidden) closeEditor();
        return;
      }
      const t = e.target;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
      const mod = e.ctrlKey || e.metaKey;
      if ((e.key === 'ArrowLeft' && !mod && !e.altKey) || (mod && !e.shiftKey && (e.key === 'z' || e.key === 'Z'))) {
        e.preventDefault(); undo();
      } else if ((e.key === 'ArrowRight' && !mod && !e.altKey) || (mod && (e.key === 'y' || e.key === 'Y')) ||
        (mod && e.shiftKey && (e.key === 'z' || e.key === 'Z'))) {
        e.preventDefault(); redo();
      }
    });
    window.addEventListener('beforeunload', closeES);
  }

  async function init() {
    setBusy(1);
    bind();
    try {
      try {
        const r = await fetch('api/options');
        if (r.ok) st.options = await r.json();
      } catch (e) { /* the panel keeps its defaults */ }
      fillRulesForm();
      const q = new URLSearchParams(location.search);
      const rp = {};
      for (const k of RULE_KEYS) if (q.get(k)) rp[k] = q.get(k);
      const start = q.get('position') || null;
      const line = sowingsOf(q.get('moves'));
      const tries = [{ rp, start, line, cur: line.length }];
      if (line.length) tries.push({ rp, start, line: [], cur: 0 });
      if (start) tries.push({ rp, start: null, line: [], cur: 0 });
      if (Object.keys(rp).length) tries.push({ rp: {}, start: null, line: [], cur: 0 });
      let first = '';
      for (const t of tries) {
        if (await go(t)) break;
        if (!first) first = lastErr;
      }
      if (first) showError('The link could not be shown as it is: ' + first);
    } finally {
      setBusy(-1);
    }
  }

  init();
})();
