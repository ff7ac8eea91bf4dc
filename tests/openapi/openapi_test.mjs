// GET /v1/openapi.json of a running qs_server: a valid OpenAPI 3 document (swagger-parser validates it
// against the OpenAPI schema and resolves every $ref) that describes the routes, the puzzle oneof and the
// backends' parameters; then a client that knows nothing but the document (operation ids, paths, content
// types) lists the families, parses one's example and solves it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';

const binaryDir = process.env.QS_BINARY_DIR;
let server, base, document;

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
  const response = await fetch(`${base}/v1/openapi.json`);
  assert.equal(response.status, 200);
  document = await response.json();
});

after(() => { server?.kill('SIGTERM'); });

// The operation of that id: its path, method and the content type of its body and answer.
function operation(id) {
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (op.operationId === id) {
        const body = op.requestBody ? Object.keys(op.requestBody.content)[0] : null;
        const answer = Object.keys(op.responses['200'].content)[0];
        return { path, method: method.toUpperCase(), body, answer };
      }
    }
  }
  throw new Error(`no operation ${id}`);
}

async function call(id, body) {
  const op = operation(id);
  const request = {
    method: op.method,
    headers: op.body ? { 'Content-Type': op.body } : {},
    body: op.body ? JSON.stringify(body) : undefined,
  };
  // A kept-alive connection the server closed while this process was busy fails before any answer:
  // ask once more on a new one, as browsers do.
  const response = await fetch(base + op.path, request).catch(() => fetch(base + op.path, request));
  const text = await response.text();
  assert.equal(response.status, 200, `${id}: ${text}`);
  return op.answer === 'application/x-ndjson'
    ? text.trim().split('\n').map((line) => JSON.parse(line)) : JSON.parse(text);
}

test('a client driven by the document solves a family example', async () => {
  const { families } = await call('ListFamilies');
  const sudoku = families.find((family) => family.kind === 'sudoku');
  const { puzzle } = await call('Parse', { kind: sudoku.kind, text: sudoku.example });
  const lines = await call('Solve', { puzzle, params: { timeLimitSeconds: 20 } });
  const summary = lines.at(-1).summary;
  assert.ok(summary, JSON.stringify(lines.at(-1)));
  assert.equal(summary.bestValid, true, JSON.stringify(summary));
});

test('the document is a valid OpenAPI 3 document', async () => {
  const copy = structuredClone(document);
  const api = await SwaggerParser.validate(copy);
  assert.match(api.openapi, /^3\./);
});

test('it describes every route, the puzzle oneof and the backend parameters', () => {
  for (const path of ['/v1/solve', '/v1/count', '/v1/generate', '/v1/compile', '/v1/backends', '/v1/families']) {
    assert.ok(document.paths[path], path);
  }
  const schemas = document.components.schemas;
  const puzzle = schemas['qs.v1.PuzzleSpec'];
  assert.deepEqual(puzzle.oneOf.map((alternative) => alternative.required[0]).sort(),
    Object.keys(puzzle.properties).sort());
  const sweeps = schemas['qs.v1.CpuSaParams'].properties;
  assert.ok(Object.values(sweeps).some((p) => p.description && ('minimum' in p || 'x-qs-default' in p)));
  assert.equal(schemas['qs.v1.CpuSaParams']['x-qs-backend'], 'cpu-sa');
  // Enums by name, as protobuf's JSON mapping writes them.
  assert.ok(schemas['qs.v1.Termination'].enum.includes('TIME_LIMIT'));
});
