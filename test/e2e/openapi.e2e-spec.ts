import { STATUS_CODES } from 'node:http';
import { ERROR_CODES } from '@/common/http/api-error';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { OpenApiDocument, Operation, operationsOf, resolve, Schema } from '../support/openapi';
import { swaggerParserVerdict } from '../support/openapi-validator';

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const PREFIX = API.slice(1);

/** Every schema in the document with where it sits, nested ones included. */
function schemasOf(doc: OpenApiDocument): Array<[string, Schema]> {
  const found: Array<[string, Schema]> = [];
  const visit = (schema: Schema, at: string) => {
    found.push([at, schema]);
    for (const [name, property] of Object.entries<Schema>(schema.properties ?? {})) {
      visit(property, `${at}.${name}`);
    }
    if (schema.items) {
      visit(schema.items, `${at}[]`);
    }
    if (typeof schema.additionalProperties === 'object') {
      visit(schema.additionalProperties, `${at}{}`);
    }
    for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
      (schema[keyword] ?? []).forEach((branch: Schema, i: number) =>
        visit(branch, `${at}/${keyword}${i}`),
      );
    }
  };
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    visit(schema, name);
  }
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const contents = [
        ...Object.values<any>(operation.requestBody?.content ?? {}),
        ...Object.values<any>(operation.responses).flatMap((r) =>
          Object.values<any>(r.content ?? {}),
        ),
      ];
      contents.forEach((media) => visit(media.schema, `${method} ${path}`));
    }
  }
  return found;
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let operations: Operation[];
  const raw = (operation: Operation) => doc.paths[operation.path][operation.method.toLowerCase()];
  const responsesOf = (operation: Operation) =>
    Object.entries<any>(raw(operation).responses).map(([status, response]) => ({
      operation: operation.name,
      status: Number(status),
      response,
      headers: Object.keys(response.headers ?? {}),
    }));

  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.http().get(`${API}/openapi.json`).expect(200)).body;
    operations = operationsOf(doc);
  });
  afterAll(() => t.close());

  it('passes a maintained OpenAPI 3.0 validator (swagger-parser)', async () => {
    expect(await swaggerParserVerdict(doc)).toBe('valid');
  });

  it('names every operation with a readable, unique camelCase operationId', () => {
    const ids = operations.map((operation) => raw(operation).operationId as string);
    expect(ids.filter((id) => !/^[a-z][a-zA-Z]+$/.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const idOf = (method: string, path: string) =>
      raw(operations.find((o) => o.method === method && o.path === `/${PREFIX}${path}`)!)
        .operationId;
    expect({
      list: idOf('GET', '/workflows'),
      get: idOf('GET', '/workflows/{id}'),
      create: idOf('POST', '/workflows'),
      update: idOf('PATCH', '/workflows/{id}'),
      remove: idOf('DELETE', '/workflows/{id}'),
      clone: idOf('POST', '/workflows/clone'),
      createAgent: idOf('POST', '/agents'),
      conversations: idOf('GET', '/agents/{agentId}/conversations'),
      stream: idOf('GET', '/agents/{agentId}/conversations/{conversationId}/stream'),
    }).toEqual({
      list: 'listWorkflows',
      get: 'getWorkflow',
      create: 'createWorkflow',
      update: 'updateWorkflow',
      remove: 'deleteWorkflow',
      clone: 'cloneWorkflow',
      createAgent: 'createAgent',
      conversations: 'listAgentConversations',
      stream: 'openConversationStream',
    });
  });

  it('gives every operation a summary and its security, empty where no API key is taken', () => {
    const unsaid = operations
      .filter((operation) => !raw(operation).summary || !Array.isArray(raw(operation).security))
      .map((operation) => operation.name);
    expect(unsaid).toEqual([]);
    const keyless = operations.filter((operation) => !operation.secured).map((o) => o.path);
    // The probes, the ticket-authenticated streams, and the web chat's public surface (§7a).
    expect(
      keyless.filter(
        (path) => !/^\/(healthz|readyz|widget\.js)$|\/stream$|^\/api\/v1\/(widget|channels)\//.test(path),
      ),
    ).toEqual([]);
  });

  it('documents X-Request-Id on every response, and X-RateLimit-* wherever the limiter counts', async () => {
    // The limiter skips health probes, and a 431 is refused by the HTTP parser before it runs.
    const probe = await t.http().get('/healthz').expect(200);
    expect(probe.headers['x-request-id']).toBeDefined();
    expect(probe.headers['x-ratelimit-limit']).toBeUndefined();
    const counted = await t.api().get(`${API}/workflows`).expect(200);
    expect(counted.headers['x-ratelimit-limit']).toBeDefined();

    const responses = operations.flatMap(responsesOf);
    expect(responses.length).toBeGreaterThan(100);
    const undocumented = responses
      .filter(({ operation, status, headers }) => {
        const counts = !/ \/(healthz|readyz|widget\.js)$/.test(operation) && status !== 431;
        const expected = ['X-Request-Id', ...(counts ? RATE_LIMIT_HEADERS : [])];
        return expected.some((name) => !headers.includes(name));
      })
      .map(({ operation, status }) => `${operation} ${status}`);
    expect(undocumented).toEqual([]);
  });

  it('documents Retry-After on every 429', () => {
    const tooMany = operations.flatMap(responsesOf).filter(({ status }) => status === 429);
    expect(tooMany.length).toBeGreaterThan(10);
    expect(tooMany.filter(({ headers }) => !headers.includes('Retry-After'))).toEqual([]);
  });

  it('documents Idempotent-Replayed on the successes of the operations that take Idempotency-Key', () => {
    // A response that is a credential (a stream ticket) takes a key but is never stored.
    const takesKey = (operation: Operation) =>
      raw(operation).parameters?.some(
        (p: { in: string; name: string; description: string }) =>
          p.in === 'header' &&
          p.name === 'Idempotency-Key' &&
          !p.description.includes('never stored'),
      );
    const successes = operations.flatMap(responsesOf).filter(({ status }) => status < 300);
    const idempotent = successes.filter(({ operation }) =>
      takesKey(operations.find((o) => o.name === operation)!),
    );
    expect(idempotent.length).toBeGreaterThan(20);
    const missing = idempotent.filter(({ headers }) => !headers.includes('Idempotent-Replayed'));
    expect(missing.map(({ operation }) => operation)).toEqual([]);
    const stray = successes
      .filter(({ headers }) => headers.includes('Idempotent-Replayed'))
      .filter((success) => !idempotent.includes(success));
    expect(stray.map(({ operation }) => operation)).toEqual([]);
  });

  it('shows no default on a PATCH body: a field left out keeps its value', () => {
    const patches = operations.filter((o) => o.method === 'PATCH' && o.body);
    expect(patches.map((o) => raw(o).operationId)).toContain('updateWorkflow');
    const defaults = patches.flatMap((operation) =>
      Object.entries<Schema>(resolve(doc, operation.body!).properties ?? {})
        .filter(([, property]) => resolve(doc, property).default !== undefined)
        .map(([name]) => `${operation.name} ${name}`),
    );
    expect(defaults).toEqual([]);
    expect(doc.components.schemas.WorkflowCreateDto.properties.visibility.default).toBe('private');
  });

  it("gives each error status one example, in the contract's error shape", () => {
    const errors = operations.flatMap(responsesOf).filter(({ status }) => status >= 400);
    const shown = new Map<number, Set<string>>();
    const problems: string[] = [];
    for (const { operation, status, response } of errors) {
      const media = response.content?.['application/json'];
      const example = media?.example;
      if (!example || media.examples !== undefined) {
        problems.push(`${operation} ${status}: not exactly one example`);
        continue;
      }
      const shaped =
        Object.keys(example).sort().join() === 'code,error,message,request_id,statusCode' &&
        example.statusCode === status &&
        example.error === STATUS_CODES[status] &&
        (ERROR_CODES as readonly string[]).includes(example.code);
      if (!shaped) {
        problems.push(`${operation} ${status}: ${JSON.stringify(example)}`);
      }
      shown.set(status, (shown.get(status) ?? new Set()).add(JSON.stringify(example)));
    }
    expect(problems).toEqual([]);
    const perStatus = [...shown].map(([status, distinct]) => [status, distinct.size]);
    expect(perStatus).toEqual(perStatus.map(([status]) => [status, 1]));
  });

  it('types free-form objects as objects with additionalProperties, not as {} or a bare object', () => {
    const loose = schemasOf(doc)
      .filter(([at, schema]) => {
        const bareObject =
          schema.type === 'object' &&
          !schema.properties &&
          !schema.enum &&
          !schema.allOf &&
          schema.additionalProperties !== true &&
          typeof schema.additionalProperties !== 'object';
        const untypedProperty =
          /\.\w+$/.test(at) && Object.keys(schema).every((key) => key === 'description');
        return bareObject || untypedProperty;
      })
      .map(([at]) => at);
    expect(loose).toEqual([]);
    const freeForm = { type: 'object', additionalProperties: true };
    const { properties } = doc.components.schemas.WorkflowCreateDto;
    expect(properties.prompt_config).toMatchObject(freeForm);
    expect(properties.integrations.items.oneOf).toContainEqual(freeForm);
  });

  it('documents the team inbox routes: their query enums, bodies and error responses', () => {
    const find = (method: string, path: string) =>
      operations.find((o) => o.method === method && o.path === `/${PREFIX}${path}`)!;
    const query = (operation: Operation) =>
      Object.fromEntries(
        operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]),
      );
    const statuses = (operation: Operation) => [...operation.responses.keys()];
    const STATUSES = ['open', 'pending', 'snoozed', 'resolved'];
    const PRIORITIES = ['low', 'normal', 'high', 'urgent'];
    const filters = {
      agent_id: { type: 'string', format: 'uuid' },
      assignee_id: { type: 'string', minLength: 1, maxLength: 255 },
      label: { type: 'string', maxLength: 255 },
      channel: { type: 'string', enum: expect.arrayContaining(['webchat', 'test_webchat']) },
      is_test_channel: { type: 'boolean' },
      is_ai_chat_paused: { type: 'boolean' },
      needs_attention: { type: 'boolean' },
      priority: { type: 'string', enum: PRIORITIES },
      updated_after: { type: 'string', format: 'date-time' },
    };
    const lists = [find('GET', '/conversations'), find('GET', '/agents/{agentId}/conversations')];
    for (const list of lists) {
      expect(query(list)).toMatchObject({
        ...filters,
        status: { type: 'string', enum: STATUSES },
        sort: { enum: expect.arrayContaining(['-last_message_at', 'priority', '-priority']) },
        page: { type: 'integer' },
        limit: { type: 'integer' },
        search: { type: 'string' },
      });
      expect(statuses(list)).toEqual(expect.arrayContaining([200, 400, 401, 403, 429]));
    }
    const counts = find('GET', '/conversations/counts');
    expect(Object.keys(query(counts)).sort()).toEqual(Object.keys(filters).sort());
    expect(query(counts)).toMatchObject(filters);
    const countsSchema = resolve(doc, counts.responses.get(200)!.schema.properties.data);
    expect(Object.keys(countsSchema.properties).sort()).toEqual(
      ['needs_attention', 'open', 'pending', 'resolved', 'snoozed', 'unassigned'].sort(),
    );
    expect(Object.values(countsSchema.properties)).toEqual(
      Array(6).fill({ type: 'integer', minimum: 0 }),
    );
    expect(query(find('GET', '/contacts'))).toMatchObject({
      sort: { enum: expect.arrayContaining(['created_at', 'updated_at', '-full_name']) },
    });

    const update = find('PATCH', '/agents/{agentId}/conversations/{conversationId}');
    expect(resolve(doc, update.body!).properties).toMatchObject({
      status: { enum: STATUSES },
      snoozed_until: { type: 'string', format: 'date-time', nullable: true },
      assignee: { nullable: true },
      labels: { type: 'array', maxItems: 20, items: { minLength: 1, maxLength: 50 } },
      priority: { enum: PRIORITIES },
    });
    const note = find('POST', '/agents/{agentId}/conversations/{conversationId}/notes');
    expect(resolve(doc, note.body!)).toMatchObject({ required: ['text'] });
    const contact = find('PATCH', '/contacts/{contactId}');
    expect(Object.keys(resolve(doc, contact.body!).properties).sort()).toEqual([
      'email',
      'full_name',
      'notes',
      'phone_number',
    ]);
    for (const write of [update, note, contact]) {
      expect(statuses(write)).toEqual(expect.arrayContaining([400, 401, 403, 404, 409, 422]));
      expect(raw(write).responses['403'].description).toContain('inbox:write');
    }
    expect(statuses(find('GET', '/contacts/{contactId}'))).toContain(404);
  });

  it("describes DELETE's `data: null` in OpenAPI 3.0 terms", async () => {
    const deletes = operations.filter((o) => o.method === 'DELETE');
    expect(deletes.length).toBeGreaterThan(5);
    for (const operation of deletes) {
      expect(operation.responses.get(200)?.schema.properties.data).toMatchObject({
        nullable: true,
        enum: [null],
        type: 'object',
      });
    }
    const created = await t.api().post(`${API}/workflows`).send({ name: 'to delete' }).expect(201);
    const deleted = await t.api().delete(`${API}/workflows/${created.body.data.id}`).expect(200);
    expect(deleted.body.data).toBeNull();
  });
});
