import { createAgent } from '../factories/agents';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { FakeProviders, startFakeProviders } from '../support/fake-providers';

describe('integrations: connector credentials are checked with the provider at configure', () => {
  let fake: FakeProviders;
  let t: TestApp;
  let agentId: string;

  const configure = (body: Record<string, unknown>, agent = agentId) =>
    t.api().post(`${API}/agents/${agent}/integrations/bimpeai/configure`).send(body);
  const rowOf = async (type: string) =>
    (await t.api().get(`${API}/agents/${agentId}/integrations/bimpeai`).expect(200)).body.data.find(
      (row: { type: string }) => row.type === type,
    );

  beforeAll(async () => {
    fake = await startFakeProviders();
    t = await startTestApp({ ...fake.env, OUTBOUND_TIMEOUT_MS: '800' });
    agentId = (await createAgent(t)).id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.outage = null;
  });

  it.each([
    ['stripe', 'secret_key', '/v1/balance'],
    ['paystack', 'secret_key', '/balance'],
    ['bumpa', 'token', '/orders?limit=1'],
  ])('connects %s once the provider accepts its key', async (type, field, path) => {
    const key = `${type}-good-key-1`;
    const res = await configure({ type, [field]: key }).expect(201);
    expect(res.body.data).toMatchObject({ type, status: 'connected', is_connected: true });
    expect(fake.requests).toEqual([
      expect.objectContaining({ provider: type, method: 'GET', path, key }),
    ]);
  });

  it.each([
    ['stripe', 'secret_key', 'refused'],
    ['paystack', 'secret_key', 'forbidden'],
    ['bumpa', 'token', 'refused'],
  ])('refuses a %s key the provider refuses (400), storing nothing', async (type, field, how) => {
    const agent = (await createAgent(t)).id;
    const key = `${type}-bad-key-${how}`;
    (how === 'refused' ? fake.refused : fake.forbidden).add(key);
    const res = await configure({ type, [field]: key }, agent).expect(400);
    expect(res.body).toMatchObject({
      code: 'validation_error',
      message: [`${field}: refused by ${type}`],
    });
    const rows = (await t.api().get(`${API}/agents/${agent}/integrations/bimpeai`)).body.data;
    expect(rows.find((row: { type: string }) => row.type === type)).toMatchObject({
      id: null,
      status: 'not_configured',
    });
    expect((await t.api().get(`${API}/agents/${agent}/actions`)).body.data).toEqual([]);
  });

  it('answers 502 when the provider fails or does not answer in time, storing nothing', async () => {
    const agent = (await createAgent(t)).id;
    fake.outage = 503;
    const failing = await configure(
      { type: 'paystack', secret_key: 'sk_paystack_x' },
      agent,
    ).expect(502);
    expect(failing.body.code).toBe('internal_error');
    expect(failing.body.message).toBe(
      'Paystack could not check the secret_key: it answered 503: Service unavailable',
    );
    fake.outage = 'hang';
    const started = Date.now();
    const silent = await configure({ type: 'paystack', secret_key: 'sk_paystack_x' }, agent).expect(
      502,
    );
    expect(silent.body.code).toBe('internal_error');
    expect(silent.body.message).toBe(
      'Paystack could not check the secret_key: it did not answer within 0.8 s',
    );
    expect(Date.now() - started).toBeLessThan(5000);
    const rows = (await t.api().get(`${API}/agents/${agent}/integrations/bimpeai`)).body.data;
    expect(rows.find((row: { type: string }) => row.type === 'paystack')).toMatchObject({
      id: null,
      status: 'not_configured',
    });
  });

  it('keeps the key it has when a new one is refused, and checks nothing when none is sent', async () => {
    const first = await configure({ type: 'stripe', secret_key: 'sk_stripe_kept' }).expect(201);
    fake.refused.add('sk_stripe_refused');
    await configure({ type: 'stripe', secret_key: 'sk_stripe_refused' }).expect(400);
    expect(await rowOf('stripe')).toMatchObject({
      id: first.body.data.id,
      status: 'connected',
      is_connected: true,
    });
    fake.requests.length = 0;
    const currency = await configure({ type: 'stripe', currency: 'USD' }).expect(201);
    expect(currency.body.data).toMatchObject({ id: first.body.data.id, status: 'connected' });
    expect(fake.requests).toEqual([]);
  });

  it('does not store a 502 under an Idempotency-Key, so the retry checks again', async () => {
    const agent = (await createAgent(t)).id;
    const send = () =>
      configure({ type: 'bumpa', token: 'bumpa-retried' }, agent).set(
        'Idempotency-Key',
        'bumpa-configure-1',
      );
    fake.outage = 500;
    await send().expect(502);
    fake.outage = null;
    const retried = await send().expect(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    const replayed = await send().expect(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(retried.body);
    expect(fake.requests.filter((r) => r.key === 'bumpa-retried')).toHaveLength(2);
  });

  it("calls no provider for another team's agent", async () => {
    const intruder = await t.createKey('credential-intruder', ['*']);
    await t
      .api(intruder.key)
      .post(`${API}/agents/${agentId}/integrations/bimpeai/configure`)
      .send({ type: 'stripe', secret_key: 'sk_intruder' })
      .expect(404);
    expect(fake.requests).toEqual([]);
  });

  it('leaves OAuth connectors pending without calling anyone', async () => {
    await configure({ type: 'google_calendar' }).expect(201);
    expect(fake.requests).toEqual([]);
  });
});
