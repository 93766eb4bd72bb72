import { API, TestApp } from './test-app';
import { createWorkflow } from './workflows';

export async function createAgent(
  t: TestApp,
  fields: Record<string, unknown> = {},
  key = t.key,
): Promise<Record<string, any>> {
  const workflowId =
    fields.workflow_id ?? (await createWorkflow(t, { name: 'Agent workflow' }, key)).id;
  const res = await t
    .api(key)
    .post(`${API}/agents`)
    .send({ name: 'Ada', description: 'Answers questions', ...fields, workflow_id: workflowId })
    .expect(201);
  return res.body.data;
}
