// The playground: a puzzle from its text (/v1/parse) or generated (/v1/generate), drawn by the server
// (/v1/draw: the family's BoardPicture, which boards.js turns into SVG), solved through the streamed
// /v1/solve while the board, the energy chart and the violated rules follow the best sample; the
// summary at the end. Everything it needs comes from this server, and nothing here names a family:
// the list, the examples and what each family can do come from /v1/families.
'use strict';

const $ = (id) => document.getElementById(id);

// The families the server takes (/v1/families): kind -> {description, example, generate, draws, writer}.
const families = {};

// spec: the parsed puzzle; solution: the best one shown (PuzzleSolution); generation counts puzzles
// and solves, so that an answer that arrives for an older one is dropped.
const state = { kind: null, spec: null, solution: null, violations: [], abort: null, generation: 0 };

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

function showViolations(violations) {
  const list = $('violations');
  list.textContent = '';
  for (const v of violations) {
    const li = document.createElement('li');
    li.textContent = `${v.location}: ${v.message}`;
    list.appendChild(li);
  }
}

// A family that draws no boards (a raw model): the solution's text, or a line saying what was loaded.
function showText(solution) {
  const board = $('board');
  board.textContent = '';
  const pre = document.createElement('pre');
  pre.className = 'solution-text';
  if (solution) {
    pre.textContent = (solution.rows && solution.rows.length ? solution.rows : [(solution.cells || []).join(' ')]).join('\n');
  } else {
    pre.textContent = `${state.kind}: no picture for this family; the solution is shown as text.`;
  }
  board.appendChild(pre);
}

// The latest picture request: at most one /v1/draw is in flight, and while it is, a newer solution
// replaces the one waiting, so that the board follows the stream without queueing behind it.
const drawing = { busy: false, next: null, waiters: [] };

// Draws the current puzzle and `solution` (null: the puzzle alone); resolves once this or a newer
// request has been drawn.
function requestDraw(solution, violations) {
  const done = new Promise((resolve) => drawing.waiters.push(resolve));
  drawing.next = {
    solution, violations: violations || [], generation: state.generation, spec: state.spec,
    draws: !!(families[state.kind] || {}).draws,
  };
  if (!drawing.busy) pumpDraws();
  return done;
}

async function pumpDraws() {
  drawing.busy = true;
  while (drawing.next) {
    const job = drawing.next;
    drawing.next = null;
    const waiters = drawing.waiters.splice(0);
    try {
      if (job.generation === state.generation) await drawJob(job);
    } catch (e) {
      if (job.generation === state.generation) setStatus(e.message, true);
    }
    waiters.forEach((resolve) => resolve());
  }
  drawing.busy = false;
}

async function drawJob(job) {
  const board = $('board');
  if (!job.draws) {
    showText(job.solution);
  } else {
    const body = { puzzle: job.spec };
    if (job.solution) body.solution = job.solution;
    const { picture } = await call('/v1/draw', body);
    if (job.generation !== state.generation) return;
    Boards.draw(board, picture, job.violations);
    // The size of the board is what Generate makes next.
    if (!job.solution && picture.rows) $('size').value = picture.rows;
  }
  board.dataset.solved = job.solution ? 'true' : 'false';
  board.dataset.cells = job.solution ? (job.solution.cells || []).join(',') : '';
  showViolations(job.violations);
}

// A new puzzle: the last solve's chart, summary and board go.
function clearResults() {
  chart.points = [];
  chart.ground = null;
  drawChart();
  $('summary').textContent = '';
  $('summary').dataset.done = 'false';
}

function newPuzzle(spec) {
  if (state.abort) state.abort.abort();  // a solve of the puzzle before
  state.generation++;
  state.spec = spec;
  state.solution = null;
  state.violations = [];
  clearResults();
  return requestDraw(null, []);
}

let loads = 0;  // the newest load wins: an earlier parse that answers late is dropped

async function loadText() {
  const kind = state.kind;
  const load = ++loads;
  setStatus(`loading ${kind}…`);
  try {
    const parsed = await call('/v1/parse', { kind, text: $('text').value });
    if (load !== loads) return;
    await newPuzzle(parsed.puzzle);
    if (load !== loads) return;
    if ($('status').className !== 'error') setStatus(`${kind} loaded`);
  } catch (e) {
    if (load === loads) setStatus(e.message, true);
  }
}

async function generate() {
  const kind = state.kind;
  if (!(families[kind] || {}).generate) return setStatus(`no generator for ${kind}`, true);
  setStatus('generating…');
  try {
    const rows = +$('size').value || 8;
    const answer = await call('/v1/generate?stream=false', { family: kind, rows, count: 1, difficulty: 'DIFFICULTY_MEDIUM' });
    const made = answer.puzzles[0];
    $('text').value = families[kind].writer ? (await call('/v1/format', { kind, puzzle: made.puzzle })).text : '';
    await newPuzzle(made.puzzle);
    setStatus(`generated a ${kind} puzzle with ${made.clues} clues`);
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
  // Left empty: the server's defaults (a backend such as auto sizes its own rounds); typed values are
  // the reads and sweeps of each round.
  if ($('reads').value !== '') p.numReads = +$('reads').value || 100;
  if ($('sweeps').value !== '') p.numSweeps = +$('sweeps').value || 1000;
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
  $('summary').dataset.bestCells = (summary.bestSolution.cells || []).join(',');
}

async function solve() {
  if (!state.spec) await loadText();
  if (!state.spec) return;
  state.generation++;
  const generation = state.generation;
  clearResults();
  state.solution = null;
  state.violations = [];
  requestDraw(null, []);
  const abort = state.abort = new AbortController();
  $('solve').disabled = true;
  $('stop').disabled = false;
  setStatus('solving…');
  let best = null, header = null;
  // A better board than the one shown: drawn when the picture in flight (if any) is back. Nothing
  // once another puzzle is loaded.
  const show = async (solution, violations) => {
    if (generation !== state.generation) return;
    state.solution = solution;
    state.violations = violations || [];
    return requestDraw(solution, state.violations);
  };
  try {
    const response = await fetch('/v1/solve', {
      method: 'POST', headers: headers(), signal: abort.signal,
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
          if (better && s.solution && (s.solution.cells || []).length) {
            best = s;
            show(s.solution, s.violations);
          }
        } else if (event.progress) {
          setStatus(`${event.progress.readsDone} of ${event.progress.readsTotal} reads, best ${event.progress.bestEnergy}`);
        } else if (event.summary) {
          const s = event.summary;
          drawChart();
          // The summary is marked done once its best board is on the page.
          if (s.bestSolution && (s.bestSolution.cells || []).length) await show(s.bestSolution, s.bestViolations);
          if (generation !== state.generation) return;
          showSummary(s, header);
          setStatus(s.bestValid ? 'solved' : 'no valid board found');
        }
      }
    }
  } catch (e) {
    if (generation === state.generation) setStatus(e.name === 'AbortError' ? 'stopped' : e.message, e.name !== 'AbortError');
  } finally {
    if (state.abort === abort) {
      $('solve').disabled = false;
      $('stop').disabled = true;
      state.abort = null;
    }
  }
}

// ---- Wiring ------------------------------------------------------------------------------------

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
  const family = families[kind];
  state.kind = kind;
  $('kind').value = kind;
  $('text').value = family.example;
  $('generate').disabled = !family.generate;
  $('hint').textContent = `${family.description}. Edit the text and press Load text` +
    (family.generate ? ', or Generate a puzzle of the size given.' : '.');
  loadText();
}

$('kind').addEventListener('change', () => selectKind($('kind').value));
$('load').addEventListener('click', loadText);
$('generate').addEventListener('click', generate);
$('solve').addEventListener('click', solve);
$('stop').addEventListener('click', () => state.abort && state.abort.abort());
$('token').addEventListener('change', () => { loadBackends(); start(); });
$('backend').addEventListener('change', showBackendParams);
loadBackends();
start();
