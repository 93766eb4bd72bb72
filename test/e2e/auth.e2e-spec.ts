import { KEY_CACHE_TTL_MS } from '@/modules/auth/api-key-authenticator';
import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { request as httpRequest } from 'node:http';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { bearer } from '../support/bearer';
import { pollUntil } from '../support/wait';

/** A GET with repeated headers, sent as such (an array value becomes one header line each). */
function getWithHeaders(
  url: string,
  headers: Record<string, string | string[]>,
): Promise<{ status: number; body: { code: string } }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function expectCode(
  res: { status: number; body: { code: string } },
  status: number,
  code: string,
) {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
}

describe('authentication and scopes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('accepts the key as a Bearer token or as X-Api-Key', async () => {
    await t.http().get(`${API}/workflows`).set('Authorization', `Bearer ${t.key}`).expect(200);
    await t.http().get(`${API}/workflows`).set('Authorization', `bearer ${t.key}`).expect(200);
    await t.http().get(`${API}/workflows`).set('X-Api-Key', t.key).expect(200);
    await t.http().get(`${API}/workflows`).set('X-Api-Key', t.key).set(bearer(t.key)).expect(200);
  });

  it('answers api_key_missing when neither header is sent', async () => {
    const res = await t.http().get(`${API}/workflows`);
    await expectCode(res, 401, 'api_key_missing');
  });

  it('answers unauthorized for a header that carries no usable credential', async () => {
    const cases: Array<Record<string, string>> = [
      { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      { Authorization: 'Bearer' },
      { Authorization: '' },
      { 'X-Api-Key': '' },
      { Authorization: `Token ${t.key}` },
    ];
    for (const headers of cases) {
      await expectCode(await t.http().get(`${API}/workflows`).set(headers), 401, 'unauthorized');
    }
  });

  it('answers unauthorized when both headers carry different keys', async () => {
    const other = await t.createKey('default', ['*']);
    const res = await t
      .http()
      .get(`${API}/workflows`)
      .set(bearer(t.key))
      .set('X-Api-Key', other.key);
    await expectCode(res, 401, 'unauthorized');
  });

  it('answers unauthorized when Authorization or X-Api-Key is repeated, whichever key comes first', async () => {
    const url = `${t.url}${API}/workflows`;
    const unknown = 'sk_' + 'z'.repeat(40);
    const cases: Array<Record<string, string[]>> = [
      { Authorization: [`Bearer ${t.key}`, `Bearer ${unknown}`] },
      { Authorization: [`Bearer ${t.key}`, `Bearer ${t.key}`] },
      { 'X-Api-Key': [t.key, unknown] },
      { 'X-Api-Key': [t.key, t.key] },
    ];
    for (const headers of cases) {
      await expectCode(await getWithHeaders(url, headers), 401, 'unauthorized');
    }
    expect((await getWithHeaders(url, { 'X-Api-Key': [t.key] })).status).toBe(200);
  });

  it('answers api_key_invalid for unknown keys and keys not of the sk_ form', async () => {
    for (const key of ['sk_' + 'z'.repeat(40), 'pk_' + 'z'.repeat(40), 'sk_short', 'nonsense']) {
      await expectCode(await t.api(key).get(`${API}/workflows`), 401, 'api_key_invalid');
    }
  });

  it('answers api_key_expired for a key past its expiry', async () => {
    const expired = await t.createKey('default', ['*'], new Date(Date.now() - 1000));
    await expectCode(await t.api(expired.key).get(`${API}/workflows`), 401, 'api_key_expired');
  });

  it('stops accepting a key that expires while it is cached', async () => {
    const soon = await t.createKey('default', ['*'], new Date(Date.now() + 600));
    await t.api(soon.key).get(`${API}/workflows`).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 700));
    await expectCode(await t.api(soon.key).get(`${API}/workflows`), 401, 'api_key_expired');
  });

  it('refuses a revoked key within the cache lifetime', async () => {
    const victim = await t.createKey('default', ['*']);
    await t.api(victim.key).get(`${API}/workflows`).expect(200);
    expect(await t.app.get(ApiKeysService).revoke(victim.keyId)).toBe(true);
    const { value: status, elapsedMs } = await pollUntil(
      async () => (await t.api(victim.key).get(`${API}/workflows`)).status,
      (code) => code !== 200,
      KEY_CACHE_TTL_MS + 2000,
      200,
    );
    expect(status).toBe(401);
    expect(elapsedMs).toBeLessThanOrEqual(KEY_CACHE_TTL_MS + 500);
    await expectCode(await t.api(victim.key).get(`${API}/workflows`), 401, 'api_key_invalid');
  });

  it('answers insufficient_scope naming the scope needed', async () => {
    const reader = await t.createKey('default', ['workflows:read']);
    await t.api(reader.key).get(`${API}/workflows`).expect(200);
    const res = await t.api(reader.key).post(`${API}/workflows`).send({ name: 'x' });
    await expectCode(res, 403, 'insufficient_scope');
    expect(res.body.message).toContain('workflows:write');
    const calls = await t.api(reader.key).get(`${API}/calls`);
    await expectCode(calls, 403, 'insufficient_scope');
    expect(calls.body.message).toContain('calls:read');
  });

  it('checks scope before validation', async () => {
    const reader = await t.createKey('default', ['workflows:read']);
    const res = await t.api(reader.key).post(`${API}/workflows`).send({ name: 42 });
    await expectCode(res, 403, 'insufficient_scope');
  });

  it('checks the key and scope of the call endpoints before answering 501', async () => {
    await expectCode(await t.http().post(`${API}/agents/x/calls`), 401, 'api_key_missing');
    const reader = await t.createKey('default', ['calls:read']);
    await expectCode(
      await t.api(reader.key).post(`${API}/agents/x/calls`),
      403,
      'insufficient_scope',
    );
    for (const path of ['/calls', '/agents/x/calls', '/agents/x/calls/y']) {
      await expectCode(await t.api(reader.key).get(`${API}${path}`), 501, 'not_implemented');
    }
    const writer = await t.createKey('default', ['calls:write']);
    await expectCode(await t.api(writer.key).post(`${API}/agents/x/calls`), 501, 'not_implemented');
  });

  it('records last use at most once a minute per key', async () => {
    const key = await t.createKey('default', ['*']);
    const keys = t.app.get(ApiKeysService);
    await t.api(key.key).get(`${API}/workflows`).expect(200);
    const recordOf = async () =>
      (await keys.listForTeam(key.teamId)).find((k) => k.id === key.keyId)!;
    const first = (await pollUntil(recordOf, (record) => record.lastUsedAt !== null, 1000, 25))
      .value.lastUsedAt!;
    expect(first).toBeInstanceOf(Date);
    await t.api(key.key).get(`${API}/workflows`).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await recordOf()).lastUsedAt!.getTime()).toBe(first.getTime());
  });

  it('stores only a hash of each key', async () => {
    const key = await t.createKey('default', ['*']);
    const rows: Array<Record<string, unknown>> = await t
      .dataSource()
      .query('SELECT * FROM api_keys');
    expect(JSON.stringify(rows)).not.toContain(key.key);
    expect(JSON.stringify(rows)).not.toContain(t.key);
  });
});

describe('the bootstrap key', () => {
  it('makes CONSOLE_BOOTSTRAP_KEY a * key of team default, and once revoked it stays revoked at the next start, with a warning', async () => {
    const first = await startTestApp();
    let second: TestApp | undefined;
    try {
      await first.api().get(`${API}/workflows`).expect(200);
      const rows: Array<{ id: string; scopes: string }> = await first
        .dataSource()
        .query(
          "SELECT k.id, k.scopes FROM api_keys k JOIN teams t ON t.id = k.team_id WHERE t.name = 'default'",
        );
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0].scopes)).toEqual(['*']);
      await first.app.get(ApiKeysService).revoke(rows[0].id);
      await first.stop();

      second = await startTestApp({
        DATABASE_URL: first.env.DATABASE_URL,
        CONSOLE_BOOTSTRAP_KEY: first.key,
      });
      await expectCode(await second.api(first.key).get(`${API}/workflows`), 401, 'api_key_invalid');
      const warnings = second
        .logLines()
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((line) => line.level === 40 && /CONSOLE_BOOTSTRAP_KEY/.test(line.msg));
      expect(warnings).toHaveLength(1);
      expect(warnings[0].msg).toMatch(/revoked/);
      expect(second.logLines().join('\n')).not.toContain(first.key);
    } finally {
      await second?.stop();
      await first.close().catch(() => undefined);
    }
  });
});
