import { randomBytes } from 'node:crypto';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import { ConversationReports1733166000000 } from '@/database/migrations/1733166000000-conversation-reports';
import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { TeamsService } from '@/modules/auth/teams.service';
import { ConversationEntity } from '@/modules/conversations/entities/conversation.entity';
import { createAgent } from '../factories/agents';
import { conversationsPath, repliesSettled, sendAs, sendTo } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import {
  insertLegacyTeam,
  migrationTargets,
  seedPreviousRelease,
} from '../factories/previous-release';
import { createTestDatabase, TestDatabase } from '../factories/test-database';
import { createWorkflow } from '../factories/workflows';
import { recordSecret } from '../support/log-capture';

const RULES = [
  { name: 'Greeting', trigger: 'hello', response: 'Hi!', enabled: true },
  {
    name: 'Wants a person',
    trigger: 'talk to kemi',
    response: 'Kemi will be with you shortly.',
    action: 'escalate',
    enabled: true,
  },
];

const REPORT = `${API}/reports/conversations`;

/** YYYY-MM-DD of `days` days from now, in UTC. */
function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** docs/api.md §5a, reports: the figures, counted by the database, over whole days. */
describe('GET /reports/conversations', () => {
  let t: TestApp;
  let shop: string;
  let other: string;
  let today: string;
  const period = () => `${REPORT}?from=${dayFromNow(-1)}&to=${dayFromNow(1)}`;

  beforeAll(async () => {
    t = await startTestApp();
    const workflow = await createWorkflow(t, { name: 'Shop', rules: RULES });
    shop = (await createAgent(t, { workflow_id: workflow.id, name: 'Shop' })).id;
    other = (await createAgent(t, { workflow_id: workflow.id, name: 'Other' })).id;
    const inbox = (id: string) => `${conversationsPath(shop)}/${id}`;

    // Answered by the AI, then resolved: resolved without a hand-off.
    const answered = (await sendAs(t, shop, 'ann', 'hello')).conversation_id;
    // Handed off, answered by an operator (and a note), then resolved.
    const handed = (await sendAs(t, shop, 'bob', 'talk to kemi')).conversation_id;
    await repliesSettled(t);
    await sendTo(t, shop, handed, 'Kemi here, how can I help?', 'assistant');
    await t
      .api()
      .post(`${inbox(handed)}/notes`)
      .send({ text: 'VIP' })
      .expect(201);
    // Still open.
    await sendAs(t, shop, 'cat', 'hello');
    // Another agent's.
    await sendAs(t, other, 'dan', 'hello');
    await repliesSettled(t);
    for (const id of [answered, handed]) {
      await t.api().patch(inbox(id)).send({ status: 'resolved' }).expect(200);
    }
    // Another team's conversation counts nowhere.
    const outsider = await t.createKey('reports-outsider', ['*']);
    const theirs = await createAgent(t, {}, outsider.key);
    await sendAs(t, theirs.id, 'eve', 'hello', {}, outsider.key);
    await repliesSettled(t);
    today = new Date().toISOString().slice(0, 10);
  });
  afterAll(() => t.close());

  it("counts the team's conversations, messages, hand-offs and resolutions", async () => {
    const res = await t.api().get(period()).expect(200);
    expect(res.body.data).toMatchObject({
      conversations: 4,
      customer_messages: 4,
      // The hand-off rule's own answer is the AI's; the note is no message to anyone.
      ai_replies: 4,
      operator_messages: 1,
      handed_off: 1,
      resolved: 2,
      resolved_without_handoff: 1,
    });
    const { median_first_response_s: firstResponse, median_resolution_s: resolution } =
      res.body.data;
    expect(firstResponse).toBeGreaterThanOrEqual(0);
    expect(resolution).toBeGreaterThanOrEqual(0);
    expect(res.body.data.by_day).toHaveLength(3);
    expect(res.body.data.by_day.map((day: { date: string }) => day.date)).toEqual([
      dayFromNow(-1),
      dayFromNow(0),
      dayFromNow(1),
    ]);
    const byDate = Object.fromEntries(
      res.body.data.by_day.map((day: { date: string }) => [day.date, day]),
    );
    expect(byDate[today]).toEqual({ date: today, conversations: 4, handed_off: 1, resolved: 2 });
  });

  it("narrows to one agent's conversations", async () => {
    const res = await t.api().get(`${period()}&agent_id=${other}`).expect(200);
    expect(res.body.data).toMatchObject({
      conversations: 1,
      customer_messages: 1,
      ai_replies: 1,
      operator_messages: 0,
      handed_off: 0,
      resolved: 0,
      resolved_without_handoff: 0,
      median_resolution_s: null,
    });
  });

  it('gives zeros and nulls for a period without conversations', async () => {
    const res = await t.api().get(`${REPORT}?from=2020-01-01&to=2020-01-02`).expect(200);
    expect(res.body.data).toEqual({
      conversations: 0,
      customer_messages: 0,
      ai_replies: 0,
      operator_messages: 0,
      handed_off: 0,
      resolved: 0,
      resolved_without_handoff: 0,
      median_first_response_s: null,
      median_resolution_s: null,
      by_day: [
        { date: '2020-01-01', conversations: 0, handed_off: 0, resolved: 0 },
        { date: '2020-01-02', conversations: 0, handed_off: 0, resolved: 0 },
      ],
    });
  });

  it.each([
    ['', 'from'],
    ['?from=2026-01-01', 'to'],
    ['?from=2026-1-1&to=2026-01-02', 'from'],
    ['?from=2026-02-30&to=2026-03-02', 'from'],
    ['?from=2026-03-02&to=2026-03-01', 'to'],
    ['?from=2026-01-01&to=2026-04-03', 'to'],
    ['?from=2026-01-01&to=2026-01-02&agent_id=nope', 'agent_id'],
    ['?from=2026-01-01&to=2026-01-02&team=x', 'team'],
  ])('refuses %s naming %s', async (query, field) => {
    const res = await t.api().get(`${REPORT}${query}`).expect(400);
    expect(res.body.code).toBe('validation_error');
    expect(JSON.stringify(res.body.details ?? res.body.message)).toContain(field);
  });

  it('covers 92 days at most, both ends included', async () => {
    await t.api().get(`${REPORT}?from=2026-01-01&to=2026-04-02`).expect(200);
  });

  it("answers 404 for another team's agent", async () => {
    const outsider = await t.createKey('reports-outsider', ['*']);
    const theirs = await createAgent(t, {}, outsider.key);
    await t.api().get(`${period()}&agent_id=${theirs.id}`).expect(404);
  });

  it('needs settings:read', async () => {
    const reader = await t.createKey('default', ['conversations:read']);
    await t.api(reader.key).get(period()).expect(403);
    const settings = await t.createKey('default', ['settings:read']);
    await t.api(settings.key).get(period()).expect(200);
  });

  it("gives a key limited to agents its agents' figures only", async () => {
    const teamId = (await t.app.get(TeamsService).findByName('default'))!.id;
    const created = await t.app
      .get(ApiKeysService)
      .createForAgents(teamId, ['settings:read'], [other]);
    if ('notAgents' in created) {
      throw new Error('not agents');
    }
    recordSecret('api key', created.key);
    const res = await t.api(created.key).get(period()).expect(200);
    expect(res.body.data).toMatchObject({ conversations: 1, handed_off: 0, resolved: 0 });
    await t.api(created.key).get(`${period()}&agent_id=${shop}`).expect(404);
  });

  it('counts days in TEAM_TIME_ZONE', async () => {
    // 23:30 UTC on 10 March is already 11 March in Lagos (UTC+1).
    const late = await sendAs(t, other, 'late-owl', 'hello');
    await repliesSettled(t);
    await t.app
      .get(Database)
      .update(
        ConversationEntity,
        { id: late.conversation_id },
        { createdAt: new Date('2026-03-10T23:30:00Z') },
      );
    const query = `${REPORT}?from=2026-03-10&to=2026-03-11`;
    const utc = await t.api().get(query).expect(200);
    expect(utc.body.data.by_day.map((d: { conversations: number }) => d.conversations)).toEqual([
      1, 0,
    ]);
    const lagos = await startTestApp({
      DATABASE_URL: t.env.DATABASE_URL,
      TEAM_TIME_ZONE: 'Africa/Lagos',
    });
    try {
      const res = await lagos.api(t.key).get(query).expect(200);
      expect(res.body.data.by_day.map((d: { conversations: number }) => d.conversations)).toEqual([
        0, 1,
      ]);
    } finally {
      await lagos.stop();
    }
  });
});

const LEGACY = Object.fromEntries(
  ['team', 'workflow', 'agent', 'x', 'y', 'z'].map((name) => [name, newId()]),
);

/**
 * A database of the release before reports: X handed off then resolved, Y resolved by the AI,
 * Z handed off and still open, all created at 10:00 on 20 November.
 */
async function legacyInbox(url: string, secretKey: Buffer): Promise<void> {
  const at = (hour: number, minute: number) => new Date(Date.UTC(2026, 10, 20, hour, minute));
  await seedPreviousRelease(
    url,
    secretKey,
    (all) => all.indexOf(ConversationReports1733166000000),
    async (insert) => {
      await insertLegacyTeam(
        insert,
        {
          id: LEGACY.team,
          name: 'legacy-reports',
          workflowId: LEGACY.workflow,
          agents: [[LEGACY.agent, 'LEGACY31']],
        },
        at(9, 0),
      );
      const conversations: Array<[string, string, Date | null, Date]> = [
        [LEGACY.x, 'resolved', at(10, 5), at(10, 30)],
        [LEGACY.y, 'resolved', null, at(11, 0)],
        [LEGACY.z, 'open', at(10, 20), at(10, 20)],
      ];
      for (const [id, status, handoffAt, updatedAt] of conversations) {
        await insert('conversations', {
          id,
          team_id: LEGACY.team,
          agent_id: LEGACY.agent,
          channel_type: 'webchat',
          channel_user_id: `visitor-${id}`,
          last_seq: 0,
          status,
          handoff_at: handoffAt,
          handoff_source: handoffAt ? 'rule' : null,
          handoff_reason: handoffAt ? 'Wants a person' : null,
          created_at: at(10, 0),
          updated_at: updatedAt,
        });
      }
    },
  );
}

describe.each(migrationTargets())(
  "reports over the previous release's conversations, on %s",
  (_name, url) => {
    let database: TestDatabase;
    let t: TestApp;

    beforeAll(async () => {
      database = await createTestDatabase(url);
      const secretKey = randomBytes(32);
      await legacyInbox(database.url, secretKey);
      t = await startTestApp({
        DATABASE_URL: database.url,
        CONSOLE_SECRET_KEY: secretKey.toString('hex'),
      });
    });
    afterAll(async () => {
      await t?.close();
      await database?.drop();
    });

    it('counts their latest hand-offs, and resolutions at their last update', async () => {
      const { key } = await t.createKey('legacy-reports', ['settings:read']);
      const res = await t.api(key).get(`${REPORT}?from=2026-11-20&to=2026-11-20`).expect(200);
      expect(res.body.data).toMatchObject({
        conversations: 3,
        handed_off: 2,
        resolved: 2,
        resolved_without_handoff: 1,
        // 30 and 60 minutes from creation to resolution.
        median_resolution_s: 2700,
        by_day: [{ date: '2026-11-20', conversations: 3, handed_off: 2, resolved: 2 }],
      });
    });
  },
);
