// The playground in Debian's chromium, headless, driven by playwright-core. For every family the
// server lists (/v1/families) whose boards it draws, the page loads the family's example, solves it
// with the default backend, and the SVG must show what the server's own picture of that solution
// holds (POST /v1/draw, asked here directly): the glyphs and texts cell by cell, the walls, paths,
// rectangles, signs, cages and labels; a family added to the server is covered without an edit here.
// A family that draws nothing shows its solution as text. Also: boards.js on a picture with every
// primitive (those no family draws yet too), one draw request at a time during a long solve, the chart
// and the summary, the solver form built from the backends' declared parameters, a malformed puzzle;
// a screenshot of each board.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const binaryDir = process.env.QS_BINARY_DIR;
const outputDir = join(binaryDir, 'tests', 'web');
mkdirSync(outputDir, { recursive: true });

let server, browser, base;  // browser: the persistent context
const profile = mkdtempSync(join(tmpdir(), 'qs-chromium-'));

// Starts qs_server with its HTTP front on a free loopback port and reads the port from its log.
function startServer() {
  return new Promise((resolve, reject) => {
    server = spawn(join(binaryDir, 'server', 'qs_server'), [
      '--address=127.0.0.1:0', '--metrics_address=', '--http_address=127.0.0.1:0', '--worker_threads=2',
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    const timer = setTimeout(() => reject(new Error(`qs_server did not start:\n${log}`)), 30000);
    const scan = (chunk) => {
      log += chunk;
      const m = log.match(/HTTP front on \S+ \(port (\d+)\)/);
      if (m) { clearTimeout(timer); resolve(`http://127.0.0.1:${m[1]}`); }
    };
    server.stdout.on('data', scan);
    server.stderr.on('data', scan);
    server.on('exit', (code) => reject(new Error(`qs_server exited ${code}:\n${log}`)));
  });
}

// The families as the server lists them (fetched once the server runs).
let families = [];

before(async () => {
  base = await startServer();
  families = (await (await fetch(`${base}/v1/families`)).json()).families;
  // A fresh profile directory: the persistent context is how playwright takes --user-data-dir.
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 820 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
  rmSync(profile, { recursive: true, force: true });
});

async function post(path, body) {
  const response = await fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body) });
  const json = await response.json();
  assert.equal(response.status, 200, JSON.stringify(json));
  return json;
}

// A page with the family selected (its example loaded and drawn) and the backends listed.
async function openFamily(kind) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/`);
  await page.waitForFunction(() => document.querySelectorAll('#kind option').length > 0 &&
    document.querySelectorAll('#backend option').length > 1);
  await page.selectOption('#kind', kind);
  // The family chosen, not the one the page opened with.
  await page.waitForFunction((k) => document.querySelector('#status').textContent === `${k} loaded` ||
    document.querySelector('#status').classList.contains('error'), kind);
  assert.equal(await page.textContent('#status'), `${kind} loaded`);
  return { page, errors };
}

// Presses Solve with the default backend and a seed and waits for the summary (shown once the best
// board is drawn).
async function solveInPage(page) {
  assert.equal(await page.inputValue('#backend'), 'auto');
  await page.fill('#seed', '1');
  await page.fill('#time_limit', '20');
  await page.click('#solve');
  await page.waitForSelector('#summary[data-done="true"]', { timeout: 60000 });
}

// What the SVG shows, in the terms of a BoardPicture.
function readBoard(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('#board svg');
    const cells = [...svg.querySelectorAll('g.cell')].map((g) => ({
      row: +g.dataset.row, col: +g.dataset.col, glyph: g.dataset.glyph, text: g.dataset.text,
      region: +g.dataset.region, given: g.dataset.given === 'true', blocked: g.dataset.blocked === 'true',
      shapes: g.querySelectorAll('g.glyph *').length, texts: g.querySelectorAll('text.cell-text').length,
    }));
    const count = (selector) => svg.querySelectorAll(selector).length;
    return {
      rows: +svg.dataset.rows, cols: +svg.dataset.cols, cells,
      walls: count('line.wall'), paths: count('g.path polyline'), rects: count('g.area rect'),
      signs: [...svg.querySelectorAll('g.sign')].map((g) => g.dataset.sign),
      cages: count('g.cage'), cageLines: count('g.cage line'),
      rowLabels: [...svg.querySelectorAll('.row-label')].map((t) => t.textContent),
      colLabels: [...svg.querySelectorAll('.col-label')].map((t) => t.textContent),
      solution: document.querySelector('#board').dataset.cells,
      regionFills: new Set([...svg.querySelectorAll('g.cell rect.bg')].map((r) => r.getAttribute('fill'))).size,
      points: document.querySelectorAll('#chart circle').length,
      summary: document.querySelector('#summary').textContent,
    };
  });
}

// The drawn board against the server's picture of the same puzzle and solution.
function assertShows(drawn, picture) {
  assert.equal(drawn.rows, picture.rows);
  assert.equal(drawn.cols, picture.cols);
  assert.equal(drawn.cells.length, picture.rows * picture.cols);
  let glyphs = 0;
  drawn.cells.forEach((cell, i) => {
    const want = picture.cells[i];
    const where = `cell (${cell.row},${cell.col})`;
    assert.equal(cell.row * picture.cols + cell.col, i, where);
    assert.equal(cell.glyph, want.glyph, where);
    assert.equal(cell.text, want.text, where);
    assert.equal(cell.region, want.region, where);
    assert.equal(cell.given, want.given, where);
    assert.equal(cell.blocked, want.blocked, where);
    // Every glyph is drawn, as shapes or (a name the page does not know) as text.
    if (want.glyph) {
      glyphs++;
      assert.ok(cell.shapes > 0 || cell.texts > 0, `${where}: glyph ${want.glyph} not drawn`);
    }
    if (want.text) assert.equal(cell.texts, 1, `${where}: text ${want.text} not drawn`);
  });
  assert.equal(drawn.walls, picture.walls.length);
  assert.equal(drawn.paths, picture.paths.length);
  assert.equal(drawn.rects, picture.rects.length);
  assert.deepEqual(drawn.signs, picture.signs.map((s) => s.text));
  assert.equal(drawn.cages, picture.cages.length);
  if (picture.cages.length) assert.ok(drawn.cageLines >= 4 * picture.cages.length);
  assert.deepEqual(drawn.rowLabels, picture.rowLabels);
  assert.deepEqual(drawn.colLabels, picture.colLabels);
  if (picture.cells.some((c) => c.region)) {
    const colours = new Set(picture.cells.map((c) => (c.blocked ? -1 : c.region))).size;
    assert.ok(drawn.regionFills >= Math.min(colours, 16), `${drawn.regionFills} fills for ${colours} regions`);
  }
  return glyphs;
}

test('every family that draws: the solved example on the page is the server\'s picture', async (t) => {
  const drawing = families.filter((f) => f.draws);
  assert.ok(drawing.length > 0, 'no family draws');
  for (const family of drawing) {
    await t.test(family.kind, async () => {
      const { page, errors } = await openFamily(family.kind);
      const { puzzle } = await post('/v1/parse', { kind: family.kind, text: family.example });
      // The puzzle alone.
      const before = await readBoard(page);
      assertShows(before, (await post('/v1/draw', { puzzle })).picture);
      assert.equal(before.solution, '');

      await solveInPage(page);
      const drawn = await readBoard(page);
      assert.match(drawn.summary, /valid boardyes/, `${family.kind}: ${drawn.summary}`);
      assert.match(drawn.summary, /TTS99/);
      assert.ok(drawn.points > 0, 'no sample plotted');
      assert.ok(drawn.solution, 'no solution drawn');
      const cells = drawn.solution.split(',').map(Number);
      const { picture } = await post('/v1/draw', { puzzle, solution: { cells } });
      const glyphs = assertShows(drawn, picture);
      // A solved board shows more than its puzzle: the answer's glyphs or texts.
      const marks = (p) => p.cells.filter((c) => c.glyph || c.text).length;
      assert.ok(marks(picture) > marks((await post('/v1/draw', { puzzle })).picture) || picture.paths.length ||
        picture.rects.length, `${family.kind}: the solution adds nothing to the picture (${glyphs} glyphs)`);
      await page.screenshot({ path: join(outputDir, `playground-${family.kind}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});

test('the board follows a long solve with one draw request at a time, and ends on the best board', async () => {
  const family = families.find((f) => f.draws);
  const { page, errors } = await openFamily(family.kind);
  let inFlight = 0, most = 0, draws = 0;
  const finished = (request) => { if (request.url().endsWith('/v1/draw')) inFlight--; };
  page.on('request', (request) => {
    if (!request.url().endsWith('/v1/draw')) return;
    draws++;
    most = Math.max(most, ++inFlight);
  });
  page.on('requestfinished', finished);
  page.on('requestfailed', finished);
  // Many samples arriving fast: far more better boards than draws can follow one by one.
  await page.selectOption('#backend', 'cpu-sa');
  await page.fill('#reads', '400');
  await page.fill('#sweeps', '20');
  await page.fill('#seed', '3');
  await page.click('#solve');
  await page.waitForSelector('#summary[data-done="true"]', { timeout: 60000 });
  const { shown, best, samples } = await page.evaluate(() => ({
    shown: document.querySelector('#board').dataset.cells,
    best: document.querySelector('#summary').dataset.bestCells,
    samples: document.querySelectorAll('#chart circle').length,
  }));
  assert.ok(samples > 1, `${samples} samples`);
  assert.ok(draws >= 2, `${draws} draws`);  // the puzzle, then at least the best board
  assert.equal(most, 1, `${most} draw requests at once`);
  assert.equal(shown, best);
  assert.deepEqual(errors, []);
  await page.close();
});

test('boards.js draws every primitive of a BoardPicture, including those no family uses yet', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/`);
  await page.waitForFunction(() => typeof Boards === 'object');
  // A 3x4 picture with every kind of cell mark, every glyph drawing.proto names and one it does not,
  // and each primitive over the cells; a wall and a sign between cells that are not neighbours, a
  // rectangle off the board and path cells off the board are left out.
  const glyphs = ['queen', 'rook', 'bishop', 'knight', 'king', 'tree', 'tent', 'sun', 'moon', 'dot', 'cross', 'square', 'tall', 'wide'];
  const drawn = await page.evaluate((names) => {
    const cells = [];
    for (let i = 0; i < 12; i++) cells.push({ text: '', glyph: '', region: 0, given: false, blocked: false, shaded: false });
    cells[0] = { text: '7', given: true, region: 1 };
    cells[1] = { glyph: 'unicorn' };
    cells[2] = { blocked: true };
    cells[3] = { shaded: true, text: '12' };
    const picture = {
      rows: 3, cols: 4, cells,
      walls: [{ a: 0, b: 1 }, { a: 1, b: 5 }, { a: 3, b: 4 }],
      paths: [{ cells: [4, 5, 9, 10, 99] }],
      rects: [{ row: 1, col: 2, height: 2, width: 2, region: 3, label: '4' }, { row: 2, col: 3, height: 2, width: 1 }],
      signs: [{ a: 5, b: 6, text: '=' }, { a: 8, b: 9, text: 'x' }, { a: 0, b: 11, text: '=' }],
      cages: [{ cells: [6, 7, 11], label: '15' }],
      rowLabels: ['1', '2', '3'], colLabels: ['a', 'b', 'c', 'd'],
    };
    const box = document.createElement('div');
    document.body.appendChild(box);
    const svg = Boards.draw(box, picture, [{ location: 'row 3', message: 'broken' }]);
    const count = (selector) => svg.querySelectorAll(selector).length;
    const cell = (i) => svg.querySelectorAll('g.cell')[i];
    // Each known glyph alone in a cell of a 1x1 picture: drawn as shapes, not text.
    const shapes = {};
    for (const name of names) {
      const one = Boards.draw(box, { rows: 1, cols: 1, cells: [{ glyph: name }] });
      shapes[name] = [one.querySelectorAll('g.glyph *').length, one.querySelectorAll('text.cell-text').length];
    }
    return {
      cells: count('g.cell'), texts: [...svg.querySelectorAll('text.cell-text')].map((t) => t.textContent),
      given: cell(0).querySelector('text.cell-text').getAttribute('font-weight'),
      regionFill: cell(0).querySelector('rect.bg').getAttribute('fill'),
      blockedFill: cell(2).querySelector('rect.bg').getAttribute('fill'),
      shaded: count('g.cell rect.shade'),
      walls: count('line.wall'), paths: count('g.path polyline'),
      pathPoints: svg.querySelector('g.path polyline').getAttribute('points').trim().split(/\s+/).length,
      rects: count('g.area rect'), rectLabel: svg.querySelector('g.area text').textContent,
      signs: [...svg.querySelectorAll('g.sign')].map((g) => g.dataset.sign),
      cages: count('g.cage'), cageDashed: count('g.cage line[stroke-dasharray]'),
      cageLabel: svg.querySelector('g.cage text').textContent,
      rowLabels: [...svg.querySelectorAll('.row-label')].map((t) => t.textContent),
      colLabels: [...svg.querySelectorAll('.col-label')].map((t) => t.textContent),
      violations: count('rect.violation'), listed: Boards.GLYPHS, shapes,
    };
  }, glyphs);
  assert.equal(drawn.cells, 12);
  assert.deepEqual(drawn.texts, ['7', 'unicorn', '12']);  // an unknown glyph is drawn as its name
  assert.equal(drawn.given, '700');
  assert.notEqual(drawn.regionFill, drawn.blockedFill);
  assert.equal(drawn.shaded, 1);
  assert.equal(drawn.walls, 2);
  assert.equal(drawn.paths, 1);
  assert.equal(drawn.pathPoints, 4);
  assert.equal(drawn.rects, 1);
  assert.equal(drawn.rectLabel, '4');
  assert.deepEqual(drawn.signs, ['=', 'x']);
  assert.equal(drawn.cages, 1);
  // The outline of cells 6, 7 and 11 (an L): 8 sides of cells, dashed.
  assert.equal(drawn.cageDashed, 8);
  assert.equal(drawn.cageLabel, '15');
  assert.deepEqual(drawn.rowLabels, ['1', '2', '3']);
  assert.deepEqual(drawn.colLabels, ['a', 'b', 'c', 'd']);
  assert.equal(drawn.violations, 4);  // row 3
  assert.deepEqual([...drawn.listed].sort(), [...glyphs].sort());
  for (const name of glyphs) {
    assert.ok(drawn.shapes[name][0] > 0, `${name}: no shapes`);
    assert.equal(drawn.shapes[name][1], 0, `${name}: drawn as text`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a family that draws no boards shows its solution as text', async (t) => {
  for (const family of families.filter((f) => !f.draws)) {
    await t.test(family.kind, async () => {
      const { page, errors } = await openFamily(family.kind);
      assert.equal(await page.locator('#board svg').count(), 0);
      await solveInPage(page);
      const shown = (await page.textContent('#board pre')).trim();
      const rows = (await page.evaluate(() => document.querySelector('#summary').dataset.bestRows)).split('/');
      assert.equal(shown, rows.join('\n'));
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});

test('the solver form follows the backend\'s declared parameters', async () => {
  const family = families.find((f) => f.draws);
  const { page, errors } = await openFamily(family.kind);
  await page.waitForFunction(() => [...document.querySelectorAll('#backend option')].some((o) => o.value === 'tabu'));
  // Every parameter tabu declares gets an input, typed by the declaration, its default as placeholder.
  const backends = (await (await fetch(`${base}/v1/backends`)).json()).backends;
  const declared = backends.find((b) => b.name === 'tabu').params.map((p) => p.name);
  await page.selectOption('#backend', 'tabu');
  const shown = await page.evaluate(() => [...document.querySelectorAll('#backend-params [data-param]')].map((e) => e.dataset.param));
  assert.deepEqual(shown, declared);
  assert.equal(await page.getAttribute('#backend-params [data-param="tenure"]', 'type'), 'number');
  await page.fill('#backend-params [data-param="tenure"]', '3');
  await page.fill('#reads', '8');
  await page.fill('#seed', '2');
  await page.click('#solve');
  await page.waitForSelector('#summary[data-done="true"]', { timeout: 60000 });
  // The summary shows the backend's own details: the tenure that ran is the one typed.
  assert.match(await page.textContent('#summary'), /tenure 3\b/);
  // An enum parameter is a choice among the declared values.
  await page.selectOption('#backend', 'pt');
  const moves = await page.evaluate(() => [...document.querySelectorAll('#backend-params [data-param="moves"] option')].map((o) => o.value));
  assert.ok(moves.includes('PT_MOVES_SINGLE_FLIP'), moves.join(','));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a malformed puzzle is reported on the page', async () => {
  const family = families.find((f) => f.draws);
  const { page } = await openFamily(family.kind);
  await page.fill('#text', '@@@');
  await page.click('#load');
  await page.waitForFunction(() => document.querySelector('#status').classList.contains('error'));
  assert.match(await page.textContent('#status'), /INVALID_ARGUMENT: text: /);
  await page.close();
});
