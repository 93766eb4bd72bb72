import { ApiClient, expectStatus } from '../support/api-client';
import { AppProcess, startApp } from '../support/app-process';
import { clusterEnv, ClusterEnv } from '../support/cluster-env';
import { recordSecret } from '../support/log-capture';
import { sleep } from '../support/wait';
import { verifySignature, WebhookReceiver } from '../support/webhook-receiver';

const EVENTS = 200;
const CONCURRENCY = 8;

describe('webhooks on two instances', () => {
  let cluster: ClusterEnv;
  let a: AppProcess;
  let b: AppProcess;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    cluster = await clusterEnv({ RATE_LIMIT_MAX: '100000', LOG_LEVEL: 'info' });
    [a, b] = await Promise.all([
      startApp(cluster.env, { name: 'A' }),
      startApp(cluster.env, { name: 'B' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await receiver?.close();
    await cluster?.cleanup();
  });

  it(`delivers each of ${EVENTS} events exactly once`, async () => {
    const onA = new ApiClient(a.url, cluster.key);
    const onB = new ApiClient(b.url, cluster.key);
    const webhook = (
      await expectStatus(
        onA.call('POST', '/webhooks', { url: receiver.url, events: ['message.created'] }),
        201,
      )
    ).body.data;
    recordSecret('integration secret', webhook.secret);
    const agent = await onA.createAgent('Cluster webhooks');
    const conversation = (
      await expectStatus(
        onA.call('POST', `/agents/${agent.id}/conversations/messages`, {
          message: 'opening',
          role: 'assistant',
          channel_type: 'webchat',
          channel_user_id: 'cluster-user',
        }),
        201,
      )
    ).body.data.conversation_id;

    const ids: string[] = [];
    let next = 1;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < EVENTS) {
          const index = next++;
          const client = index % 2 ? onA : onB;
          const res = await expectStatus(
            client.call('POST', `/agents/${agent.id}/conversations/${conversation}/messages`, {
              message: `event ${index}`,
              role: 'assistant',
            }),
            201,
          );
          ids.push(res.body.data.id);
        }
      }),
    );
    await receiver.waitFor((all) => all.length >= EVENTS, 30_000);
    await sleep(3_000);

    const perEvent = new Map<string, number>();
    for (const event of receiver.received) {
      perEvent.set(event.body.id, (perEvent.get(event.body.id) ?? 0) + 1);
    }
    expect(receiver.received).toHaveLength(EVENTS);
    expect([...perEvent.values()].filter((count) => count > 1)).toEqual([]);
    const messageIds = new Set(receiver.received.map((event) => event.body.data.id));
    expect(messageIds.size).toBe(EVENTS);
    expect(ids.every((id) => messageIds.has(id))).toBe(true);
    expect(receiver.received.every((event) => verifySignature(webhook.secret, event))).toBe(true);
    onA.close();
    onB.close();
  }, 90_000);
});
