import { randomBytes } from 'node:crypto';
import { Script } from 'node:vm';
import Redis from 'ioredis';
import { API, startTestApp, TestApp } from '../factories/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectErrorBody(
  body: Record<string, unknown>,
  status: number,
  code: string,
  requestId: string,
) {
  expect(body).toEqual({
    message: expect.anything(),
    error: expect.any(String),
    code,
    statusCode: status,
    request_id: requestId,
  });
}

function expectRateLimitHeaders(headers: Record<string, string>) {
  expect(Number(headers['x-ratelimit-limit'])).toBeGreaterThan(0);
  expect(Number(headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
  const reset = Number(headers['x-ratelimit-reset']);
  const now = Math.floor(Date.now() / 1000);
  // A Unix time in seconds, within the 60 s window, not a count of seconds to go.
  expect(reset).toBeGreaterThanOrEqual(now);
  expect(reset).toBeLessThanOrEqual(now + 61);
}

describe('request path', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('X-Request-Id', () => {
    it('echoes a well-formed request id', async () => {
      const res = await t.api().get(`${API}/workflows`).set('X-Request-Id', 'abc-123');
      expect(res.headers['x-request-id']).toBe('abc-123');
    });

    it('replaces an over-long or non-visible request id with a UUID', async () => {
      const long = await t.api().get(`${API}/workflows`).set('X-Request-Id', 'x'.repeat(129));
      expect(long.headers['x-request-id']).toMatch(UUID);
      const spaced = await t.api().get(`${API}/workflows`).set('X-Request-Id', 'a b');
      expect(spaced.headers['x-request-id']).toMatch(UUID);
    });

    it('generates one when none is sent and repeats it in the error body', async () => {
      const res = await t.http().get(`${API}/workflows`);
      expect(res.headers['x-request-id']).toMatch(UUID);
      expect(res.body.request_id).toBe(res.headers['x-request-id']);
    });
  });

  describe('headers on every kind of response', () => {
    it('on success', async () => {
      const res = await t.api().get(`${API}/workflows`).expect(200);
      expectRateLimitHeaders(res.headers);
      expect(res.headers['x-request-id']).toBeDefined();
    });

    it('on 401', async () => {
      const res = await t.http().get(`${API}/workflows`).expect(401);
      expectRateLimitHeaders(res.headers);
    });

    it('on 404 for an unknown route, with or without a key', async () => {
      const withKey = await t.api().get(`${API}/no-such-thing`).expect(404);
      expectRateLimitHeaders(withKey.headers);
      expectErrorBody(withKey.body, 404, 'not_found', withKey.headers['x-request-id']);
      const withoutKey = await t.http().delete(`${API}/no/such/thing`).expect(404);
      expectRateLimitHeaders(withoutKey.headers);
      expect(withoutKey.body.code).toBe('not_found');
    });

    it('on 404 for a known path with an unsupported method', async () => {
      const res = await t.api().put(`${API}/workflows`).send({}).expect(404);
      expect(res.body.code).toBe('not_found');
      expectRateLimitHeaders(res.headers);
    });

    it('on 501 for the call endpoints', async () => {
      const res = await t.api().get(`${API}/calls`).expect(501);
      expectRateLimitHeaders(res.headers);
      expectErrorBody(res.body, 501, 'not_implemented', res.headers['x-request-id']);
    });
  });

  describe('bodies', () => {
    it('refuses malformed JSON with 400 bad_request', async () => {
      const res = await t
        .api()
        .post(`${API}/workflows`)
        .set('Content-Type', 'application/json')
        .send('{"name": ')
        .expect(400);
      expectErrorBody(res.body, 400, 'bad_request', res.headers['x-request-id']);
      expectRateLimitHeaders(res.headers);
    });

    it('refuses a non-JSON content type with 415 bad_request', async () => {
      const res = await t
        .api()
        .post(`${API}/workflows`)
        .set('Content-Type', 'text/plain')
        .send('name=x')
        .expect(415);
      expectErrorBody(res.body, 415, 'bad_request', res.headers['x-request-id']);
    });

    it('refuses a body over the size limit with 413 bad_request', async () => {
      const res = await t
        .api()
        .post(`${API}/workflows`)
        .send({ name: 'big', system_prompt: 'x'.repeat(1024 * 1024 + 10) })
        .expect(413);
      expectErrorBody(res.body, 413, 'bad_request', res.headers['x-request-id']);
      expectRateLimitHeaders(res.headers);
    });

    it('refuses JSON nested too deeply', async () => {
      const deep = '{"a":'.repeat(200) + '1' + '}'.repeat(200);
      const res = await t
        .api()
        .post(`${API}/workflows`)
        .set('Content-Type', 'application/json')
        .send(`{"name":"n","prompt_config":${deep}}`)
        .expect(400);
      expect(res.body.code).toBe('bad_request');
    });

    it('refuses a JSON array or scalar where an object is expected', async () => {
      const array = await t
        .api()
        .post(`${API}/workflows`)
        .send([{ name: 'x' }])
        .expect(400);
      expect(array.body.code).toBe('validation_error');
      expect(array.body.message).toEqual(['body: must be a JSON object']);
      const scalar = await t
        .api()
        .post(`${API}/workflows`)
        .set('Content-Type', 'application/json')
        .send('"name"')
        .expect(400);
      expect(scalar.body.code).toBe('bad_request');
    });

    it('refuses NUL characters in bodies and URLs, which PostgreSQL cannot store', async () => {
      const body = await t.api().post(`${API}/workflows`).send({ name: 'a\u0000b' }).expect(400);
      expect(body.body.code).toBe('bad_request');
      const key = await t
        .api()
        .post(`${API}/workflows`)
        .send({ name: 'n', prompt_config: { 'k\u0000': 1 } })
        .expect(400);
      expect(key.body.code).toBe('bad_request');
      const query = await t.api().get(`${API}/workflows?search=a%00b`).expect(400);
      expect(query.body.code).toBe('bad_request');
    });

    it('checks the key before it looks at the body', async () => {
      const res = await t
        .http()
        .post(`${API}/workflows`)
        .set('Content-Type', 'application/json')
        .send('{broken')
        .expect(401);
      expect(res.body.code).toBe('api_key_missing');
    });
  });

  describe('validation messages', () => {
    it('lists "<field path>: <problem>" for nested fields, unknown fields and types', async () => {
      const res = await t
        .api()
        .post(`${API}/workflows`)
        .send({
          name: '',
          rules: [{ enabled: 'yes' }],
          flows: [{ name: 'f', trigger_keywords: [{ keyword: 'k', weight: 'huge' }] }],
          unexpected: 1,
        })
        .expect(400);
      expectErrorBody(res.body, 400, 'validation_error', res.headers['x-request-id']);
      expect(res.body.message).toEqual(
        expect.arrayContaining([
          'name: must not be empty',
          'rules.0.enabled: must be a boolean value',
          'flows.0.trigger_keywords.0.weight: must be one of the following values: high, medium, low',
          'unexpected: is not allowed',
        ]),
      );
      for (const line of res.body.message as string[]) {
        expect(line).toMatch(/^[\w.]+: \S/);
      }
    });

    it.each([
      ['{"name":"w","__proto__":{"polluted":1}}', '__proto__'],
      ['{"name":"w","constructor":1}', 'constructor'],
      ['{"name":"w","toString":"x"}', 'toString'],
      ['{"name":"w","valueOf":"x"}', 'valueOf'],
      ['{"name":"w","rules":[{"title":"t","__proto__":{"polluted":1}}]}', 'rules.0.__proto__'],
      ['{"name":"w","rules":[{"title":"t","hasOwnProperty":1}]}', 'rules.0.hasOwnProperty'],
      ['{"name":"w","prompt_config":{"__proto__":{"polluted":1}}}', 'prompt_config.__proto__'],
      [
        '{"name":"w","prompt_config":{"constructor":{"prototype":{"polluted":1}}}}',
        'prompt_config.constructor',
      ],
    ])('refuses %s like any unknown field, naming it', async (body, path) => {
      const res = await t
        .api()
        .post(`${API}/workflows`)
        .set('Content-Type', 'application/json')
        .send(body)
        .expect(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.message).toEqual([`${path}: is not allowed`]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('refuses an unknown sort field and out-of-range paging instead of clamping', async () => {
      for (const query of [
        'sort=password',
        'limit=101',
        'limit=0',
        'page=0',
        'page=abc',
        'limit=1.5',
      ]) {
        const res = await t.api().get(`${API}/workflows?${query}`).expect(400);
        expect(res.body.code).toBe('validation_error');
        expect(res.body.message[0]).toMatch(/^(sort|limit|page): /);
      }
    });
  });

  describe('unexpected failures', () => {
    it('answers 500 internal_error without internals, with the usual headers', async () => {
      const other = await startTestApp();
      try {
        const cascade = other.dataSource().options.type === 'postgres' ? ' CASCADE' : '';
        await other.dataSource().query(`DROP TABLE workflows${cascade}`);
        const res = await other.api().get(`${API}/workflows`).expect(500);
        expectErrorBody(res.body, 500, 'internal_error', res.headers['x-request-id']);
        expect(res.body.message).toBe('Internal server error');
        expect(JSON.stringify(res.body)).not.toMatch(/SELECT|workflows|sqlite|at \w+ \(/i);
        expectRateLimitHeaders(res.headers);
      } finally {
        await other.close();
      }
    });
  });

  describe('health and documents', () => {
    it('serves /healthz and /readyz without a key', async () => {
      expect((await t.http().get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
      const ready = await t.http().get('/readyz').expect(200);
      expect(ready.body.status).toBe('ok');
      expect(ready.body.details.database.status).toBe('up');
    });

    it('answers /readyz 503 when the database is gone', async () => {
      const other = await startTestApp();
      try {
        await other.dataSource().destroy();
        const res = await other.http().get('/readyz').expect(503);
        expect(res.body.code).toBe('internal_error');
        expect(res.body.message).toMatch(/database/);
      } finally {
        await other.close().catch(() => undefined);
      }
    });

    it('serves the OpenAPI document and its UI without a key', async () => {
      const doc = await t.http().get(`${API}/openapi.json`).expect(200);
      expect(doc.body.openapi).toMatch(/^3\./);
      expect(doc.body.paths[`/${API.slice(1)}/workflows`]).toBeDefined();
      const ui = await t.http().get(`${API}/docs`).redirects(1).expect(200);
      expect(ui.text).toMatch(/swagger/i);
      // The page's script carries the document: a description that breaks it breaks the page.
      const init = await t.http().get(`${API}/docs/swagger-ui-init.js`).expect(200);
      expect(() => new Script(init.text)).not.toThrow();
      expect(init.text).toContain('"openapi"');
    });
  });
});

describe('rate limiting', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_S: '60' });
  });
  afterAll(() => t.close());

  it('keeps one budget per key across routes and answers 429 with Retry-After', async () => {
    const remaining: number[] = [];
    for (const path of ['/workflows', '/calls', '/workflows', '/no-route', '/workflows']) {
      const res = await t.api().get(`${API}${path}`);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      remaining.push(Number(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const limited = await t.api().get(`${API}/workflows`).expect(429);
    expectErrorBody(limited.body, 429, 'too_many_requests', limited.headers['x-request-id']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expectRateLimitHeaders(limited.headers);
  });

  it('counts another key separately', async () => {
    const other = await t.createKey('default', ['workflows:read']);
    const res = await t.api(other.key).get(`${API}/workflows`).expect(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('4');
  });

  it('counts callers without a valid key by IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await t.api('sk_invalid_' + 'x'.repeat(32)).get(`${API}/workflows`)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('rate limiting behind one proxy (TRUST_PROXY=1)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: '1', RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_S: '60' });
  });
  afterAll(() => t.close());

  const invalidKeyFrom = (forwardedFor: string) =>
    t
      .api('sk_invalid_' + 'x'.repeat(32))
      .get(`${API}/workflows`)
      .set('X-Forwarded-For', forwardedFor);

  it('refuses a forged X-Forwarded-For: the client the proxy saw is rate-limited whatever it puts leftmost', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await invalidKeyFrom(`198.51.100.${i}, 203.0.113.7`)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect((await invalidKeyFrom('198.51.100.9, 203.0.113.8')).status).toBe(401);
  });
});

describe('rate limiting in a shared Redis', () => {
  const REDIS_URL = 'redis://127.0.0.1:6379';
  const prefixes = [1, 2].map(() => `test-${randomBytes(6).toString('hex')}:`);
  const apps: TestApp[] = [];

  const start = async (prefix: string) => {
    const app = await startTestApp({
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_MAX: '2',
      RATE_LIMIT_WINDOW_S: '60',
    });
    apps.push(app);
    return app;
  };

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    const redis = new Redis(REDIS_URL);
    for (const prefix of prefixes) {
      const keys = await redis.keys(`*${prefix}*`);
      if (keys.length > 0) {
        await redis.del(...keys);
      }
    }
    await redis.quit();
  });

  const invalidKeyStatus = async (t: TestApp) =>
    (await t.api('sk_invalid_' + 'x'.repeat(32)).get(`${API}/workflows`)).status;

  it('keeps separate budgets for deployments with different REDIS_KEY_PREFIX, and one for the same', async () => {
    const first = await start(prefixes[0]);
    const sameDeployment = await start(prefixes[0]);
    const otherDeployment = await start(prefixes[1]);
    expect([await invalidKeyStatus(first), await invalidKeyStatus(first)]).toEqual([401, 401]);
    expect(await invalidKeyStatus(sameDeployment)).toBe(429);
    expect(await invalidKeyStatus(otherDeployment)).toBe(401);
  });
});
