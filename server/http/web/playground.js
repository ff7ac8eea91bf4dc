// The playground: a puzzle from its text (/v1/parse), drawn or generated, solved through the
// streamed /v1/solve while the board, the energy chart and the violated rules follow the best
// sample; the summary at the end. Everything it needs comes from this server.
'use strict';

const $ = (id) => document.getElementById(id);

// The families the server takes (/v1/families): kind -> {description, example, generate, board}. The page
// draws grids; the hints below say how each grid is edited.
const families = {};
const HINTS = {
  queens: 'Click a cell to paint it with the selected region; shift-click places a queen.',
  tango: 'Click a cell: sun, moon, empty. Click between two cells: =, ×, none.',
  takuzu: 'Click a cell: 0, 1, empty.',
  sudoku: 'Click a cell to step its given digit.',
  tents: 'Click a cell to plant or remove a tree (counts come from the text).',
  nqueens: 'Edit the text: N, or NxM with options (torus, adjacent, queen=R,C).',
  chess: 'Edit the text: rows of piece letters, then "regions" and its rows.',
};

const state = { kind: 'queens', spec: null, rows: null, violations: [], paint: 0, abort: null };

function headers() {
  const h = { 'Content-Type': 'application/json' };
  const token = $('token').value.trim();
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

async function call(path, body) {
  const response = await fetch(path, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(json.error ? `${json.error.status}: ${json.error.message}` : response.statusText);
  return json;
}

function setStatus(message, error) {
  $('status').textContent = message;
  $('status').className = error ? 'error' : '';
}

function editable() { return ['queens', 'tango', 'takuzu', 'sudoku', 'tents'].includes(state.kind); }

function redraw() {
  Boards.draw($('board'), state.kind, state.spec, state.rows, state.violations, editable() ? onEdit : null);
  const list = $('violations');
  list.textContent = '';
  for (const v of state.violations) {
    const li = document.createElement('li');
    li.textContent = `${v.location}: ${v.message}`;
    list.appendChild(li);
  }
  $('board').dataset.solved = state.rows ? 'true' : 'false';
}

// A new puzzle: the last solve's chart and summary go.
function clearResults() {
  chart.points = [];
  chart.ground = null;
  drawChart();
  $('summary').textContent = '';
  $('summary').dataset.done = 'false';
}

async function loadText() {
  clearResults();
  try {
    const parsed = await call('/v1/parse', { kind: state.kind, text: $('text').value });
    state.spec = parsed.puzzle;
    state.rows = null;
    state.violations = [];
    redraw();
    setStatus(`${state.kind} loaded`);
  } catch (e) {
    setStatus(e.message, true);
  }
}

// After an edit of the spec: the text follows (where the format has a writer).
async function syncText() {
  clearResults();
  state.rows = null;
  state.violations = [];
  redraw();
  try {
    $('text').value = (await call('/v1/format', { kind: state.kind, puzzle: state.spec })).text;
  } catch (e) {
    setStatus(e.message, true);
  }
}

function onEdit(target) {
  const spec = state.spec;
  if (target.sign) {
    const [r1, c1, r2, c2] = target.sign;
    const signs = spec.takuzu.signs || (spec.takuzu.signs = []);
    const same = (s) => (s.a.row || 0) === r1 && (s.a.col || 0) === c1 && (s.b.row || 0) === r2 && (s.b.col || 0) === c2;
    const i = signs.findIndex(same);
    if (i < 0) signs.push({ a: { row: r1, col: c1 }, b: { row: r2, col: c2 }, kind: 'EQUAL' });
    else if (signs[i].kind === 'EQUAL') signs[i].kind = 'DIFFERENT';
    else signs.splice(i, 1);
    return syncText();
  }
  const [, width] = Boards.shape(state.kind, spec);
  const i = target.row * width + target.col;
  switch (state.kind) {
    case 'queens': {
      const q = spec.queens;
      if (target.shift) {
        const at = (q.givenQueens || []).indexOf(i);
        if (at >= 0) q.givenQueens.splice(at, 1); else (q.givenQueens || (q.givenQueens = [])).push(i);
      } else {
        q.regions[i] = state.paint;
      }
      break;
    }
    case 'tango': case 'takuzu': {
      const t = spec.takuzu;
      if (!t.cells || !t.cells.length) t.cells = new Array(t.rows * t.cols).fill('BLANK');
      t.cells[i] = { BLANK: 'ZERO', ZERO: 'ONE', ONE: 'BLANK' }[t.cells[i] || 'BLANK'];
      break;
    }
    case 'sudoku': {
      const n = spec.sudoku.boxSize || 3;
      spec.sudoku.cells[i] = ((spec.sudoku.cells[i] || 0) + 1) % (n * n + 1);
      break;
    }
    case 'tents': {
      const trees = spec.tents.trees;
      const at = trees.indexOf(i);
      if (at >= 0) trees.splice(at, 1); else trees.push(i);
      break;
    }
  }
  return syncText();
}

// An empty board of the chosen size to draw on.
function blankBoard() {
  const n = Math.max(4, Math.min(16, +$('size').value || 8));
  const blank = {
    queens: () => ({ queens: { rows: n, cols: n, attack: 'QUEENS_ATTACK_ADJACENT_DIAGONALS', regions: Array.from({ length: n * n }, (_, i) => Math.floor(i / n)) } }),
    tango: () => ({ takuzu: { rows: n - (n % 2), cols: n - (n % 2), cells: [], signs: [] } }),
    takuzu: () => ({ takuzu: { rows: n - (n % 2), cols: n - (n % 2), cells: [], signs: [], uniqueLines: true } }),
    sudoku: () => ({ sudoku: { boxSize: n >= 9 ? 3 : 2, cells: new Array(n >= 9 ? 81 : 16).fill(0) } }),
    tents: () => ({ tents: { rows: n, cols: n, trees: [], rowCounts: new Array(n).fill(0), colCounts: new Array(n).fill(0) } }),
  }[state.kind];
  if (!blank) return setStatus(`draw ${state.kind} boards through their text`, true);
  state.spec = blank();
  syncText();
}

async function generate() {
  if (!(families[state.kind] || {}).generate) return setStatus(`no generator for ${state.kind}`, true);
  setStatus('generating…');
  try {
    const size = +$('size').value || 8;
    const rows = state.kind === 'sudoku' ? (size >= 9 ? 9 : 4) : (state.kind === 'tango' || state.kind === 'takuzu') ? size - (size % 2) : size;
    const answer = await call('/v1/generate?stream=false', { family: state.kind, rows, count: 1, difficulty: 'DIFFICULTY_MEDIUM' });
    state.spec = answer.puzzles[0].puzzle;
    await syncText();
    setStatus(`generated a ${rows}×${rows} ${state.kind} with ${answer.puzzles[0].clues} clues`);
  } catch (e) {
    setStatus(e.message, true);
  }
}

// ---- Solving ------------------------------------------------------------------------------------

const chart = { points: [], ground: null, pending: false };

function drawChart() {
  chart.pending = false;
  const svg = $('chart');
  svg.textContent = '';
  const ns = 'http://www.w3.org/2000/svg';
  const add = (name, attrs) => {
    const node = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    svg.appendChild(node);
    return node;
  };
  const W = 420, H = 240, L = 48, B = 22, T = 10, R = 10;
  const energies = chart.points.map((p) => p.energy);
  if (chart.ground !== null) energies.push(chart.ground);
  if (!energies.length) return;
  let lo = Math.min(...energies), hi = Math.max(...energies);
  if (hi === lo) { hi += 1; lo -= 1; }
  const n = Math.max(chart.points.length, 2);
  const x = (i) => L + (i / (n - 1)) * (W - L - R);
  const y = (e) => T + (1 - (e - lo) / (hi - lo)) * (H - T - B);
  add('line', { x1: L, y1: T, x2: L, y2: H - B, stroke: '#999' });
  add('line', { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: '#999' });
  for (const e of [lo, hi]) add('text', { x: L - 4, y: y(e), 'text-anchor': 'end', 'dominant-baseline': 'central', 'font-size': 10 }).textContent = +e.toFixed(2);
  add('text', { x: (L + W) / 2, y: H - 4, 'text-anchor': 'middle', 'font-size': 10 }).textContent = `sample (${chart.points.length})`;
  if (chart.ground !== null) {
    add('line', { x1: L, y1: y(chart.ground), x2: W - R, y2: y(chart.ground), stroke: '#111', 'stroke-dasharray': '5 4' });
  }
  chart.points.forEach((p, i) => add('circle', { cx: x(i), cy: y(p.energy), r: 2.5, fill: p.valid ? '#16a34a' : '#dc2626' }));
}

function plot(point) {
  chart.points.push(point);
  if (!chart.pending) { chart.pending = true; requestAnimationFrame(drawChart); }
}

// The selected backend's own parameters, as ListBackends declares them: one input each, empty for the
// backend's default (shown as the placeholder), the help as the tooltip.
const backendList = {};

function paramInput(param) {
  let input;
  if (param.type === 'enum' || param.type === 'bool') {
    input = document.createElement('select');
    const choices = param.type === 'bool' ? ['true', 'false'] : param.choices;
    for (const value of ['', ...choices]) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = value === '' ? `default (${param.defaultValue})` : value;
      input.appendChild(option);
    }
  } else {
    input = document.createElement('input');
    const numeric = !param.repeated && /int|double/.test(param.type);
    input.type = numeric ? 'number' : 'text';
    if (numeric && param.min !== undefined) input.min = param.min;
    if (numeric && param.max !== undefined) input.max = param.max;
    if (numeric && param.type === 'double') input.step = 'any';
    input.placeholder = param.repeated ? `${param.defaultValue} (comma-separated)` : param.defaultValue;
  }
  input.dataset.param = param.name;
  input.dataset.type = param.type;
  input.dataset.repeated = param.repeated ? 'true' : 'false';
  input.title = `${param.help}${param.unit ? ` (${param.unit})` : ''}`;
  return input;
}

function showBackendParams() {
  const box = $('backend-params');
  box.textContent = '';
  const backend = backendList[$('backend').value];
  if (!backend || !backend.params) return;
  for (const param of backend.params) {
    const label = document.createElement('label');
    label.className = 'inline';
    label.append(`${param.name} `, paramInput(param));
    box.appendChild(label);
  }
}

// The value of one parameter input as JSON for the backend's message; undefined when left empty.
function paramValue(input) {
  const text = input.value.trim();
  if (text === '') return undefined;
  const type = input.dataset.type;
  const one = (t) => (/int|double/.test(type) ? Number(t) : type === 'bool' ? t === 'true' : t);
  if (!/^(u?int|double|bool|enum|string)/.test(type)) return JSON.parse(text);  // a structured value
  return input.dataset.repeated === 'true' ? text.split(',').map((t) => one(t.trim())) : one(text);
}

function backendParams() {
  const backend = backendList[$('backend').value];
  if (!backend || !backend.paramsField) return {};
  const own = {};
  for (const input of $('backend-params').querySelectorAll('[data-param]')) {
    const value = paramValue(input);
    if (value !== undefined) own[input.dataset.param] = value;
  }
  return Object.keys(own).length ? { [backend.paramsField]: own } : {};
}

function params() {
  const p = { backend: $('backend').value, ...backendParams() };
  // auto picks its own reads and sweeps; typed values are those of each of its rounds.
  if (p.backend !== 'auto' || $('reads').value !== '') p.numReads = +$('reads').value || 100;
  if (p.backend !== 'auto' || $('sweeps').value !== '') p.numSweeps = +$('sweeps').value || 1000;
  if ($('seed').value !== '') p.seed = String($('seed').value);
  if (+$('time_limit').value > 0) p.timeLimitSeconds = +$('time_limit').value;
  if ($('stop_first').checked) p.stopAtFirstValid = true;
  return p;
}

// The success fraction p turned into the time to reach a valid board with 99% confidence:
// the sampling time per read times the reads needed, ln(0.01) / ln(1 - p).
function tts99(summary) {
  const p = summary.successFraction, reads = summary.readsDone;
  if (!reads || !p) return '∞';
  const perRead = summary.timings.sampleSeconds / reads;
  const needed = p >= 1 ? 1 : Math.log(0.01) / Math.log(1 - p);
  return `${(perRead * needed * 1000).toFixed(3)} ms`;
}

function showSummary(summary, header) {
  const t = summary.timings;
  const rows = [
    ['termination', summary.termination],
    ['best energy', `${summary.bestEnergy}${summary.groundEnergy !== undefined ? ` (ground ${summary.groundEnergy})` : ''}`],
    ['valid board', summary.bestValid ? 'yes' : 'no'],
    ['success fraction', `${(summary.successFraction * 100).toFixed(1)}% (${summary.numValid} of ${summary.readsDone} reads)`],
    ['TTS99', tts99(summary)],
    ['variables', header ? `${header.stats.variables} of ${header.stats.variablesTotal}` : ''],
    ['timings', `queue ${(t.queueSeconds * 1e3).toFixed(2)} ms, compile ${(t.compileSeconds * 1e3).toFixed(2)} ms, sample ${(t.sampleSeconds * 1e3).toFixed(2)} ms, total ${(t.totalSeconds * 1e3).toFixed(2)} ms`],
    ['backend', `${summary.backend.name} ${summary.backend.kernel || ''}`],
    ...Object.entries(summary.backend)
      .filter(([, v]) => v && typeof v === 'object' && !Array.isArray(v))
      .map(([k, v]) => [k, Object.entries(v).filter(([, x]) => typeof x !== 'object')
        .map(([name, x]) => `${name} ${x}`).join(', ')]),
    ['solved by', summary.solvedBy || ''],
    ['seed', summary.seed],
  ];
  const table = document.createElement('table');
  for (const [k, v] of rows) {
    const tr = table.insertRow();
    tr.insertCell().textContent = k;
    tr.insertCell().textContent = v;
  }
  $('summary').textContent = '';
  $('summary').appendChild(table);
  $('summary').dataset.done = 'true';
  $('summary').dataset.bestRows = (summary.bestSolution.rows || []).join('/');
}

async function solve() {
  if (!state.spec) await loadText();
  if (!state.spec) return;
  clearResults();
  state.rows = null;
  state.violations = [];
  redraw();
  state.abort = new AbortController();
  $('solve').disabled = true;
  $('stop').disabled = false;
  setStatus('solving…');
  let best = null, header = null;
  try {
    const response = await fetch('/v1/solve', {
      method: 'POST', headers: headers(), signal: state.abort.signal,
      body: JSON.stringify({ puzzle: state.spec, params: params() }),
    });
    if (!response.ok) {
      const json = await response.json();
      throw new Error(`${json.error.status}: ${json.error.message}`);
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (!line.trim()) continue;
        const event = JSON.parse(line);
        if (event.error) throw new Error(`${event.error.status}: ${event.error.message}`);
        if (event.header) {
          header = event.header;
          if (header.stats.groundEnergy !== undefined) chart.ground = header.stats.groundEnergy;
          setStatus(`solving ${header.stats.variables} variables on ${header.backend}…`);
        } else if (event.sample) {
          const s = event.sample;
          plot({ energy: s.energy, valid: s.valid });
          const better = !best || (s.valid && !best.valid) || (s.valid === best.valid && s.energy < best.energy);
          if (better && s.solution && s.solution.rows.length) {
            best = s;
            state.rows = s.solution.rows;
            state.violations = s.violations || [];
            redraw();
          }
        } else if (event.progress) {
          setStatus(`${event.progress.readsDone} of ${event.progress.readsTotal} reads, best ${event.progress.bestEnergy}`);
        } else if (event.summary) {
          const s = event.summary;
          if (s.bestSolution && s.bestSolution.rows.length) {
            state.rows = s.bestSolution.rows;
            state.violations = s.bestViolations || [];
            redraw();
          }
          drawChart();
          showSummary(s, header);
          setStatus(s.bestValid ? 'solved' : 'no valid board found');
        }
      }
    }
  } catch (e) {
    setStatus(e.name === 'AbortError' ? 'stopped' : e.message, e.name !== 'AbortError');
  } finally {
    $('solve').disabled = false;
    $('stop').disabled = true;
    state.abort = null;
  }
}

// ---- Wiring ------------------------------------------------------------------------------------

function paletteButtons() {
  const hint = $('hint');
  hint.textContent = HINTS[state.kind] || '';
  if (state.kind !== 'queens') return;
  const box = document.createElement('span');
  box.className = 'palette';
  Boards.PALETTE.slice(0, 12).forEach((colour, k) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.title = `region ${String.fromCharCode(65 + k)}`;
    b.style.cssText = `background:${colour};width:1.4rem;height:1.4rem;padding:0;margin:1px;` +
      (k === state.paint ? 'outline:2px solid #111' : '');
    b.addEventListener('click', () => { state.paint = k; paletteButtons(); });
    box.appendChild(b);
  });
  hint.appendChild(document.createElement('br'));
  hint.appendChild(box);
}

async function loadBackends() {
  try {
    const response = await fetch('/v1/backends', { headers: headers() });
    if (!response.ok) return;
    const { backends } = await response.json();
    const select = $('backend');
    const chosen = select.value || 'auto';  // the service's default until the user picks
    select.textContent = '';
    for (const b of backends) {
      if (!b.available) continue;
      backendList[b.name] = b;
      const option = document.createElement('option');
      option.value = option.textContent = b.name;
      select.appendChild(option);
    }
    if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
    showBackendParams();
  } catch (e) { /* keep auto */ }
}

// Fills the family list from the server; false when it cannot be read yet (a token is needed).
async function loadFamilies() {
  try {
    const response = await fetch('/v1/families', { headers: headers() });
    if (!response.ok) return false;
    const select = $('kind');
    select.textContent = '';
    for (const f of (await response.json()).families) {
      if (f.board !== 'grid') continue;
      families[f.kind] = f;
      const option = document.createElement('option');
      option.value = f.kind;
      option.textContent = f.description.split(/[:(]/)[0].trim();
      option.title = f.description;
      select.appendChild(option);
    }
    return select.options.length > 0;
  } catch (e) {
    return false;
  }
}

async function start() {
  if (!Object.keys(families).length && !(await loadFamilies())) {
    return setStatus('the family list needs the bearer token', true);
  }
  selectKind(families[state.kind] ? state.kind : $('kind').options[0].value);
}

function selectKind(kind) {
  state.kind = kind;
  $('kind').value = kind;
  $('text').value = families[kind].example;
  state.paint = 0;
  paletteButtons();
  loadText();
}

$('kind').addEventListener('change', () => selectKind($('kind').value));
$('load').addEventListener('click', loadText);
$('blank').addEventListener('click', blankBoard);
$('generate').addEventListener('click', generate);
$('solve').addEventListener('click', solve);
$('stop').addEventListener('click', () => state.abort && state.abort.abort());
$('token').addEventListener('change', () => { loadBackends(); start(); });
$('backend').addEventListener('change', showBackendParams);
loadBackends();
start();
