import { createAgent } from '../factories/agents';
import {
  createPhoneNumber,
  REQUEST_BODY,
  requestPhoneNumber,
  uniqueE164,
} from '../factories/phone-numbers';
import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { PhoneNumberOperationsService } from '@/modules/phone-numbers/phone-number-operations.service';
import { runCli } from '../support/keys';

const NUMBERS = `${API}/phone-numbers`;
const REQUESTS = `${API}/phone-numbers/request`;

/** The built CLI (dist/cli.js, built by the global setup), as `npm run cli:prod` runs it. */
const cli = (args: string[], env: Record<string, string>) => runCli(args, env);

describe('phone numbers', () => {
  let t: TestApp;
  let other: TeamKey;

  beforeAll(async () => {
    t = await startTestApp();
    other = await t.createKey('other', ['*']);
  });
  afterAll(() => t.close());

  describe('provisioning requests', () => {
    it('answers 201 with the request, pending and without a number, and lists it', async () => {
      const agent = await createAgent(t);
      const res = await t
        .api()
        .post(REQUESTS)
        .send({ ...REQUEST_BODY, outbound_minutes: 120, submitted_by_agent_id: agent.id })
        .expect(201);
      expect(res.body).toEqual({
        message: 'Phone number request submitted successfully',
        data: {
          id: expect.any(String),
          status: 'pending',
          business_name: 'Ada Stores',
          intended_use: 'Order enquiries',
          region: 'ng',
          agent_count: 1,
          outbound_minutes: 120,
          submitted_by_agent_id: agent.id,
          e164: null,
          rejection_reason: null,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          updated_at: res.body.data.created_at,
        },
      });
      const list = await t.api().get(`${REQUESTS}?limit=100`).expect(200);
      expect(list.body.data).toContainEqual(res.body.data);
      expect(list.body.meta).toEqual(expect.objectContaining({ current_page: 1, limit: 100 }));
    });

    it('is not taken for a number id by /phone-numbers/{id}', async () => {
      const res = await t.api().get(REQUESTS).expect(200);
      expect(res.body.message).toBe('Phone number requests retrieved successfully');
    });

    it('refuses bad fields with a message per field', async () => {
      const res = await t
        .api()
        .post(REQUESTS)
        .send({
          business_name: '',
          region: 'fr',
          agent_count: 0,
          outbound_minutes: 1.5,
          extra: true,
        })
        .expect(400);
      expect(res.body.code).toBe('validation_error');
      const fields = (res.body.message as string[]).map((line) => line.split(':')[0]);
      expect(new Set(fields)).toEqual(
        new Set([
          'business_name',
          'intended_use',
          'region',
          'agent_count',
          'outbound_minutes',
          'extra',
        ]),
      );
      for (const body of [
        { agent_count: '2' },
        { agent_count: 1_000_000_000_000 },
        { outbound_minutes: -1 },
        { region: 'US' },
        { submitted_by_agent_id: 42 },
      ]) {
        const refused = await t
          .api()
          .post(REQUESTS)
          .send({ ...REQUEST_BODY, ...body })
          .expect(400);
        const field = Object.keys(body)[0];
        const messages = refused.body.message as string[];
        expect({ body, fields: [...new Set(messages.map((line) => line.split(':')[0]))] }).toEqual({
          body,
          fields: [field],
        });
      }
    });

    it("refuses another team's agent (or none) as the submitter with 404", async () => {
      const foreign = await createAgent(t, {}, other.key);
      for (const id of [foreign.id, '00000000-0000-7000-8000-000000000000', 'not-an-id']) {
        const res = await t
          .api()
          .post(REQUESTS)
          .send({ ...REQUEST_BODY, submitted_by_agent_id: id })
          .expect(404);
        expect(res.body.code).toBe('not_found');
      }
    });

    it('refuses a team its 11th pending request with 403 naming the limit, until one is decided', async () => {
      const team = await t.createKey(`pending-${Date.now()}`, ['*']);
      const pending = [];
      for (let i = 0; i < 10; i++) {
        pending.push(await requestPhoneNumber(t, { business_name: `Shop ${i}` }, team.key));
      }
      const refused = await t.api(team.key).post(REQUESTS).send(REQUEST_BODY).expect(403);
      expect(refused.body).toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining('PHONE_NUMBER_MAX_PENDING_REQUESTS'),
      });
      expect(refused.body.message).toMatch(/\b10\b/);
      const listed = await t.api(team.key).get(`${REQUESTS}?status=pending`).expect(200);
      expect(listed.body.meta.total_count).toBe(10);
      // Another team is not held back by this one.
      await requestPhoneNumber(t, {}, other.key);

      await t.app.get(PhoneNumberOperationsService).reject(pending[0].id, 'Duplicate');
      await requestPhoneNumber(t, {}, team.key);
      await t.api(team.key).post(REQUESTS).send(REQUEST_BODY).expect(403);
    });

    it('filters by status and searches business names', async () => {
      await requestPhoneNumber(t, { business_name: 'Zebra Crossing Ltd' });
      const found = await t.api().get(`${REQUESTS}?search=zebra%20cross`).expect(200);
      expect(found.body.data.map((r: any) => r.business_name)).toEqual(['Zebra Crossing Ltd']);
      const none = await t.api().get(`${REQUESTS}?status=rejected&search=zebra`).expect(200);
      expect(none.body.meta.total_count).toBe(0);
      await t.api().get(`${REQUESTS}?status=done`).expect(400);
      await t.api().get(`${REQUESTS}?sort=e164`).expect(400);
    });
  });

  describe('operators, with the admin CLI', () => {
    /** Each CLI run starts a process: seconds on a busy machine. */
    const CLI_TIMEOUT_MS = 90_000;
    let env: Record<string, string>;
    let mine: Record<string, any>;
    let theirs: Record<string, any>;
    const e164 = uniqueE164();

    beforeAll(async () => {
      env = { DATABASE_URL: t.env.DATABASE_URL, CONSOLE_SECRET_KEY: t.env.CONSOLE_SECRET_KEY };
      mine = await requestPhoneNumber(t, { business_name: 'Mine' });
      theirs = await requestPhoneNumber(t, { business_name: 'Theirs' }, other.key);
    });

    const pendingIds = async () => {
      const listed = await cli(['phone-numbers', 'requests', '--json', '--limit', '1000'], env);
      expect(listed.code).toBe(0);
      return JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    };

    it(
      'lists the pending requests of every team, with their team',
      async () => {
        const pending = await pendingIds();
        expect(pending).toContainEqual({
          ...mine,
          team_id: expect.any(String),
          team_name: 'default',
        });
        expect(pending).toContainEqual({ ...theirs, team_id: other.teamId, team_name: 'other' });
        expect(pending.every((request) => request.status === 'pending')).toBe(true);
      },
      CLI_TIMEOUT_MS,
    );

    it(
      "fulfils a request with a number, which becomes the team's and shows on its request",
      async () => {
        const fulfilled = await cli(['phone-numbers', 'fulfil', mine.id, e164, '--json'], env);
        expect(fulfilled.code).toBe(0);
        const { number } = JSON.parse(fulfilled.stdout);
        const request = (await t.api().get(`${REQUESTS}?limit=100`).expect(200)).body.data.find(
          (r: any) => r.id === mine.id,
        );
        expect(request).toEqual({
          ...mine,
          status: 'fulfilled',
          e164,
          updated_at: expect.any(String),
        });
        const own = await t.api().get(`${NUMBERS}/${number.id}`).expect(200);
        expect(own.body.data).toEqual({
          id: number.id,
          e164,
          label: null,
          agent_id: null,
          inbound_enabled: true,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        });
        await t.api(other.key).get(`${NUMBERS}/${number.id}`).expect(404);
      },
      CLI_TIMEOUT_MS,
    );

    it(
      'rejects a request with a reason the team reads',
      async () => {
        const rejected = await cli(
          ['phone-numbers', 'reject', theirs.id, '--reason', 'No numbers left in that region'],
          env,
        );
        expect(rejected.code).toBe(0);
        const theirsNow = (await t.api(other.key).get(REQUESTS).expect(200)).body.data.find(
          (r: any) => r.id === theirs.id,
        );
        expect(theirsNow).toEqual({
          ...theirs,
          status: 'rejected',
          rejection_reason: 'No numbers left in that region',
          updated_at: expect.any(String),
        });
      },
      CLI_TIMEOUT_MS,
    );

    it(
      'keeps decided requests decided and each number in one place, and lists them no more',
      async () => {
        const another = await requestPhoneNumber(t, {}, other.key);
        const [again, taken, pending] = await Promise.all([
          cli(['phone-numbers', 'fulfil', theirs.id, uniqueE164()], env),
          cli(['phone-numbers', 'fulfil', another.id, e164], env),
          pendingIds(),
        ]);
        expect({ code: again.code, stderr: again.stderr }).toEqual({
          code: 1,
          stderr: expect.stringMatching(/already rejected/),
        });
        expect({ code: taken.code, stderr: taken.stderr }).toEqual({
          code: 1,
          stderr: expect.stringMatching(/already in use/),
        });
        const ids = pending.map((request) => request.id);
        expect(ids).toContain(another.id);
        expect(ids).not.toContain(mine.id);
        expect(ids).not.toContain(theirs.id);
      },
      CLI_TIMEOUT_MS,
    );

    it(
      'refuses a malformed number, an unknown request and a missing reason',
      async () => {
        const request = await requestPhoneNumber(t);
        const unknown = '00000000-0000-7000-8000-000000000000';
        const results = await Promise.all([
          cli(['phone-numbers', 'fulfil', request.id, '+1 415 555 0100'], env),
          cli(['phone-numbers', 'fulfil', unknown, '+14155550100'], env),
          cli(['phone-numbers', 'reject', request.id], env),
        ]);
        expect(results.map(({ code }) => code)).toEqual([1, 1, 1]);
        expect(results[0].stderr).toMatch(/not an E\.164 number/);
        expect(results[1].stderr).toMatch(/no phone number request with id/);
        expect(results[2].stderr).toMatch(/--reason/);
        const unchanged = (await t.api().get(`${REQUESTS}?limit=100`).expect(200)).body.data.find(
          (r: any) => r.id === request.id,
        );
        expect(unchanged.status).toBe('pending');
      },
      CLI_TIMEOUT_MS,
    );

    it(
      "prints a team's text with its control characters shown, never acted on by the terminal",
      async () => {
        const hostile = await t.createKey(`hostile-${Date.now()}`, ['*']);
        const business = 'Evil\x1b[2J\x1b]0;owned\x07';
        const use =
          'clip\x1b]52;c;ZXZpbA==\x07\r\n00000000-0000-7000-8000-000000000000  forged row' +
          '\u202Egnp.exe\u009b31m\ttab\u2028end';
        const request = await requestPhoneNumber(
          t,
          { business_name: business, intended_use: use },
          hostile.key,
        );
        const text = await cli(['phone-numbers', 'requests', '--limit', '1000'], env);
        const json = await cli(['phone-numbers', 'requests', '--limit', '1000', '--json'], env);
        expect([text.code, json.code]).toEqual([0, 0]);
        const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
        expect(rows.find((row) => row.id === request.id)).toMatchObject({
          business_name: business,
          intended_use: use,
        });
        // Terminal controls: C0 (ESC, BEL, CR, TAB…), DEL, C1 (CSI 0x9B…), line separators, bidi overrides.
        const controls = /[^\P{Cc}\n]|[\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
        expect(text.stdout).not.toMatch(controls);
        expect(json.stdout).not.toMatch(controls);
        const lines = text.stdout.trimEnd().split('\n');
        expect(lines).toHaveLength(rows.length + 1);
        const shown = lines.find((line) => line.startsWith(request.id))!;
        expect(shown).toContain('Evil\\x1b[2J\\x1b]0;owned\\x07');
        expect(shown).toContain('\\r\\n00000000-0000-7000-8000-000000000000  forged row');
        expect(shown).toContain('\\u202egnp.exe\\x9b31m\\ttab\\u2028end');
      },
      CLI_TIMEOUT_MS,
    );

    it(
      "lists every team's oldest request before anyone's second, so that one team cannot hide another's",
      async () => {
        const flood = await t.createKey(`flood-${Date.now()}`, ['*']);
        const quiet = await t.createKey(`quiet-${Date.now()}`, ['*']);
        const flooded: string[] = [];
        for (let i = 0; i < 10; i++) {
          flooded.push(
            (await requestPhoneNumber(t, { business_name: `Flood ${i}` }, flood.key)).id,
          );
        }
        const late = await requestPhoneNumber(t, { business_name: 'Quiet' }, quiet.key);
        const listed = await cli(['phone-numbers', 'requests', '--json'], env);
        expect(listed.code).toBe(0);
        const ids = (JSON.parse(listed.stdout) as Array<{ id: string }>).map(({ id }) => id);
        expect(ids).toContain(late.id);
        expect(ids.indexOf(late.id)).toBeLessThan(ids.indexOf(flooded[1]));
        // Within a team, oldest first.
        expect(ids.filter((id) => flooded.includes(id))).toEqual(flooded);
      },
      CLI_TIMEOUT_MS,
    );

    it(
      'creates keys with the phone number scopes',
      async () => {
        const created = await cli(
          ['keys', 'create', '--team', 'other', '--scopes', 'phone_numbers:read', '--json'],
          env,
        );
        expect(created.code).toBe(0);
        const { key } = JSON.parse(created.stdout);
        await t.api(key).get(NUMBERS).expect(200);
        const write = await t.api(key).post(REQUESTS).send(REQUEST_BODY).expect(403);
        expect(write.body.code).toBe('insufficient_scope');
      },
      CLI_TIMEOUT_MS,
    );
  });

  describe('numbers', () => {
    it("lists the team's numbers as { id, e164, label, agent_id }, searched and sorted", async () => {
      const team = await t.createKey(`list-${Date.now()}`, ['*']);
      const a = await createPhoneNumber(t, team.key, '+2348000000002');
      const b = await createPhoneNumber(t, team.key, '+2348000000001');
      await createPhoneNumber(t, other.key);
      await t.api(team.key).patch(`${NUMBERS}/${a.id}`).send({ label: 'Lagos desk' }).expect(200);

      const list = await t.api(team.key).get(`${NUMBERS}?sort=e164`).expect(200);
      expect(list.body).toEqual({
        message: 'Phone numbers retrieved successfully',
        data: [
          { id: b.id, e164: '+2348000000001', label: null, agent_id: null },
          { id: a.id, e164: '+2348000000002', label: 'Lagos desk', agent_id: null },
        ],
        meta: {
          total_count: 2,
          page_count: 1,
          current_page: 1,
          limit: 20,
          has_next_page: false,
          has_previous_page: false,
        },
      });
      const byLabel = await t.api(team.key).get(`${NUMBERS}?sort=-label`).expect(200);
      expect(byLabel.body.data.map((n: any) => n.id)).toEqual([a.id, b.id]);
      const searched = await t.api(team.key).get(`${NUMBERS}?search=LAGOS`).expect(200);
      expect(searched.body.data.map((n: any) => n.id)).toEqual([a.id]);
      const digits = await t.api(team.key).get(`${NUMBERS}?search=%2B2348000000001`).expect(200);
      expect(digits.body.data.map((n: any) => n.id)).toEqual([b.id]);
      const paged = await t.api(team.key).get(`${NUMBERS}?limit=1&page=2&sort=created_at`);
      expect(paged.body.data.map((n: any) => n.id)).toEqual([b.id]);
      await t.api(team.key).get(`${NUMBERS}?sort=agent_id`).expect(400);
    });

    it('changes the label and inbound calls, and refuses bad values', async () => {
      const number = await createPhoneNumber(t);
      const res = await t
        .api()
        .patch(`${NUMBERS}/${number.id}`)
        .send({ label: 'Support', inbound_enabled: false })
        .expect(200);
      expect(res.body.data).toEqual({
        ...number,
        label: 'Support',
        inbound_enabled: false,
        updated_at: expect.any(String),
      });
      const cleared = await t.api().patch(`${NUMBERS}/${number.id}`).send({ label: null });
      expect(cleared.body.data.label).toBeNull();
      for (const body of [
        { inbound_enabled: null },
        { inbound_enabled: 'yes' },
        { label: 'x'.repeat(256) },
        { agent_id: 7 },
        { e164: '+14155550100' },
      ]) {
        const refused = await t.api().patch(`${NUMBERS}/${number.id}`).send(body).expect(400);
        expect(refused.body.code).toBe('validation_error');
      }
    });

    it("links a number to one of the team's agents only, and to one agent at a time (409)", async () => {
      const number = await createPhoneNumber(t);
      const [ada, bob] = [await createAgent(t), await createAgent(t, { name: 'Bob' })];
      const foreign = await createAgent(t, {}, other.key);
      const path = `${NUMBERS}/${number.id}`;

      const notOurs = await t.api().patch(path).send({ agent_id: foreign.id }).expect(404);
      expect(notOurs.body.code).toBe('not_found');
      await t.api().patch(path).send({ agent_id: ada.id.toUpperCase() }).expect(200);
      expect((await t.api().get(path)).body.data.agent_id).toBe(ada.id);
      // Linking it to the agent it already has is a no-op.
      await t.api().patch(path).send({ agent_id: ada.id }).expect(200);
      const taken = await t.api().patch(path).send({ agent_id: bob.id, label: 'x' }).expect(409);
      expect(taken.body.code).toBe('conflict');
      const kept = (await t.api().get(path)).body.data;
      expect({ agent_id: kept.agent_id, label: kept.label }).toEqual({
        agent_id: ada.id,
        label: null,
      });
      await t.api().patch(path).send({ agent_id: null }).expect(200);
      const moved = await t.api().patch(path).send({ agent_id: bob.id }).expect(200);
      expect(moved.body.data.agent_id).toBe(bob.id);
    });

    it('lets exactly one of concurrent links to different agents win', async () => {
      const number = await createPhoneNumber(t);
      const agents = await Promise.all([1, 2, 3, 4].map((n) => createAgent(t, { name: `A${n}` })));
      const answers = await Promise.all(
        agents.map((agent) =>
          t.api().patch(`${NUMBERS}/${number.id}`).send({ agent_id: agent.id }),
        ),
      );
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409]);
      const winner = answers.find((res) => res.status === 200)!.body.data.agent_id;
      expect((await t.api().get(`${NUMBERS}/${number.id}`)).body.data.agent_id).toBe(winner);
    });

    it("connects the agent's telephony channel while a linked number takes inbound calls, still inactive", async () => {
      const agent = await createAgent(t);
      const number = await createPhoneNumber(t);
      const telephony = async () => {
        const channels = (await t.api().get(`${API}/agents/${agent.id}/channels`).expect(200)).body
          .data;
        const detail = (await t.api().get(`${API}/agents/${agent.id}`).expect(200)).body.data;
        const code = (
          await t.api().get(`${API}/agents/${agent.id}/deployment/agent-test-code`).expect(200)
        ).body.data;
        const channel = channels.find((c: any) => c.type === 'telephony');
        expect(detail.channels).toEqual(channels);
        return {
          status: channel.status,
          is_connected: channel.is_connected,
          test_code: code.channels.telephony.is_enabled,
        };
      };
      const off = { status: 'inactive', is_connected: false, test_code: false };
      // Connected by the number, inactive while calls are not answered (docs/api.md §4d).
      const on = { status: 'inactive', is_connected: true, test_code: true };

      expect(await telephony()).toEqual(off);
      await t.api().patch(`${NUMBERS}/${number.id}`).send({ agent_id: agent.id }).expect(200);
      expect(await telephony()).toEqual(on);
      await t.api().patch(`${NUMBERS}/${number.id}`).send({ inbound_enabled: false }).expect(200);
      expect(await telephony()).toEqual(off);
      await t.api().patch(`${NUMBERS}/${number.id}`).send({ inbound_enabled: true }).expect(200);
      expect(await telephony()).toEqual(on);
      await t.api().patch(`${NUMBERS}/${number.id}`).send({ agent_id: null }).expect(200);
      expect(await telephony()).toEqual(off);
    });

    it("unlinks the numbers of a deleted agent, which stay the team's", async () => {
      const agent = await createAgent(t);
      const number = await createPhoneNumber(t);
      await t.api().patch(`${NUMBERS}/${number.id}`).send({ agent_id: agent.id }).expect(200);
      await t.api().delete(`${API}/agents/${agent.id}`).expect(200);
      const after = await t.api().get(`${NUMBERS}/${number.id}`).expect(200);
      expect(after.body.data.agent_id).toBeNull();
      const another = await createAgent(t);
      await t.api().patch(`${NUMBERS}/${number.id}`).send({ agent_id: another.id }).expect(200);
    });

    it("answers 404 for another team's number, and keeps it out of the list", async () => {
      const theirs = await createPhoneNumber(t, other.key);
      await t.api().get(`${NUMBERS}/${theirs.id}`).expect(404);
      const patch = await t.api().patch(`${NUMBERS}/${theirs.id}`).send({ label: 'Mine now' });
      expect(patch.status).toBe(404);
      expect(patch.body.code).toBe('not_found');
      await t.api().get(`${NUMBERS}/not-an-id`).expect(404);
      const list = await t.api().get(`${NUMBERS}?limit=100`).expect(200);
      expect(list.body.data.map((n: any) => n.id)).not.toContain(theirs.id);
      const requests = await t.api().get(`${REQUESTS}?limit=100`).expect(200);
      expect(requests.body.data.map((r: any) => r.e164)).not.toContain(theirs.e164);
      expect((await t.api(other.key).get(`${NUMBERS}/${theirs.id}`)).body.data.label).toBeNull();
    });

    it('needs phone_numbers:read to read and phone_numbers:write to change (403)', async () => {
      const number = await createPhoneNumber(t);
      const reader = await t.createKey('default', ['phone_numbers:read']);
      const agentsOnly = await t.createKey('default', ['agents:read', 'agents:write']);
      await t.api(reader.key).get(`${NUMBERS}/${number.id}`).expect(200);
      await t.api(reader.key).get(REQUESTS).expect(200);
      for (const res of [
        await t.api(reader.key).patch(`${NUMBERS}/${number.id}`).send({ label: 'x' }),
        await t.api(reader.key).post(REQUESTS).send(REQUEST_BODY),
        await t.api(agentsOnly.key).get(NUMBERS),
        await t.api(agentsOnly.key).get(REQUESTS),
      ]) {
        expect({ status: res.status, code: res.body.code }).toEqual({
          status: 403,
          code: 'insufficient_scope',
        });
      }
      const writer = await t.createKey('default', ['phone_numbers:write']);
      await t.api(writer.key).patch(`${NUMBERS}/${number.id}`).send({ label: 'x' }).expect(200);
      await t.api(writer.key).get(NUMBERS).expect(403);
    });
  });
});
