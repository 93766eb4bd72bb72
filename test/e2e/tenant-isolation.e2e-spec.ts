import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { TeamsService } from '@/modules/auth/teams.service';
import { repliesSettled } from '../factories/conversations';
import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { seedTeam, TeamRecords } from '../factories/team-records';
import { bearer } from '../support/bearer';
import { recordSecret } from '../support/log-capture';
import {
  minimalSample,
  OpenApiDocument,
  Operation,
  operationsOf,
} from '../support/openapi-operations';

/**
 * Bodies the document's schemas cannot describe whole (a field required only with another's
 * value, a URL format); every other write sends the schema's minimal sample. PATCHes change a
 * visible field, so that one which landed would show in the owner's records.
 */
const BODIES: Record<string, unknown> = {
  [`PATCH ${API}/workflows/{id}`]: { name: 'Taken over' },
  [`PATCH ${API}/agents/{agentId}`]: { name: 'Taken over' },
  [`PATCH ${API}/agents/{agentId}/live-status`]: { status: 'live' },
  [`POST ${API}/agents/{agentId}/knowledge_bases`]: { type: 'text', name: 'x', content: 'y' },
  [`PATCH ${API}/agents/{agentId}/knowledge_bases/{kbId}`]: { name: 'Taken over' },
  [`POST ${API}/agents/{agentId}/integrations/custom_api/{integrationId}/tools`]: {
    name: 'x',
    http_method: 'GET',
    url_template: '/x',
  },
  [`POST ${API}/agents/{agentId}/integrations/mcp_server/configure`]: {
    name: 'x',
    server_url: 'http://127.0.0.1:9/mcp',
  },
  [`PATCH ${API}/phone-numbers/{id}`]: { label: 'Taken over', agent_id: null },
  [`POST ${API}/agents/{agentId}/conversations/messages`]: {
    message: 'x',
    channel_type: 'webchat',
    channel_user_id: 'u',
  },
  [`POST ${API}/agents/{agentId}/conversations/{conversationId}/notes`]: {
    text: 'Taken over',
    author: { id: 'intruder', name: 'Intruder' },
  },
  [`POST ${API}/agents/{agentId}/channels/webchat/connect`]: {
    allowed_origins: ['https://intruder.example'],
  },
  [`POST ${API}/agents/{agentId}/channels/whatsapp/connect`]: {
    phone_number_id: '106540352242922',
    access_token: 'EAAintruder-token',
    app_secret: 'intruder-secret',
  },
  [`POST ${API}/agents/{agentId}/channels/messenger/connect`]: {
    page_id: '1122334455',
    page_access_token: 'EAAintruder-token',
    app_secret: 'intruder-secret',
  },
  [`POST ${API}/agents/{agentId}/channels/instagram/connect`]: {
    page_id: '1122334455',
    page_access_token: 'EAAintruder-token',
    app_secret: 'intruder-secret',
  },
  [`PATCH ${API}/contacts/{contactId}`]: { notes: 'Taken over', email: 'intruder@example.com' },
  [`PATCH ${API}/agents/{agentId}/conversations/{conversationId}`]: {
    status: 'resolved',
    assignee: { id: 'intruder', name: 'Intruder' },
    labels: ['taken-over'],
  },
};

/**
 * The path with each `{param}` replaced by the id of the kind its collection segment names
 * (`/knowledge_bases/{kbId}` → a knowledge base): `leaf` for the last one, `parents` for the
 * others. Throws on a collection it has no record of, so that a new route breaks the sweep loudly.
 */
function fillPath(path: string, parents: TeamRecords, leaf: TeamRecords): string {
  const params = [...path.matchAll(/([^/{}]+)\/\{\w+\}/g)];
  const filled = params.reduce((partial, match, index) => {
    const collection = match[1] as keyof TeamRecords;
    const records = index === params.length - 1 ? leaf : parents;
    if (!(collection in records)) {
      throw new Error(`${path}: no record to put after /${collection}/; add one to seedTeam`);
    }
    return partial.replace(match[0], `${collection}/${records[collection]}`);
  }, path);
  if (filled.includes('{')) {
    throw new Error(`${path}: a parameter that follows no collection; teach fillPath about it`);
  }
  return filled;
}

interface Answer {
  status: number;
  body: any;
  headers: Record<string, string>;
}

/** Sends one request; a stream that opens (it must not) is cut at once rather than read. */
async function call(t: TestApp, method: string, path: string, headers: object, body?: unknown) {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const isJson = res.headers.get('content-type')?.startsWith('application/json');
  const answer: Answer = {
    status: res.status,
    body: isJson ? await res.json() : undefined,
    headers: Object.fromEntries(res.headers),
  };
  if (!isJson) {
    await res.body?.cancel();
  }
  return answer;
}

/** 404 `not_found` with the contract's error body (docs/api.md §1). */
function isContractNotFound(res: Answer): boolean {
  const body = res.body ?? {};
  return (
    res.status === 404 &&
    Object.keys(body).sort().join() === 'code,error,message,request_id,statusCode' &&
    body.code === 'not_found' &&
    body.error === 'Not Found' &&
    body.statusCode === 404 &&
    typeof body.message === 'string' &&
    body.request_id === res.headers['x-request-id']
  );
}

/**
 * The owner's webhook points at a closed port, so its deliveries are retried in the background
 * while the sweep runs: their attempt count and retry time move on their own, not by the intruder.
 */
function withoutRetryClock(path: string, data: unknown): unknown {
  if (!path.endsWith('/deliveries') || !Array.isArray(data)) {
    return data;
  }
  return data.map((delivery: Record<string, unknown>) => {
    const { attempts: _attempts, next_attempt_at: _next, ...rest } = delivery;
    return rest;
  });
}

describe('tenant isolation, swept over the OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let intruder: TeamKey;
  let victim: TeamRecords;
  let own: TeamRecords;
  /** More records of the victim's team, and a key of that team limited to their agent. */
  let sibling: TeamRecords;
  let limited: string;

  beforeAll(async () => {
    t = await startTestApp();
    intruder = await t.createKey('intruder', ['*']);
    victim = await seedTeam(t, t.key);
    own = await seedTeam(t, intruder.key);
    sibling = await seedTeam(t, t.key);
    const team = await t.app.get(TeamsService).findByName('default');
    const created = await t.app
      .get(ApiKeysService)
      .createForAgents(team!.id, ['*'], [sibling.agents]);
    if ('notAgents' in created) {
      throw new Error('the sibling agent was not found in its team');
    }
    limited = created.key;
    recordSecret('api key', limited);
    await repliesSettled(t);
    doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body;
  });
  afterAll(() => t.close());

  /** Call endpoints answer 501 to everyone (docs/api.md §6): there is nothing of a team's to hide. */
  const answersEveryone = (operation: Operation) => operation.responses.includes('501');

  function bodyFor(operation: Operation): unknown {
    const documented = BODIES[`${operation.method} ${operation.path}`];
    if (documented !== undefined || !operation.bodySchema) {
      return documented;
    }
    return minimalSample(doc, operation.bodySchema);
  }

  /** The query an operation needs: a stream is opened with a ticket `key` got for its own conversation. */
  async function queryFor(
    operation: Operation,
    key = intruder.key,
    records = own,
  ): Promise<string> {
    if (operation.requiredQuery.includes('from')) {
      return `?from=2026-01-01&to=2026-01-31`;
    }
    const unknown = operation.requiredQuery.filter((name) => name !== 'ticket');
    if (unknown.length) {
      throw new Error(`${operation.path}: no value for required query ${unknown.join(', ')}`);
    }
    if (!operation.requiredQuery.includes('ticket')) {
      return '';
    }
    const ticket = await call(
      t,
      'POST',
      `${API}/agents/${records.agents}/conversations/${records.conversations}/stream-ticket`,
      bearer(key),
    );
    return `?ticket=${ticket.body.data.ticket}`;
  }

  /** Everything the owner can read, as it reads it: unchanged by the sweep, or the sweep wrote. */
  async function ownerView(): Promise<Record<string, unknown>> {
    const view: Record<string, unknown> = {};
    for (const operation of operationsOf(doc)) {
      // The seeded messages carry no media: their attachments are 404 to everyone.
      const noRecord = operation.path.endsWith('/attachments/{index}');
      if (
        operation.method !== 'GET' ||
        operation.isPublic ||
        answersEveryone(operation) ||
        noRecord
      ) {
        continue;
      }
      // A report needs its period; the owner's records are all of today.
      const period = operation.requiredQuery.includes('from')
        ? `?from=${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}&to=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}`
        : '';
      const path = fillPath(operation.path, victim, victim) + period;
      const res = await call(t, 'GET', path, bearer(t.key));
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      view[path] = { data: withoutRetryClock(path, res.body.data), meta: res.body.meta };
    }
    const tables = t.dataSource().entityMetadatas.map((entity) => entity.tableName);
    for (const table of tables) {
      view[`rows in ${table}`] = await t.dataSource().query(`SELECT COUNT(*) AS n FROM ${table}`);
    }
    return view;
  }

  it("answers 404 in the contract's shape to another team on every route that takes an id, and changes nothing", async () => {
    const operations = operationsOf(doc).filter(
      (operation) => operation.pathParams.length > 0 && !answersEveryone(operation),
    );
    expect(operations.length).toBeGreaterThan(40);
    const staleBodies = Object.keys(BODIES).filter(
      (key) => !operations.some((operation) => `${operation.method} ${operation.path}` === key),
    );
    expect(staleBodies).toEqual([]);
    const before = await ownerView();

    const leaks: string[] = [];
    let sent = 0;
    for (const operation of operations) {
      // All of the victim's ids; then the intruder's own parents with the victim's record last
      // (its own agent, the victim's conversation), which a check of the parent alone lets by.
      // A channel is named by its type, not an id: under the intruder's own agent it is theirs.
      const namedByType = /\/channels\/\{type\}/.test(operation.path);
      const paths = new Set([
        fillPath(operation.path, victim, victim),
        ...(namedByType ? [] : [fillPath(operation.path, own, victim)]),
      ]);
      for (const path of paths) {
        const credentials = operation.isPublic ? {} : bearer(intruder.key);
        const res = await call(
          t,
          operation.method,
          path + (await queryFor(operation)),
          credentials,
          bodyFor(operation),
        );
        sent++;
        if (!isContractNotFound(res)) {
          leaks.push(`${operation.method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(sent).toBeGreaterThan(operations.length);
    expect(await ownerView()).toEqual(before);
  });

  /**
   * What a key limited to the sibling agent gets (docs/api.md §2): routes of another agent are 404
   * as for an agent that does not exist, workflows stay readable, its lists of agents and
   * conversations (and their counts), reports and usage answer, and everything else is
   * team-wide: 403.
   */
  function limitedKeyGets(operation: Operation): number {
    if (operation.isPublic || operation.path.startsWith(`${API}/agents/{agentId}`)) {
      return 404;
    }
    const reads = operation.method === 'GET';
    if (
      reads &&
      (operation.path.startsWith(`${API}/workflows`) ||
        operation.path === `${API}/agents` ||
        operation.path.startsWith(`${API}/conversations`) ||
        operation.path.startsWith(`${API}/reports`) ||
        operation.path === `${API}/usage`)
    ) {
      return 200;
    }
    return 403;
  }

  function answersAsExpected(res: Answer, status: number): boolean {
    if (status === 404) {
      return isContractNotFound(res);
    }
    if (status === 403) {
      return (
        res.status === 403 &&
        res.body?.code === 'forbidden' &&
        /^This key is limited to some agents/.test(res.body.message)
      );
    }
    return res.status === status;
  }

  it("keeps a key limited to one agent out of its team's other agents (404) and team-wide routes (403), and changes nothing", async () => {
    // Call endpoints have no records to fill in (agent-limited-keys.e2e-spec.ts covers them);
    // the probes outside the API prefix take no key.
    const operations = operationsOf(doc).filter(
      (operation) => operation.path.startsWith(API) && !answersEveryone(operation),
    );
    const before = await ownerView();

    const leaks: string[] = [];
    const expected = new Map<number, number>();
    for (const operation of operations) {
      // The victim's ids; then the sibling's parents with the victim's record last (its own
      // agent, another agent's conversation of the same team).
      const namedByType = /\/channels\/\{type\}/.test(operation.path);
      const paths = new Set([
        fillPath(operation.path, victim, victim),
        ...(namedByType ? [] : [fillPath(operation.path, sibling, victim)]),
      ]);
      for (const path of paths) {
        const status = limitedKeyGets(operation);
        const res = await call(
          t,
          operation.method,
          path + (await queryFor(operation, limited, sibling)),
          operation.isPublic ? {} : bearer(limited),
          bodyFor(operation),
        );
        expected.set(status, (expected.get(status) ?? 0) + 1);
        if (!answersAsExpected(res, status)) {
          leaks.push(`${operation.method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(expected.get(404)).toBeGreaterThan(40);
    expect(expected.get(403)).toBeGreaterThan(10);
    expect(await ownerView()).toEqual(before);

    const agents = await t.api(limited).get(`${API}/agents?limit=100`).expect(200);
    expect(agents.body.data.map((agent: { id: string }) => agent.id)).toEqual([sibling.agents]);
    expect(agents.body.meta.total_count).toBe(1);
  });

  it('breaks loudly on a route whose ids it cannot fill, rather than skipping it', () => {
    expect(() => fillPath(`${API}/agents/{agentId}/notes/{noteId}`, own, victim)).toThrow(
      'no record to put after /notes/',
    );
    expect(() => fillPath(`${API}/agents/{agentId}/{noteId}`, own, victim)).toThrow(
      'a parameter that follows no collection',
    );
    expect(fillPath(`${API}/agents/{agentId}/knowledge_bases/{kbId}`, own, victim)).toBe(
      `${API}/agents/${own.agents}/knowledge_bases/${victim.knowledge_bases}`,
    );
  });

  it("keeps another team's agents out of its list", async () => {
    const list = await t.api(intruder.key).get(`${API}/agents?limit=100`).expect(200);
    const ids = list.body.data.map((agent: { id: string }) => agent.id);
    expect(ids).toContain(own.agents);
    expect(ids).not.toContain(victim.agents);
  });

  it("refuses another team's private workflow to a new agent and to a clone", async () => {
    const intruderKey = bearer(intruder.key);
    const create = await t
      .http()
      .post(`${API}/agents`)
      .set(intruderKey)
      .send({ workflow_id: victim.workflows, name: 'x', description: 'y' })
      .expect(404);
    expect(create.body.code).toBe('not_found');
    const clone = await t
      .http()
      .post(`${API}/workflows/clone`)
      .set(intruderKey)
      .send({ source_workflow_id: victim.workflows })
      .expect(404);
    expect(clone.body.code).toBe('not_found');
  });

  it("keeps each team's model settings its own: another team's PUT and DELETE change nothing of the owner's", async () => {
    const settings = `${API}/settings/model`;
    await t
      .api()
      .put(settings)
      .send({ allowed_models: ['owner-model'], monthly_token_budget: 123_456 })
      .expect(200);
    try {
      const before = await ownerView();
      await t.api(intruder.key).put(settings).send({ monthly_token_budget: 1 }).expect(200);
      expect((await t.api(intruder.key).get(settings).expect(200)).body.data).toMatchObject({
        allowed_models: null,
        monthly_token_budget: 1,
      });
      await t.api(intruder.key).delete(settings).expect(200);
      expect(await ownerView()).toEqual(before);
      expect((await t.api().get(settings).expect(200)).body.data).toMatchObject({
        allowed_models: ['owner-model'],
        monthly_token_budget: 123_456,
      });
    } finally {
      await t.api().delete(settings).expect(200);
    }
  });
});
