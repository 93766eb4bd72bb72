import { recordSecret } from '../support/log-capture';
import { API, TestApp } from './test-app';

export const WEBHOOKS = `${API}/webhooks`;

export const ALL_EVENTS = [
  'conversation.created',
  'message.created',
  'conversation.needs_attention',
  'agent.status_changed',
];

/** Registers an endpoint; returns it with its secret (recorded, so logs are checked for it). */
export async function createWebhook(
  t: TestApp,
  url: string,
  events: string[] = ALL_EVENTS,
  key = t.key,
): Promise<Record<string, any> & { id: string; secret: string }> {
  const res = await t.api(key).post(WEBHOOKS).send({ url, events }).expect(201);
  recordSecret('integration secret', res.body.data.secret);
  return res.body.data;
}

export async function deliveriesOf(
  t: TestApp,
  webhookId: string,
  key = t.key,
): Promise<Array<Record<string, any>>> {
  const res = await t.api(key).get(`${WEBHOOKS}/${webhookId}/deliveries?limit=100`).expect(200);
  return res.body.data;
}
