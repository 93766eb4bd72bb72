import { createAgent } from '../factories/agents';
import { allMessages, repliesSettled, sendAs, sendTo } from '../factories/conversations';
import { API, startTestApp, TeamKey, TestApp } from '../factories/test-app';
import { createWorkflow } from '../factories/workflows';
import { errorBody } from '../support/burst';

const SHARED = {
  name: 'Shared desk',
  visibility: 'public',
  system_prompt: 'You answer for everyone.',
  rules: [{ name: 'Greeting', trigger: 'hello', response: 'Hello from the shared desk.' }],
  flows: [
    {
      name: 'Refunds',
      trigger_keywords: [{ keyword: 'refund', weight: 'high' }],
      conversation_steps: [{ type: 'message', content: 'Refunds take five days.' }],
    },
  ],
};

/** What the owner writes once the workflow is its own again. */
const CONFIDENTIAL = {
  system_prompt: 'Internal only.',
  rules: [{ name: 'Greeting', trigger: 'hello', response: 'Confidential greeting.' }],
  flows: [
    {
      name: 'Secret refunds',
      trigger_keywords: [{ keyword: 'refund', weight: 'high' }],
      conversation_steps: [{ type: 'message', content: 'Confidential refund policy.' }],
    },
  ],
};

const IN_USE = 'The workflow is used by agents; move or delete them first';

describe("a public workflow its owner makes private or deletes, while another team's agents use it", () => {
  let t: TestApp;
  let owner: TeamKey;
  let user: TeamKey;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await t.createKey('owner', ['*']);
    user = await t.createKey('user', ['*']);
  });
  afterAll(() => t.close());

  const get = async (key: string, path: string, status = 200) =>
    (await t.api(key).get(`${API}${path}`).expect(status)).body;

  const patchWorkflow = (id: string, body: object) =>
    t.api(owner.key).patch(`${API}/workflows/${id}`).send(body).expect(200);

  /** The last message of the conversation once the reply to `text` is stored. */
  async function replyTo(agentId: string, conversationId: string, text: string) {
    await sendTo(t, agentId, conversationId, text, undefined, user.key);
    await repliesSettled(t);
    return (await allMessages(t, agentId, conversationId, user.key)).at(-1)!.message;
  }

  /** The user's agent's workflow, which must be a private copy of `shared` of the user's own. */
  async function expectCopyOf(shared: Record<string, any>, agentId: string): Promise<string> {
    const { workflow_id: copyId } = (await get(user.key, `/agents/${agentId}`)).data;
    expect(copyId).not.toBe(shared.id);
    expect((await get(user.key, `/workflows/${copyId}`)).data).toEqual({
      ...shared,
      id: copyId,
      visibility: 'private',
      is_owner: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await get(user.key, `/agents/${agentId}/flows`)).data).toEqual(shared.flows);
    return copyId;
  }

  it('moves them onto one private copy per team of the workflow as it stood, unreachable from then on', async () => {
    const shared = await createWorkflow(t, SHARED, owner.key);
    const first = await createAgent(t, { workflow_id: shared.id }, user.key);
    const second = await createAgent(t, { workflow_id: shared.id }, user.key);
    const started = await sendAs(t, first.id, 'customer', 'hello', {}, user.key);

    await patchWorkflow(shared.id, { visibility: 'private' });
    await patchWorkflow(shared.id, CONFIDENTIAL);

    const copyId = await expectCopyOf(shared, first.id);
    expect((await get(user.key, `/agents/${second.id}`)).data.workflow_id).toBe(copyId);
    const owned = await get(user.key, '/workflows?scope=owned&limit=100');
    expect(owned.data.map((workflow: { id: string }) => workflow.id)).toEqual([copyId]);
    await get(user.key, `/workflows/${shared.id}`, 404);
    expect(await replyTo(first.id, started.conversation_id, 'hello again')).toBe(
      'Hello from the shared desk.',
    );
    expect(await replyTo(first.id, started.conversation_id, 'I want a refund')).toBe(
      'Refunds take five days.',
    );
  });

  it('copies the content from before a PATCH that makes the workflow private and changes it at once', async () => {
    const shared = await createWorkflow(t, SHARED, owner.key);
    // The opening 'hi' is handed off; the AI must go on answering on the copy.
    const agent = await createAgent(
      t,
      { workflow_id: shared.id, handoff_pauses_ai: false },
      user.key,
    );

    await patchWorkflow(shared.id, { ...CONFIDENTIAL, name: 'Renamed', visibility: 'private' });

    await expectCopyOf(shared, agent.id);
    const started = await sendAs(t, agent.id, 'customer', 'hi', {}, user.key);
    expect(await replyTo(agent.id, started.conversation_id, 'hello')).toBe(
      'Hello from the shared desk.',
    );
    expect((await get(owner.key, `/workflows/${shared.id}`)).data).toMatchObject({
      name: 'Renamed',
      rules: [expect.objectContaining({ response: 'Confidential greeting.' })],
    });
  });

  it("lets the owner delete it when only another team's agents use it, and those agents keep working on their copy", async () => {
    const shared = await createWorkflow(t, SHARED, owner.key);
    // The opening 'hi' is handed off; the AI must go on answering on the copy.
    const agent = await createAgent(
      t,
      { workflow_id: shared.id, handoff_pauses_ai: false },
      user.key,
    );

    await t.api(owner.key).delete(`${API}/workflows/${shared.id}`).expect(200);

    await get(owner.key, `/workflows/${shared.id}`, 404);
    await expectCopyOf(shared, agent.id);
    const started = await sendAs(t, agent.id, 'customer', 'hi', {}, user.key);
    expect(await replyTo(agent.id, started.conversation_id, 'hello')).toBe(
      'Hello from the shared desk.',
    );
  });

  it("still refuses the owner's delete while its own agents use it, with a message that names no other team", async () => {
    const shared = await createWorkflow(t, SHARED, owner.key);
    const own = await createAgent(t, { workflow_id: shared.id }, owner.key);
    const theirs = await createAgent(t, { workflow_id: shared.id }, user.key);

    const refused = await t.api(owner.key).delete(`${API}/workflows/${shared.id}`).expect(409);
    expect(refused.body).toEqual({ ...errorBody(refused, 409, 'conflict'), message: IN_USE });
    expect((await get(user.key, `/agents/${theirs.id}`)).data.workflow_id).toBe(shared.id);
    expect((await get(user.key, `/workflows/${shared.id}`)).data.visibility).toBe('public');

    await t.api(owner.key).delete(`${API}/agents/${own.id}`).expect(200);
    await t.api(owner.key).delete(`${API}/workflows/${shared.id}`).expect(200);
    await expectCopyOf(shared, theirs.id);
  });
});
