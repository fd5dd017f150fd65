// kalah serve: the Bao la Kujifunza renderer of the board (docs/serve.md, section Bao).
// app.js chooses it for a board of the rules `bao`: four rows of pits drawn as `kalah show
// --rules bao` draws them, a direction choice for each pit of the mover, an engine move,
// and the analysis of /api/analyse?rules=bao (exact where proven, else heuristic). It
// talks to the same endpoints as the sowing board, with `rules=bao`. Plain JavaScript.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const SIDE = { S: 'South', N: 'North' };
  // The page's token, elements, query strings, the position request and the analysis
  // stream, as the sowing board (app.js) has them.
  const { TOKEN, mk, query, api, analysisStream } = window.kalahBoard;
  // Rows top to bottom (the `rows` of the API): North's b and a, South's A and B.
  const ROWS = ['b', 'a', 'A', 'B'];
  // Scores from here up are the search's won scores (bao_search: 1 000 000 less the moves).
  const DECIDED = 990000;

  // The state: board, start position (null: the board's start), the line of moves, the
  // current point, the /api/position answer for it; the analysis and its stream.
  const st = { houses: '', seeds: '', start: null, line: [], cur: 0, pos: null };
  let an = null, es = null, seq = 0, anId = 0, active = false;

  const on = (id, ev, f) => $(id).addEventListener(ev, f);
  const signed = (v) => (v > 0 ? '+' + v : v < 0 ? '\u2212' + -v : '0');
  const secs = (s) => (s < 10 ? s.toFixed(2) : s.toFixed(1)) + ' s';
  const count = (n, word) => Number(n || 0).toLocaleString('en-US') + ' ' + word + (n === 1 ? '' : 's');
  const movesOf = (text) => String(text || '').split(/[\s,;]+/).filter(Boolean);
  const setError = (msg) => { $('error').textContent = msg || ''; $('error').hidden = !msg; };

  function params(start, line) {
    const p = { rules: 'bao' };
    if (st.houses) p.houses = st.houses;
    if (st.seeds) p.seeds = st.seeds;
    if (start) p.position = start;
    if (line && line.length) p.moves = line.join(' ');
    return p;
  }
  // Shows `next` ({start, line, cur}): asks the server, then commits, draws and analyses;
  // on an error the previous state stays and the error is shown.
  async function go(next) {
    closeDirs();
    const my = ++seq;
    let pos;
    try {
      pos = await api(params(next.start, next.line.slice(0, next.cur)));
    } catch (e) {
      if (my === seq) setError(e.message);
      return false;
    }
    if (my !== seq || !active) return false;
    setError('');
    Object.assign(st, { start: next.start, line: next.line.slice(), cur: next.cur, pos });
    pos.history.forEach((h, i) => { st.line[i] = h.move; });
    updateURL();
    render();
    startAnalysis();
    return true;
  }
  const goTo = (k) => go({ start: st.start, line: st.line, cur: k });
  const play = (mv) => go({ start: st.start, line: st.line.slice(0, st.cur).concat(mv), cur: st.cur + 1 });

  function updateURL() {
    const q = query(params(st.start, st.line.slice(0, st.cur)));
    try { history.replaceState(null, '', location.pathname + '?' + q); } catch (e) { /* file: */ }
  }

  // ---- analysis ----
  function closeES() { if (es) { es.close(); es = null; } }
  function startAnalysis() {
    closeES();
    if (!st.pos) return;
    const id = ++anId;
    an = { id, report: null, done: null, running: true, stopped: false, error: null, status: 'analysing…' };
    const req = Object.assign(params(st.start, st.line.slice(0, st.cur)), { token: TOKEN });
    const budget = $('bao-budget').value.trim();
    if (budget) req.time = budget;
    const { src, when } = analysisStream(req, (from) => es === from && an && an.id === id, renderAnalysis);
    es = src;
    when('status', (d) => { if (d.message) an.status = d.message; });
    when('depth', (d) => { an.report = d; });
    when('done', (d) => { closeES(); an.report = an.done = d; an.running = false; });
    when('error', (d) => {
      closeES();
      if (an.done) return;
      an.error = d && d.error ? d.error : 'the analysis stream was lost';
      an.running = false;
    });
    renderAnalysis();
  }
  function stopAnalysis() {
    if (!an || !an.running) return;
    closeES();
    an.running = false;
    an.stopped = true;
    renderAnalysis();
  }

  // What a move entry (or a report) says: the proven result when there is one, else the
  // heuristic score (points, 100 a seed) for the mover, marked as an upper bound where
  // the search only bounded it.
  function valueText(m) {
    const r = m.outcome;
    if (r) return r.winner ? SIDE[r.winner] + ' wins ' + (m.depth == null ? 'in ' : '≤ ') + r.moves : 'draw';
    if (m.eval_mover == null) return '—';
    // An upper bound in the range of decided scores: no better than a proven win (of
    // another move), nothing proven of this one.
    if (m.bound === 'upper' && m.eval_mover >= DECIDED) return '≤ best, unproven';
    return (m.bound === 'upper' ? '≤ ' : '≈ ') + signed(m.eval_mover);
  }

  // ---- rendering ----
  function render() {
    renderBoard();
    renderLine();
    $('bao-position-text').value = st.pos ? st.pos.position : '';
    const text = st.pos ? st.pos.rules.text : '';
    $('rules-text').textContent = $('rules-line').textContent = text;
    if (st.pos) {
      $('houses').value = st.pos.rules.pits;
      $('seeds').value = st.pos.rules.seeds;
    }
    document.title = 'kalah · Bao · analysis board';
    renderAnalysis();
  }

  function renderBoard() {
    const p = st.pos, b = $('bao-board');
    if (!p) return;
    const n = p.rules.pits;
    b.textContent = '';
    b.style.setProperty('--n', n);
    b.dataset.side = p.side_to_move;
    b.dataset.position = p.position;
    const legal = new Map(); // row letter + pit -> legal moves from that pit
    for (const m of p.legal) {
      const k = m.row + m.pit;
      legal.set(k, (legal.get(k) || []).concat(m));
    }
    const last = p.history.length ? p.history[p.history.length - 1] : null;
    const best = an && an.report && an.report.best_turn;
    ROWS.forEach((row, r) => {
      const north = r < 2;
      b.append(mk('span', { class: 'bao-label ' + (north ? 'north' : 'south') }, row));
      for (let c = 0; c < n; c++) {
        const pit = north ? n - c : c + 1; // North's rows read N..1 from South's left
        const count = p.rows[r][c], moves = legal.get(row + pit) || [];
        const label = row + pit + ', ' + count + (count === 1 ? ' seed' : ' seeds');
        const btn = mk('button', { class: 'bao-pit', type: 'button', 'data-row': row, 'data-pit': pit,
          'aria-label': label + (moves.length ? ', choose a direction' : '') }, mk('span', { class: 'count' }, String(count)));
        btn.disabled = !moves.length;
        btn.classList.toggle('legal', moves.length > 0);
        btn.classList.toggle('empty', count === 0);
        btn.classList.toggle('last', !!last && last.row === row && last.pit === pit);
        btn.classList.toggle('best', !!best && moves.some((m) => m.move === best));
        const cell = mk('div', { class: 'bao-cell ' + (north ? 'north' : 'south') }, btn, mk('span', { class: 'bin' }, row + pit));
        btn.addEventListener('click', (e) => { e.stopPropagation(); chooseDirection(cell, moves); });
        b.append(cell);
      }
      if (r === 1) b.append(mk('div', { class: 'bao-centre-line' }));
    });
    $('bao-side').textContent = SIDE[p.side_to_move];
    $('bao-side').className = p.side_to_move === 'N' ? 'north' : 'south';
    $('bao-over').hidden = !p.over;
    if (p.over) $('bao-over').textContent = 'Game over: ' + p.end;
  }

  // The direction choice of a pit: one button per legal move from it (+ clockwise, -
  // anticlockwise), each with the analysis' value of the move.
  function chooseDirection(cell, moves) {
    const open = cell.querySelector('.dirs');
    closeDirs();
    if (open || !moves.length) return;
    const box = mk('div', { class: 'dirs', role: 'group', 'aria-label': 'Direction' });
    for (const m of moves) {
      // `+` runs left to right along South's A row and North's b row as drawn.
      const right = (m.row === 'A' || m.row === 'b') === (m.dir === '+');
      const entry = an && an.report && (an.report.moves || []).find((x) => x.move === m.move);
      const title = 'Play ' + m.move + (m.dir === '+' ? ' (clockwise)' : ' (anticlockwise)');
      const d = mk('button', { class: 'dir', type: 'button', title, 'data-move': m.move, 'aria-label': title },
        mk('span', { class: 'dir-arrow' }, right ? '→' : '←'), mk('span', {}, m.move),
        mk('span', { class: 'dir-value' }, entry ? valueText(entry) : ''));
      d.addEventListener('click', (e) => { e.stopPropagation(); closeDirs(); play(m.move); });
      if (right) box.append(d); else box.prepend(d);
    }
    cell.append(box);
    box.querySelector('.dir').focus();
  }
  function closeDirs() { document.querySelectorAll('#bao-board .dirs').forEach((d) => d.remove()); }

  function renderLine() {
    const box = $('bao-moves');
    const ply = (k, text) => {
      const b = mk('button', { class: 'ply' + (k === st.cur ? ' current' : k > st.cur ? ' future' : ''), type: 'button',
        'data-ply': k }, text);
      b.addEventListener('click', () => goTo(k));
      return b;
    };
    const start = mk('div', { class: 'mv-start' }, ply(0, 'start'));
    if (st.start) start.append(mk('span', { class: 'mv-from', title: st.start }, st.start));
    const ol = mk('ol', { class: 'mv-list' });
    st.line.forEach((m, i) => {
      const south = m[0] === 'A' || m[0] === 'B';
      ol.append(mk('li', { class: 'mv-turn ' + (south ? 'south' : 'north') }, mk('span', { class: 'mv-num' }, i + 1 + '.'),
        mk('span', { class: 'mv-side' }, south ? 'South' : 'North'), ply(i + 1, m)));
    });
    box.replaceChildren(start, ol);
    $('bao-undo').disabled = st.cur === 0;
    $('bao-redo').disabled = st.cur >= st.line.length;
  }

  function renderAnalysis() {
    $('bao-stop').disabled = !(an && an.running);
    $('bao-analyse').disabled = !!(an && an.running);
    const rep = an && an.report, p = st.pos;
    $('bao-engine').disabled = !(rep && rep.best_turn) || !p || p.over;
    const box = $('bao-turns');
    box.querySelectorAll('.turn').forEach((e) => e.remove());
    for (const m of (rep && rep.moves) || []) {
      const e = mk('button', { class: 'turn', type: 'button', 'data-turn': m.move,
        'data-state': m.exact ? 'exact' : m.bound === 'upper' ? 'bound' : 'estimate' },
      mk('span', { class: 'turn-name' }, m.move), mk('span', { class: 'turn-value' }, valueText(m)),
      mk('span', { class: 'turn-mover' }, m.depth == null ? 'exact' : 'depth ' + m.depth),
      mk('span', { class: 'turn-pv' }, m.move === rep.best_turn ? (rep.pv || []).slice(1).join(' ') : ''));
      e.classList.toggle('best', m.move === rep.best_turn);
      e.title = 'Play ' + m.move + (m.outcome ? ' (proven: ' + m.outcome.text + ')' :
        ' (heuristic, points for ' + SIDE[p.side_to_move] + ', 100 a seed)');
      e.addEventListener('click', () => play(m.move));
      box.append(e);
    }
    $('bao-turns-note').textContent = !an ? '' : rep && rep.method === 'search' && !rep.exact ?
      'Values in points for the side to move (100 a seed) are heuristic; “≤” marks a bound; a proven win or loss is written out.' :
      p && p.over ? 'No move to play: the game is over.' : '';
    const value = $('bao-value'), status = $('bao-status');
    // For tests and styles: whether the analysis has ended, and whether it proved its value.
    box.dataset.complete = an && an.done ? 'true' : 'false';
    value.dataset.exact = rep ? String(!!rep.exact) : '';
    value.textContent = !rep ? (p && p.over ? 'Game over: ' + p.end : 'Value: …') :
      rep.outcome ? (rep.exact ? 'Proven: ' : '') + rep.outcome.text + (rep.method === 'solver' ? ' (exact solver)' : '') :
      'Heuristic: ≈ ' + signed(rep.eval) + ' points for South (not proven)';
    let text;
    if (!an) text = '';
    else if (an.error) text = 'Analysis failed: ' + an.error;
    else if (an.done) {
      text = an.done.method === 'solver' ? 'Solved exactly: ' + count(an.done.positions, 'position') + ' in ' + secs(an.done.seconds) + '.' :
        an.done.method === 'over' ? 'The game is over: nothing to analyse.' :
          (an.done.exact ? 'Proven by the search at depth ' : 'Not proven within ' + secs(an.done.budget) + ': depth ') +
          an.done.depth + ', ' + count(an.done.nodes, 'node') + ' in ' + secs(an.done.seconds) + '.';
    } else if (an.stopped) text = 'Stopped' + (rep ? ' at depth ' + rep.depth : '') + '. Analyse starts again.';
    else if (rep) text = 'searching… depth ' + rep.depth + ', ' + count(rep.nodes, 'node') + ', ' + secs(rep.seconds) + ' of ' + secs(rep.budget);
    else text = an.status;
    status.textContent = text;
    status.className = 'status' + (an && an.running ? ' running' : an && an.error ? ' failed' : '');
    const pv = $('bao-pv');
    pv.textContent = '';
    let side = p ? p.side_to_move : 'S';
    for (const m of (rep && rep.pv) || []) {
      pv.append(mk('span', { class: 'pv-turn ' + (side === 'S' ? 'south' : 'north') }, m));
      side = side === 'S' ? 'N' : 'S';
    }
    if (!pv.childNodes.length) pv.append(mk('span', { class: 'hint' }, an && an.running ? 'waiting for the first depth…' : '—'));
    // The board marks the best move's pit.
    document.querySelectorAll('#bao-board .bao-pit').forEach((btn) => {
      const best = rep && rep.best_turn;
      btn.classList.toggle('best', !!best && best.slice(0, -1) === btn.dataset.row + btn.dataset.pit);
    });
  }

  // A position (it has a ':'), optionally followed by moves; else moves played from the
  // current start position.
  function pasteGo() {
    const raw = $('bao-paste').value.trim();
    if (!raw) return;
    let next;
    const m = /^([\d\s,/]*:\s*[A-Za-z])(.*)$/s.exec(raw);
    if (raw.includes(':')) {
      if (!m) { setError('A Bao position is written as four rows and the side to move, e.g. 0,1,0/1,2,1/2,0,2/0,1,0:S'); return; }
      const start = m[1].replace(/\s+/g, ''), line = movesOf(m[2]);
      st.houses = String(start.split('/')[0].split(',').length);
      next = { start, line, cur: line.length };
    } else {
      const line = movesOf(raw);
      next = { start: st.start, line, cur: line.length };
    }
    go(next).then((ok) => { if (ok) $('bao-paste').value = ''; });
  }

  // ---- entering and leaving ----
  function show(on) {
    active = on;
    if (on) document.body.dataset.game = 'bao'; else delete document.body.dataset.game;
    $('sowing-centre').hidden = $('sowing-analysis').hidden = on;
    $('bao-centre').hidden = $('bao-analysis').hidden = !on;
    if (on) {
      document.body.dataset.preset = 'bao';
      if ([...$('preset').options].some((o) => o.value === 'bao')) $('preset').value = 'bao';
      $('preset-desc').textContent = 'Bao la Kujifunza: four rows of pits, moves such as A3+ and b8- (docs/bao.md)';
    }
  }
  // The Bao board with `houses` pits a row and `seeds` a pit (empty: 8 and 2), from its
  // start, or from `start` with `line` played (a link).
  function enter(board, start, line) {
    show(true);
    const num = (v, lo, hi) => (/^\d+$/.test(String(v || '').trim()) && +v >= lo && +v <= hi ? String(+v) : '');
    st.houses = num(board.houses, 3, 8);
    st.seeds = num(board.seeds, 1, 255);
    line = line || [];
    return go({ start: start || null, line, cur: line.length }).then(async (ok) => {
      if (!ok && (start || line.length)) ok = await go({ start: null, line: [], cur: 0 });
      if (!ok) { st.houses = st.seeds = ''; await go({ start: null, line: [], cur: 0 }); }
    });
  }
  function leave() {
    closeES();
    closeDirs();
    an = null;
    seq++;
    show(false);
  }
  // The renderer app.js chooses for a board of Bao: `enter(board, start, line)` shows one.
  window.kalahBao = { enter, leave, active: () => active, movesOf };

  function bind() {
    on('bao-undo', 'click', () => { if (st.cur > 0) goTo(st.cur - 1); });
    on('bao-redo', 'click', () => { if (st.cur < st.line.length) goTo(st.cur + 1); });
    on('bao-stop', 'click', stopAnalysis);
    on('bao-analyse', 'click', startAnalysis);
    on('bao-engine', 'click', () => { const r = an && an.report; if (r && r.best_turn) play(r.best_turn); });
    on('bao-paste-go', 'click', pasteGo);
    on('bao-paste', 'keydown', (e) => { if (e.key === 'Enter') pasteGo(); });
    on('bao-copy-position', 'click', () => {
      const t = $('bao-position-text');
      t.select();
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(t.value).catch(() => {});
      else { try { document.execCommand('copy'); } catch (e) { /* not allowed */ } }
    });
    document.addEventListener('click', (e) => { if (active && !e.target.closest('#bao-board .dirs')) closeDirs(); });
    document.addEventListener('keydown', (e) => {
      if (!active) return;
      if (e.key === 'Escape') { closeDirs(); return; }
      if (e.target.closest && e.target.closest('input, select, textarea')) return;
      if (e.key === 'ArrowLeft' && st.cur > 0) { e.preventDefault(); goTo(st.cur - 1); }
      if (e.key === 'ArrowRight' && st.cur < st.line.length) { e.preventDefault(); goTo(st.cur + 1); }
    });
    window.addEventListener('beforeunload', closeES);
    // Choosing the preset proposes each game's own default board in the rules panel.
    on('preset', 'change', () => {
      const bao = $('preset').value === 'bao';
      if (bao !== active) { $('houses').value = bao ? '8' : '6'; $('seeds').value = bao ? '2' : '4'; }
    });
  }

  bind();
})();
