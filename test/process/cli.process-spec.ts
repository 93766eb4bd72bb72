import { KEY_CACHE_TTL_MS } from '@/modules/auth/api-key-authenticator';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { moveClockForward } from '../support/clock';
import { runCli } from '../support/keys';
import { pollUntil } from '../support/wait';

/** The built CLI (dist/cli.js, built by the global setup), as `npm run cli:prod` runs it. */
const cli = (args: string[], env: Record<string, string>) => runCli(args, env);

describe('admin CLI', () => {
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp();
    env = { DATABASE_URL: t.env.DATABASE_URL, CONSOLE_SECRET_KEY: t.env.CONSOLE_SECRET_KEY };
  });
  afterAll(() => t.close());

  it('creates a team, and refuses a second team of the same name', async () => {
    const created = await cli(['teams', 'create', 'acme', '--json'], env);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({ id: expect.any(String), name: 'acme' });
    const again = await cli(['teams', 'create', 'acme'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
  });

  it('creates a key that works against the API with exactly its scopes, printed once', async () => {
    const result = await cli(
      ['keys', 'create', '--team', 'acme', '--scopes', 'workflows:read', '--json'],
      env,
    );
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout) as {
      id: string;
      key: string;
      team_id: string;
      scopes: string[];
    };
    expect(created).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^sk_[A-Za-z0-9_-]{32,}$/),
      team_id: expect.any(String),
      scopes: ['workflows:read'],
      agent_ids: null,
      expires_at: null,
    });
    await t.api(created.key).get(`${API}/workflows`).expect(200);
    const write = await t.api(created.key).post(`${API}/workflows`).send({ name: 'x' }).expect(403);
    expect(write.body.code).toBe('insufficient_scope');

    const listed = await cli(['keys', 'list', '--team', 'acme'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(created.id);
    expect(listed.stdout).not.toContain(created.key);
    const listedJson = await cli(['keys', 'list', '--team', 'acme', '--json'], env);
    const keys = JSON.parse(listedJson.stdout) as Array<Record<string, unknown>>;
    expect(keys).toEqual([
      expect.objectContaining({
        id: created.id,
        scopes: ['workflows:read'],
        agent_ids: null,
        revoked_at: null,
        expires_at: null,
      }),
    ]);
    expect(listedJson.stdout).not.toContain(created.key);
  });

  it('prints a readable key once without --json, and honours --expires-at', async () => {
    const result = await cli(
      ['keys', 'create', '--team', 'acme', '--scopes', '*', '--expires-at', '2099-01-01T00:00:00Z'],
      env,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/shown only this once/);
    expect(result.stdout).toMatch(/2099-01-01T00:00:00.000Z/);
    const key = /(sk_[A-Za-z0-9_-]+)/.exec(result.stdout)![1];
    await t.api(key).get(`${API}/workflows`).expect(200);
  });

  it('revokes a key, which the running server then refuses', async () => {
    const created = JSON.parse(
      (await cli(['keys', 'create', '--team', 'acme', '--scopes', '*', '--json'], env)).stdout,
    ) as { id: string; key: string };
    await t.api(created.key).get(`${API}/workflows`).expect(200);
    const revoked = await cli(['keys', 'revoke', created.id], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(/Revoked/);
    // The server trusts a key it looked up for KEY_CACHE_TTL_MS: its clock is moved past that.
    const restoreClock = moveClockForward(KEY_CACHE_TTL_MS);
    try {
      await t.api(created.key).get(`${API}/workflows`).expect(401);
    } finally {
      restoreClock();
    }
    const twice = await cli(['keys', 'revoke', created.id], env);
    expect(twice.code).toBe(1);
  });

  it('says on stderr which database it used, for every command (never a password)', async () => {
    const result = await cli(['teams', 'list', '--json'], env);
    expect(result.code).toBe(0);
    const database = env.DATABASE_URL.startsWith('sqlite:')
      ? `sqlite ${env.DATABASE_URL.slice('sqlite:'.length)}`
      : `postgres ${new URL(env.DATABASE_URL).host}${new URL(env.DATABASE_URL).pathname}`;
    expect(result.stderr).toBe(`Database: ${database}\n`);
    const failing = await cli(['keys', 'revoke', 'nope'], env);
    expect(failing.stderr.split('\n')[0]).toBe(`Database: ${database}`);
  });

  it('lists teams, aligned or as JSON', async () => {
    await cli(['teams', 'create', 'a-much-longer-team-name'], env);
    const json = JSON.parse((await cli(['teams', 'list', '--json'], env)).stdout) as Array<
      Record<string, string>
    >;
    expect(json.map((team) => team.name)).toEqual(
      expect.arrayContaining(['a-much-longer-team-name', 'acme', 'default']),
    );
    expect(json[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const lines = (await cli(['teams', 'list'], env)).stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +NAME +CREATED$/);
    expect(lines).toHaveLength(json.length + 1);
    const createdColumn = lines[0].indexOf('CREATED');
    for (const line of lines.slice(1)) {
      expect(line.slice(createdColumn)).toMatch(/^\d{4}-\d\d-\d\dT[^ ]+$/);
    }
  });

  it('rotates a key: the new one works at once, the old one until the grace period ends', async () => {
    const created = await t.createKey('rotation', ['workflows:read']);
    const old = { id: created.keyId, key: created.key };
    const before = Date.now();
    // Long enough to outlast the built CLI's start on a busy machine, so that the old key is seen working.
    const result = await cli(['keys', 'rotate', old.id, '--grace', '6s', '--json'], env);
    expect(result.code).toBe(0);
    const rotated = JSON.parse(result.stdout) as {
      id: string;
      key: string;
      scopes: string[];
      expires_at: string | null;
      replaced: { id: string; expires_at: string };
    };
    expect(rotated).toMatchObject({ scopes: ['workflows:read'], expires_at: null });
    expect(rotated.replaced.id).toBe(old.id);
    const oldUntil = Date.parse(rotated.replaced.expires_at);
    expect(oldUntil).toBeGreaterThanOrEqual(before + 6_000);
    expect(oldUntil).toBeLessThan(Date.now() + 6_000);

    await t.api(rotated.key).get(`${API}/workflows`).expect(200);
    await t.api(old.key).get(`${API}/workflows`).expect(200);
    expect(Date.now()).toBeLessThan(oldUntil);
    const { value: status } = await pollUntil(
      async () => (await t.api(old.key).get(`${API}/workflows`)).status,
      (code) => code !== 200,
      15_000,
      250,
    );
    expect(status).toBe(401);
    expect(Date.now()).toBeGreaterThanOrEqual(oldUntil);
    await t.api(rotated.key).get(`${API}/workflows`).expect(200);

    const listed = (await cli(['keys', 'list', '--team', 'rotation'], env)).stdout
      .trimEnd()
      .split('\n');
    expect(listed[0]).toMatch(/^ID +PREFIX +SCOPES +AGENTS +STATE +LAST USED$/);
    const stateColumn = listed[0].indexOf('STATE');
    const oldLine = listed.find((line) => line.startsWith(old.id))!;
    expect(oldLine.slice(stateColumn)).toMatch(/^expired \d{4}-/);
    expect(listed.find((line) => line.startsWith(rotated.id))!.slice(stateColumn)).toMatch(
      /^active /,
    );

    const again = await cli(['keys', 'rotate', old.id, '--grace', '1h'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no active key/);
    const badGrace = await cli(['keys', 'rotate', rotated.id, '--grace', 'soon'], env);
    expect(badGrace.code).toBe(1);
    expect(badGrace.stderr).toMatch(/duration such as 30m/);
  }, 120_000);

  it('accepts the staff and settings scopes: inbox:write, channels:write, settings:read, settings:write', async () => {
    const scopes = ['inbox:write', 'channels:write', 'settings:read', 'settings:write'];
    const created = await cli(
      ['keys', 'create', '--team', 'acme', '--scopes', scopes.join(','), '--json'],
      env,
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ scopes });
  });

  it('creates a key limited to some agents with --agents, refuses agents of another team, lists the limit', async () => {
    const team = await t.createKey('limited', ['*']);
    const agent = async (key: string) => {
      const workflow = await t.api(key).post(`${API}/workflows`).send({ name: 'W' }).expect(201);
      const res = await t
        .api(key)
        .post(`${API}/agents`)
        .send({ workflow_id: workflow.body.data.id, name: 'A', description: 'D' })
        .expect(201);
      return res.body.data.id as string;
    };
    const [first, second, other] = [
      await agent(team.key),
      await agent(team.key),
      await agent(t.key),
    ];

    const created = await cli(
      [
        'keys',
        'create',
        '--team',
        'limited',
        '--scopes',
        '*',
        '--agents',
        ` ${first.toUpperCase()},${second}`,
        '--json',
      ],
      env,
    );
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string; agent_ids: string[] };
    expect(key.agent_ids).toEqual([first, second]);
    await t.api(key.key).get(`${API}/agents/${second}`).expect(200);
    const listed = await t.api(key.key).get(`${API}/agents`).expect(200);
    expect(listed.body.meta.total_count).toBe(2);
    const team403 = await t.api(key.key).post(`${API}/workflows`).send({ name: 'x' }).expect(403);
    expect(team403.body.message).toMatch(/limited to some agents/);

    const readable = await cli(
      ['keys', 'create', '--team', 'limited', '--scopes', 'agents:read', '--agents', first],
      env,
    );
    expect(readable.code).toBe(0);
    expect(readable.stdout).toContain(`It reaches only the agents ${first}.`);

    const table = (await cli(['keys', 'list', '--team', 'limited'], env)).stdout.split('\n');
    const agentsColumn = table[0].indexOf('AGENTS');
    expect(table.find((line) => line.startsWith(key.id))!.slice(agentsColumn)).toMatch(
      new RegExp(`^${first},${second} `),
    );
    expect(table.find((line) => line.startsWith(team.keyId))!.slice(agentsColumn)).toMatch(/^all /);
    const json = JSON.parse(
      (await cli(['keys', 'list', '--team', 'limited', '--json'], env)).stdout,
    );
    expect(json.find((row: { id: string }) => row.id === key.id).agent_ids).toEqual([
      first,
      second,
    ]);

    const before = json.length;
    const foreign = await cli(
      ['keys', 'create', '--team', 'limited', '--scopes', '*', '--agents', `${first},${other}`],
      env,
    );
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain(
      `not an agent of team "limited": ${other}; no key was created`,
    );
    const malformed = await cli(
      ['keys', 'create', '--team', 'limited', '--scopes', '*', '--agents', 'nope'],
      env,
    );
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/not an id: nope/);
    const empty = await cli(
      ['keys', 'create', '--team', 'limited', '--scopes', '*', '--agents', ','],
      env,
    );
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/\(none given\)/);
    const after = JSON.parse(
      (await cli(['keys', 'list', '--team', 'limited', '--json'], env)).stdout,
    );
    expect(after).toHaveLength(before);

    const rotated = await cli(['keys', 'rotate', key.id, '--grace', '1h', '--json'], env);
    expect(rotated.code).toBe(0);
    expect(JSON.parse(rotated.stdout).agent_ids).toEqual([first, second]);
  }, 120_000);

  it('refuses unknown scopes, unknown teams and bad dates with a message', async () => {
    const badScope = await cli(['keys', 'create', '--team', 'acme', '--scopes', 'root'], env);
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toMatch(/unknown scope root/);
    const noTeam = await cli(['keys', 'create', '--team', 'nobody', '--scopes', '*'], env);
    expect(noTeam.code).toBe(1);
    expect(noTeam.stderr).toMatch(/no team named "nobody"/);
    const badDate = await cli(
      ['keys', 'create', '--team', 'acme', '--scopes', '*', '--expires-at', 'soon'],
      env,
    );
    expect(badDate.code).toBe(1);
    expect(badDate.stderr).toMatch(/ISO-8601/);
  });
});
