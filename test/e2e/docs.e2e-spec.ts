import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { OpenApiDocument } from '../support/openapi';

const ROOT = join(__dirname, '..', '..');
/** Paths outside the console prefix: the probes and the web chat's public surface. */
const outsidePrefix = (path: string) =>
  /^\/(healthz|readyz|widget\.js)$|^\/api\/v1\/(widget|channels)\//.test(path);

/** `operationId METHOD /path` of every row of docs/api.md's list of operations. */
function documentedOperations(): string[] {
  const markdown = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
  const row = /^\| `(\w+)` +\| `(GET|POST|PUT|PATCH|DELETE) ([^`]+)` +\|/gm;
  return [...markdown.matchAll(row)].map(
    ([, id, method, path]) => `${id} ${method} ${outsidePrefix(path) ? path : API + path}`,
  );
}

describe('docs/api.md', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('names every operation of the served document, and no other', async () => {
    const doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body as OpenApiDocument;
    const served = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries<{ operationId: string }>(item).map(
        ([method, operation]) => `${operation.operationId} ${method.toUpperCase()} ${path}`,
      ),
    );
    const documented = documentedOperations();
    expect(served.length).toBeGreaterThan(50);
    expect([...documented].sort()).toEqual([...served].sort());
  });
});
