// The playground in Debian's chromium, headless, driven by playwright-core: it solves a LinkedIn
// Queens puzzle and a Tango puzzle through the page, checks the board drawn in the DOM against
// the service's own answer for the same request (same seed, same samples) and against the
// puzzles' known solutions, checks the chart and the summary, and saves a screenshot of each.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const binaryDir = process.env.QS_BINARY_DIR;
const sourceDir = process.env.QS_SOURCE_DIR;
const outputDir = join(binaryDir, 'tests', 'web');
mkdirSync(outputDir, { recursive: true });

// A puzzle and its solution from the stored test data.
function storedPuzzle(file, name) {
  for (const line of readFileSync(join(sourceDir, 'tests/data', file), 'utf8').split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields[0] === name) return { text: fields[fields.length - 2], solution: fields[fields.length - 1].split('/') };
  }
  throw new Error(`${name} not in ${file}`);
}

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

before(async () => {
  base = await startServer();
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

// What the service answers for the same request, asked directly.
async function serviceAnswer(kind, text, params) {
  const parsed = await (await fetch(`${base}/v1/parse`, { method: 'POST', body: JSON.stringify({ kind, text }) })).json();
  const response = await fetch(`${base}/v1/solve?stream=false`, {
    method: 'POST', body: JSON.stringify({ puzzle: parsed.puzzle, params }),
  });
  assert.equal(response.status, 200);
  return (await response.json()).summary;
}

async function solveInPage(kind, text, seed, reads) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/`);
  // The page asks for auto, the service's default; the reads-per-point checks below need a sampler whose
  // reads are --reads, so cpu-sa is picked once ListBackends has filled the list.
  await page.waitForFunction(() => [...document.querySelectorAll('#backend option')].some((o) => o.value === 'cpu-sa'));
  assert.equal(await page.inputValue('#backend'), 'auto');
  await page.selectOption('#backend', 'cpu-sa');
  await page.selectOption('#kind', kind);
  await page.fill('#text', text);
  await page.click('#load');
  await page.waitForFunction(() => document.querySelectorAll('#board g.cell').length > 0);
  await page.fill('#reads', String(reads));
  await page.fill('#seed', String(seed));
  await page.click('#solve');
  await page.waitForSelector('#summary[data-done="true"]', { timeout: 60000 });
  const drawn = await page.evaluate(() => {
    const rows = [];
    for (const g of document.querySelectorAll('#board g.cell')) {
      rows[+g.dataset.row] = (rows[+g.dataset.row] || '') + g.dataset.value;
    }
    return {
      rows,
      points: document.querySelectorAll('#chart circle').length,
      groundLine: document.querySelectorAll('#chart line[stroke-dasharray]').length,
      summary: document.querySelector('#summary').textContent,
      violations: document.querySelectorAll('#board .violation').length,
    };
  });
  return { page, drawn, errors };
}

test('LinkedIn Queens: the drawn board is the service\'s answer', async () => {
  const { text, solution } = storedPuzzle('queens/linkedin_queens.txt', 'lq8-1');
  const { page, drawn, errors } = await solveInPage('queens', text, 11, 100);
  const answer = await serviceAnswer('queens', text, { backend: 'cpu-sa', numReads: 100, numSweeps: 1000, seed: '11' });
  assert.deepEqual(drawn.rows, answer.bestSolution.rows);
  assert.deepEqual(drawn.rows, solution);
  assert.equal(drawn.points, 100);  // one point per read
  assert.equal(drawn.groundLine, 1);
  assert.equal(drawn.violations, 0);
  assert.match(drawn.summary, /success fraction/);
  assert.match(drawn.summary, /TTS99/);
  // Regions are coloured: more than one fill among the cells.
  const fills = await page.evaluate(() => new Set([...document.querySelectorAll('#board rect.bg')].map((r) => r.getAttribute('fill'))).size);
  assert.ok(fills >= 8, `${fills} region colours`);
  await page.screenshot({ path: join(outputDir, 'playground-queens.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('Tango: suns, moons and signs; the drawn board is the service\'s answer', async () => {
  const { text, solution } = storedPuzzle('takuzu/puzzles.txt', 'tango-6x6-1');
  const { page, drawn, errors } = await solveInPage('tango', text, 5, 64);
  const answer = await serviceAnswer('tango', text, { backend: 'cpu-sa', numReads: 64, numSweeps: 1000, seed: '5' });
  assert.deepEqual(drawn.rows, answer.bestSolution.rows);
  assert.deepEqual(drawn.rows, solution);
  assert.equal(drawn.points, 64);
  const signs = await page.evaluate(() => [...document.querySelectorAll('#board g.sign')].map((g) => g.dataset.sign).filter(Boolean));
  assert.ok(signs.includes('=') && signs.includes('x'), `signs drawn: ${signs}`);
  await page.screenshot({ path: join(outputDir, 'playground-tango.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the solver form follows the backend\'s declared parameters', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/`);
  await page.waitForFunction(() => [...document.querySelectorAll('#backend option')].some((o) => o.value === 'tabu'));
  // Every parameter tabu declares gets an input, typed by the declaration, its default as placeholder.
  const backends = (await (await fetch(`${base}/v1/backends`)).json()).backends;
  const declared = backends.find((b) => b.name === 'tabu').params.map((p) => p.name);
  await page.selectOption('#backend', 'tabu');
  const shown = await page.evaluate(() => [...document.querySelectorAll('#backend-params [data-param]')].map((e) => e.dataset.param));
  assert.deepEqual(shown, declared);
  assert.equal(await page.getAttribute('#backend-params [data-param="tenure"]', 'type'), 'number');
  await page.selectOption('#kind', 'queens');
  await page.fill('#text', storedPuzzle('queens/linkedin_queens.txt', 'lq8-1').text);
  await page.click('#load');
  await page.waitForFunction(() => document.querySelectorAll('#board g.cell').length > 0);
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
  const page = await browser.newPage();
  await page.goto(`${base}/`);
  await page.selectOption('#kind', 'queens');
  await page.fill('#text', 'AB/A');
  await page.click('#load');
  await page.waitForFunction(() => document.querySelector('#status').classList.contains('error'));
  assert.match(await page.textContent('#status'), /INVALID_ARGUMENT: text: /);
  await page.close();
});
