import { API, TestApp } from './test-app';

/** A knowledge base of the agent: a short text one unless `body` says otherwise. */
export async function createKnowledgeBase(
  t: TestApp,
  agentId: string,
  body: Record<string, unknown> = { type: 'text', name: 'FAQ', content: 'We open at 9.' },
  key = t.key,
): Promise<Record<string, any>> {
  const res = await t
    .api(key)
    .post(`${API}/agents/${agentId}/knowledge_bases`)
    .send(body)
    .expect(201);
  return res.body.data;
}
