import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { requestFingerprint } from '@/common/idempotency/fingerprint';
import { IdempotencyRecordEntity } from '@/common/idempotency/idempotency-record.entity';
import { IDEMPOTENCY_LEASE_MS } from '@/common/idempotency/claim-decision';
import { ClaimLostError, IdempotencyStore } from '@/common/idempotency/idempotency.store';
import { Database } from '@/database/database.service';
import { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { createAgent } from '../factories/agents';
import { sendAs } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { randomApiKey } from '../support/keys';
import { createTestDatabase } from '../factories/test-database';
import { createWorkflow } from '../factories/workflows';
import { pollUntil, sleep } from '../support/wait';
import { configureIntegration } from '../factories/integrations';

const onPostgres = process.env.TEST_POSTGRES_URL ? it : it.skip;

describe('idempotency', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const postWithKey = (path: string, idempotencyKey: string, body: unknown, apiKey = t.key) =>
    t
      .api(apiKey)
      .post(path)
      .set('Idempotency-Key', idempotencyKey)
      .send(body as object);

  const countWorkflows = (name: string) =>
    t.dataSource().getRepository(WorkflowEntity).countBy({ name });

  it('replays the first response byte for byte, with Idempotent-Replayed, and runs nothing again', async () => {
    const send = () => postWithKey(`${API}/workflows`, 'create-1', { name: 'Once', tags: ['a'] });
    const first = await send().expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await send().expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(await countWorkflows('Once')).toBe(1);
  });

  it('treats the same body with keys in another order as the same request', async () => {
    await postWithKey(`${API}/workflows`, 'order-1', { name: 'Ordered', category: 'c' }).expect(
      201,
    );
    const again = await t
      .api()
      .post(`${API}/workflows`)
      .set('Idempotency-Key', 'order-1')
      .set('Content-Type', 'application/json')
      .send('{"category":"c","name":"Ordered"}')
      .expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('answers 422 conflict when the key is reused with another body, path or method', async () => {
    await postWithKey(`${API}/workflows`, 'mismatch', { name: 'M1' }).expect(201);
    const otherBody = await postWithKey(`${API}/workflows`, 'mismatch', { name: 'M2' }).expect(422);
    expect(otherBody.body).toMatchObject({
      code: 'conflict',
      statusCode: 422,
      error: 'Unprocessable Entity',
    });
    await postWithKey(`${API}/workflows/clone`, 'mismatch', { name: 'M1' }).expect(422);
    expect(await countWorkflows('M2')).toBe(0);
  });

  it('scopes keys to the team', async () => {
    const other = await t.createKey('idem-other', ['*']);
    await postWithKey(`${API}/workflows`, 'shared', { name: 'Team A' }).expect(201);
    const theirs = await postWithKey(
      `${API}/workflows`,
      'shared',
      { name: 'Team B' },
      other.key,
    ).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.data.name).toBe('Team B');
  });

  it('creates exactly one record from 25 concurrent identical requests', async () => {
    const responses = await Promise.all(
      Array.from({ length: 25 }, () => postWithKey(`${API}/workflows`, 'burst', { name: 'Burst' })),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    for (const res of responses.filter((r) => r.status === 409)) {
      expect(res.body.code).toBe('conflict');
    }
    expect(await countWorkflows('Burst')).toBe(1);
    const created = responses.filter(
      (res) => res.status === 201 && !res.headers['idempotent-replayed'],
    );
    expect(created).toHaveLength(1);
  });

  it('answers 409 while the first request is still in flight, and lets a retry take over a dead claim, fencing off the first', async () => {
    const store = t.app.get(IdempotencyStore);
    const caller = await t.createKey('in-flight', ['*']);
    const body = { name: 'Held' };
    const claim = await store.claim(
      caller.teamId,
      'held',
      requestFingerprint('POST', `${API}/workflows`, body),
    );
    if (claim.kind !== 'claimed') {
      throw new Error(`expected a claim, got ${claim.kind}`);
    }
    const send = () => postWithKey(`${API}/workflows`, 'held', body, caller.key);
    const busy = await send().expect(409);
    expect(busy.body.code).toBe('conflict');

    const stale = new Date(Date.now() - 1000);
    await t
      .dataSource()
      .getRepository(IdempotencyRecordEntity)
      .update({ teamId: caller.teamId, key: 'held' }, { leaseUntil: stale });
    const taken = await send().expect(201);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();

    // Were the first holder still running, it could neither store its response (so its work
    // rolls back) nor free the key.
    await expect(store.complete(claim, 201, '{}')).rejects.toBeInstanceOf(ClaimLostError);
    await store.release(claim);
    const replay = await send().expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(taken.text);
    expect(await countWorkflows('Held')).toBe(1);
  });

  it('frees at start the keys a stopped process held on SQLite, and leaves them to their lease on PostgreSQL', async () => {
    const database = await createTestDatabase();
    const env = {
      DATABASE_URL: database.url,
      CONSOLE_BOOTSTRAP_KEY: randomApiKey(),
      CONSOLE_SECRET_KEY: t.env.CONSOLE_SECRET_KEY,
    };
    const body = { name: 'Left held' };
    try {
      const first = await startTestApp(env);
      const caller = await first.createKey('left', ['*']);
      await first.app
        .get(IdempotencyStore)
        .claim(caller.teamId, 'left', requestFingerprint('POST', `${API}/workflows`, body));
      await first.stop();
      const second = await startTestApp(env);
      try {
        const res = await second
          .api(caller.key)
          .post(`${API}/workflows`)
          .set('Idempotency-Key', 'left')
          .send(body);
        // On PostgreSQL another instance may be running that request: only its lease decides.
        expect(res.status).toBe(second.dataSource().options.type === 'postgres' ? 409 : 201);
      } finally {
        await second.stop();
      }
    } finally {
      await database.drop();
    }
  });

  it('frees a key whose release failed (the database was away) as soon as it can', async () => {
    const store = t.app.get(IdempotencyStore);
    const caller = await t.createKey('release-later', ['*']);
    const body = { name: 'Released later' };
    const claim = await store.claim(
      caller.teamId,
      'later',
      requestFingerprint('POST', `${API}/workflows`, body),
    );
    if (claim.kind !== 'claimed') {
      throw new Error(`expected a claim, got ${claim.kind}`);
    }
    const outage = jest
      .spyOn(t.app.get(Database), 'transaction')
      .mockRejectedValueOnce(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    await store.release(claim);
    outage.mockRestore();
    const send = () => postWithKey(`${API}/workflows`, 'later', body, caller.key);
    const { value: status } = await pollUntil(
      async () => (await send()).status,
      (s) => s !== 409,
      3000,
      50,
    );
    expect(status).toBe(201);
  });

  onPostgres('renews the lease of a request that is still running', async () => {
    const store = t.app.get(IdempotencyStore);
    const caller = await t.createKey('renewed', ['*']);
    const body = { name: 'Long running' };
    const claim = await store.claim(
      caller.teamId,
      'long',
      requestFingerprint('POST', `${API}/workflows`, body),
    );
    if (claim.kind !== 'claimed') {
      throw new Error(`expected a claim, got ${claim.kind}`);
    }
    const records = t.dataSource().getRepository(IdempotencyRecordEntity);
    const almostStale = new Date(Date.now() + 2000);
    await records.update({ id: claim.id }, { leaseUntil: almostStale });
    const stopRenewing = store.keepAlive(claim);
    try {
      await sleep(IDEMPOTENCY_LEASE_MS / 2);
      const record = await records.findOneByOrFail({ id: claim.id });
      expect(record.leaseUntil!.getTime()).toBeGreaterThan(almostStale.getTime());
      await postWithKey(`${API}/workflows`, 'long', body, caller.key).expect(409);
    } finally {
      stopRenewing();
    }
  });

  it('replays a refusal by the handler (404) as it was', async () => {
    const send = () =>
      postWithKey(`${API}/workflows/clone`, 'clone-missing', {
        source_workflow_id: '00000000-0000-7000-8000-000000000000',
      });
    const first = await send().expect(404);
    const second = await send().expect(404);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
  });

  it('stores nothing for requests refused before the handler ran, so they can be retried', async () => {
    const reader = await t.createKey('default', ['workflows:read']);
    await postWithKey(`${API}/workflows`, 'early', { name: 'Early' }, reader.key).expect(403);
    await postWithKey(`${API}/workflows`, 'early', { name: '' }).expect(400);
    await t
      .http()
      .post(`${API}/workflows`)
      .set('Idempotency-Key', 'early')
      .send({ name: 'Early' })
      .expect(401);
    const ok = await postWithKey(`${API}/workflows`, 'early', { name: '' }).expect(400);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
    const created = await postWithKey(`${API}/workflows`, 'early', { name: 'Early' }).expect(201);
    expect(created.headers['idempotent-replayed']).toBeUndefined();
  });

  it('stores nothing for a 5xx response', async () => {
    const call = () => t.api().post(`${API}/agents/a/calls`).set('Idempotency-Key', 'five-oh-one');
    await call().expect(501);
    const again = await call().expect(501);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  it('covers PATCH and DELETE too', async () => {
    const workflow = await createWorkflow(t, { name: 'Patch me' });
    const patch = () =>
      t
        .api()
        .patch(`${API}/workflows/${workflow.id}`)
        .set('Idempotency-Key', 'patch-1')
        .send({ name: 'Patched' });
    const first = await patch().expect(200);
    await t
      .api()
      .patch(`${API}/workflows/${workflow.id}`)
      .send({ name: 'Changed since' })
      .expect(200);
    const replay = await patch().expect(200);
    expect(replay.text).toBe(first.text);
    const del = () =>
      t.api().delete(`${API}/workflows/${workflow.id}`).set('Idempotency-Key', 'delete-1');
    const deleted = await del().expect(200);
    const replayedDelete = await del().expect(200);
    expect(replayedDelete.text).toBe(deleted.text);
    expect(replayedDelete.headers['idempotent-replayed']).toBe('true');
  });

  it("holds no transaction while MCP servers keep discovers waiting: another team's write and read finish first", async () => {
    // More waiting discovers than PostgreSQL connections; on SQLite, any one would hold the writer.
    const pool = 2;
    const discovers = pool + 2;
    const app = await startTestApp({
      OUTBOUND_TIMEOUT_MS: '2000',
      DATABASE_POOL_SIZE: String(pool),
    });
    const silent = createServer(() => undefined);
    let waiting = 0;
    silent.on('request', () => waiting++);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const agentId = (await createAgent(app)).id;
      const base = `${API}/agents/${agentId}/integrations/mcp_server`;
      const server = await configureIntegration(app, agentId, 'mcp_server', {
        name: 'Silent',
        server_url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`,
      });
      const bystander = await app.createKey('bystander', ['*']);
      const finished: string[] = [];
      const track = <T>(name: string, request: PromiseLike<T>) =>
        Promise.resolve(request).then((res) => {
          finished.push(name);
          return res;
        });

      const hanging = Array.from({ length: discovers }, (_, i) =>
        track(
          'discover',
          app.api().post(`${base}/${server.id}/discover`).set('Idempotency-Key', `hanging-${i}`),
        ),
      );
      const { value: reached } = await pollUntil(
        async () => waiting,
        (count) => count >= discovers,
        5000,
        20,
      );
      expect(reached).toBe(discovers);
      const written = track(
        'write',
        app
          .api(bystander.key)
          .post(`${API}/workflows`)
          .set('Idempotency-Key', 'bystander-write')
          .send({ name: 'Bystander' }),
      );
      const read = track('read', app.api(bystander.key).get(`${API}/workflows`));

      expect((await written).status).toBe(201);
      expect((await read).status).toBe(200);
      for (const res of await Promise.all(hanging)) {
        expect(res.status).toBe(502);
        expect(res.body.message).toMatch(
          /^MCP server "Silent" could not list its tools: no answer/,
        );
      }
      expect(finished.slice(0, 2).sort()).toEqual(['read', 'write']);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
      await app.close();
    }
  });

  it('replays the creates that check a URL first (custom API, its tool, MCP server), each made once', async () => {
    const agentId = (await createAgent(t)).id;
    const integrations = `${API}/agents/${agentId}/integrations`;
    const twice = async (path: string, key: string, body: unknown) => {
      const first = await postWithKey(path, key, body).expect(201);
      const again = await postWithKey(path, key, body).expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      return first.body.data as { id: string };
    };
    const api = await twice(`${integrations}/custom_api/configure`, 'api-once', {
      name: 'Shop',
      base_url: 'https://shop.example/v1',
    });
    await twice(`${integrations}/custom_api/${api.id}/tools`, 'tool-once', {
      name: 'Find order',
      http_method: 'GET',
      url_template: 'https://orders.example/{id}',
    });
    await twice(`${integrations}/mcp_server/configure`, 'mcp-once', {
      name: 'Tools',
      server_url: 'https://mcp.example/mcp',
    });
    const listed = async (path: string) =>
      (await t.api().get(path).expect(200)).body.data as unknown[];
    expect(await listed(`${integrations}/custom_api`)).toHaveLength(1);
    expect(await listed(`${integrations}/custom_api/${api.id}/tools`)).toHaveLength(1);
    expect(await listed(`${integrations}/mcp_server`)).toHaveLength(1);
  });

  it("never stores a stream ticket: a repeat gets a fresh one, and another key of the team never gets the first key's", async () => {
    const agentId = (await createAgent(t)).id;
    const { conversation_id: conversationId } = await sendAs(t, agentId, 'ticket-user', 'hello');
    const colleague = await t.createKey('default', ['*']);
    const issue = (apiKey: string) =>
      postWithKey(
        `${API}/agents/${agentId}/conversations/${conversationId}/stream-ticket`,
        'ticket-key',
        {},
        apiKey,
      ).expect(201);
    const first = await issue(t.key);
    const repeat = await issue(t.key);
    const theirs = await issue(colleague.key);
    const tickets = [first, repeat, theirs].map((res) => res.body.data.ticket as string);
    expect(new Set(tickets).size).toBe(3);
    for (const res of [repeat, theirs]) {
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    const stored = await t
      .dataSource()
      .getRepository(IdempotencyRecordEntity)
      .countBy({ key: 'ticket-key' });
    expect(stored).toBe(0);
  });

  it('ignores the header on GET', async () => {
    const res = await t.api().get(`${API}/workflows`).set('Idempotency-Key', 'get').expect(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a malformed key with 400 bad_request', async () => {
    for (const key of ['x'.repeat(256), 'has space', 'tab\there']) {
      const res = await postWithKey(`${API}/workflows`, key, { name: 'k' }).expect(400);
      expect(res.body.code).toBe('bad_request');
    }
  });

  it('forgets keys after the window and purges expired rows', async () => {
    const short = await startTestApp({ IDEMPOTENCY_TTL_S: '1' });
    try {
      const send = () =>
        short.api().post(`${API}/workflows`).set('Idempotency-Key', 'ttl').send({ name: 'TTL' });
      await send().expect(201);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const fresh = await send().expect(201);
      expect(fresh.headers['idempotent-replayed']).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await short.app.get(IdempotencyStore).purgeExpired(500)).toBe(1);
      expect(await short.dataSource().getRepository(IdempotencyRecordEntity).count()).toBe(0);
    } finally {
      await short.close();
    }
  });
});
