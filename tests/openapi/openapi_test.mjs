// GET /v1/openapi.json of a running qs_server: a valid OpenAPI 3 document (swagger-parser validates it
// against the OpenAPI schema and resolves every $ref) that describes every route the HTTP handlers register
// (and the server answers each), the puzzle oneof and every parameter of every backend as GET /v1/backends
// reports it; then a client that knows nothing but the document (operation ids, paths, content types)
// lists the families, parses one's example and solves it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

// The API routes as the HTTP front registers them: every Route(server, context, options, METHOD, PATH, ...)
// call of server/http/, read from the source so that the list does not come from the document's own table.
// The probes are registered the same way but are no part of the API (api_routes.h).
function registeredRoutes() {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'http');
  const routes = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cc'))) {
    const source = readFileSync(join(dir, file), 'utf8');
    for (const m of source.matchAll(/Route\(\s*server,\s*context,\s*options,\s*"(GET|POST)",\s*"([^"]+)"/g)) {
      if (m[2] !== '/healthz' && m[2] !== '/readyz') routes.push(`${m[1]} ${m[2]}`);
    }
  }
  return routes.sort();
}

test('it describes every route the server registers, and the server answers each', async () => {
  const registered = registeredRoutes();
  assert.ok(registered.length >= 12, `only ${registered.length} routes found in server/http/`);
  const documented = Object.entries(document.paths)
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
  assert.deepEqual(documented, registered);
  const ids = new Set();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      assert.ok(op.operationId && !ids.has(op.operationId), `${method} ${path}: operationId ${op.operationId}`);
      ids.add(op.operationId);
      assert.ok(op.responses['200']?.content, `${method} ${path}: no 200 answer`);
      // An empty body is refused (400) or answered, never 404: the server routes the documented method and
      // path, and routes an undocumented method on it nowhere (404).
      const post = method === 'post';
      const response = await fetch(base + path, {
        method: method.toUpperCase(),
        headers: post ? { 'Content-Type': Object.keys(op.requestBody.content)[0] } : {},
        body: post ? '{}' : undefined,
      });
      await response.arrayBuffer();
      assert.notEqual(response.status, 404, `${method} ${path}`);
      const other = await fetch(base + path, { method: post ? 'GET' : 'POST', body: post ? undefined : '{}' });
      await other.arrayBuffer();
      assert.equal(other.status, 404, `${post ? 'GET' : 'POST'} ${path}`);
    }
  }
});

test('it describes the puzzle oneof and the enums', () => {
  const schemas = document.components.schemas;
  const puzzle = schemas['qs.v1.PuzzleSpec'];
  assert.deepEqual(puzzle.oneOf.map((alternative) => alternative.required[0]).sort(),
    Object.keys(puzzle.properties).sort());
  // Enums by name, as protobuf's JSON mapping writes them.
  assert.ok(schemas['qs.v1.Termination'].enum.includes('TIME_LIMIT'));
});

// A parameter's name in protobuf's JSON mapping (lowerCamelCase).
const jsonName = (name) => name.replace(/_([a-z0-9])/g, (_, ch) => ch.toUpperCase());

// The schema of one value of a parameter of that type, as the document writes it (protobuf's JSON mapping:
// 64-bit integers are strings); enums and messages are references, checked by the caller.
const valueTypes = {
  double: { type: 'number' }, float: { type: 'number' }, bool: { type: 'boolean' }, string: { type: 'string' },
  int32: { type: 'integer', format: 'int32' }, uint32: { type: 'integer', format: 'int64' },
  int64: { type: 'string', format: 'int64' }, uint64: { type: 'string', format: 'uint64' },
};

function resolve(ref) {
  assert.match(ref, /^#\/components\/schemas\//);
  const schema = document.components.schemas[ref.slice('#/components/schemas/'.length)];
  assert.ok(schema, ref);
  return schema;
}

test("every backend's parameters are described as GET /v1/backends reports them", async () => {
  const { backends } = await call('ListBackends');
  const schemas = document.components.schemas;
  const solveParams = schemas['qs.v1.SolveParams'].properties;
  const described = Object.entries(schemas).filter(([, schema]) => schema['x-qs-backend']);
  let checked = 0;
  for (const backend of backends) {
    const params = backend.params ?? [];
    const mine = described.filter(([, schema]) => schema['x-qs-backend'] === backend.name);
    if (!backend.paramsField) {
      assert.equal(params.length, 0, backend.name);
      assert.equal(mine.length, 0, `${backend.name} has no params field but a schema`);
      continue;
    }
    // SolveParams' field of the backend refers to the schema that names the backend.
    const field = solveParams[jsonName(backend.paramsField)];
    assert.ok(field?.$ref, `SolveParams.${backend.paramsField}`);
    const schema = resolve(field.$ref);
    assert.equal(schema['x-qs-backend'], backend.name);
    assert.equal(mine.length, 1, backend.name);
    // The same parameters, each with its type, default, unit, help and bounds.
    assert.deepEqual(Object.keys(schema.properties ?? {}).sort(), params.map((p) => jsonName(p.name)).sort(),
      backend.name);
    for (const param of params) {
      const where = `${backend.name}.${param.name}`;
      const property = schema.properties[jsonName(param.name)];
      assert.equal(property.description, param.help, where);
      assert.equal(property['x-qs-default'], param.defaultValue || undefined, where);
      assert.equal(property['x-qs-unit'], param.unit || undefined, where);
      if (param.repeated) assert.equal(property.type, 'array', where);
      const value = param.repeated ? property.items : property;
      // A reference carries the annotations beside it, in allOf.
      const ref = value.$ref ?? value.allOf?.[0]?.$ref;
      if (param.type === 'enum') {
        // Every choice is a value of the enum, in order; the enum's schema is shared with the answers, so it
        // also holds values that are reported but refused in a request (SCHEDULE_CUSTOM).
        const values = resolve(ref).enum;
        assert.ok(param.choices.length > 0, where);
        assert.deepEqual(values.filter((v) => param.choices.includes(v)), param.choices, where);
      } else if (valueTypes[param.type]) {
        assert.equal(ref, undefined, where);
        for (const [key, expected] of Object.entries(valueTypes[param.type])) {
          assert.equal(value[key], expected, `${where}: ${key}`);
        }
        if ('min' in param) {
          assert.equal(value.minimum, param.min, `${where}: minimum`);
          assert.equal(value.exclusiveMinimum, param.minExclusive || undefined, `${where}: exclusiveMinimum`);
        } else if (param.type !== 'uint32') {
          assert.equal(value.minimum, undefined, `${where}: minimum`);  // uint32 values have their own 0
        }
        assert.equal(value.maximum, param.max, `${where}: maximum`);
      } else {
        // A message of its own: the reference names it.
        assert.ok(ref?.endsWith(`.${param.type}`), `${where}: ${ref} for ${param.type}`);
        resolve(ref);
      }
      ++checked;
    }
  }
  assert.ok(checked >= 50, `only ${checked} parameters checked`);
});
