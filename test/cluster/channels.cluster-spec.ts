import { ApiClient } from '../support/api-client';
import { AppProcess, startApp } from '../support/app-process';
import { clusterEnv, ClusterEnv } from '../support/cluster-env';
import {
  FakeGraphApi,
  postSignedNotification as notify,
  whatsappTextNotification,
} from '../support/fake-graph-api';
import { recordSecret } from '../support/log-capture';
import { pollUntil, sleep } from '../support/wait';

const APP_SECRET = 'cluster-app-secret';
const CUSTOMERS = 40;

/** docs/api.md §4d: notifications and sends on two instances, each taken in and sent once. */
describe('WhatsApp on two instances', () => {
  let cluster: ClusterEnv;
  let graph: FakeGraphApi;
  let a: AppProcess;
  let b: AppProcess;

  beforeAll(async () => {
    graph = await FakeGraphApi.start();
    recordSecret('integration secret', graph.options.accessToken);
    recordSecret('integration secret', APP_SECRET);
    cluster = await clusterEnv({
      RATE_LIMIT_MAX: '100000',
      PUBLIC_URL: 'https://console.example.com',
      META_GRAPH_BASE_URL: graph.url,
    });
    [a, b] = await Promise.all([
      startApp(cluster.env, { name: 'A' }),
      startApp(cluster.env, { name: 'B' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await graph?.close();
    await cluster?.cleanup();
  });

  it(`takes each of ${CUSTOMERS} messages in once and sends each reply once, Meta redelivering to both`, async () => {
    const onA = new ApiClient(a.url, cluster.key);
    const workflow = await onA.data('POST', '/workflows', 201, {
      name: 'Shop',
      rules: [{ name: 'Greeting', trigger: 'hello', response: 'Hi there!', enabled: true }],
    });
    const agent = await onA.data('POST', '/agents', 201, {
      workflow_id: workflow.id,
      name: 'Ada',
      description: 'Answers on WhatsApp',
    });
    const channel = await onA.data('POST', `/agents/${agent.id}/channels/whatsapp/connect`, 200, {
      phone_number_id: graph.options.phoneNumberId,
      access_token: graph.options.accessToken,
      app_secret: APP_SECRET,
    });
    const senders = Array.from(
      { length: CUSTOMERS },
      (_, i) => `23480322${String(i).padStart(5, '0')}`,
    );
    // Every notification reaches both instances at once, as a redelivery racing the first.
    const statuses = await Promise.all(
      senders.flatMap((from, i) => {
        const body = whatsappTextNotification({
          phoneNumberId: graph.options.phoneNumberId,
          from,
          text: 'hello',
          id: `wamid.cluster-${i}`,
        });
        return [
          notify(a.url, channel.id, body, APP_SECRET),
          notify(b.url, channel.id, body, APP_SECRET),
        ];
      }),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
    const answered = (to: string) =>
      graph.requestsOf('messages').filter((r) => (r.body as { to: string }).to === to).length;
    await pollUntil(
      async () => senders.filter((from) => answered(from) >= 1).length,
      (count) => count === CUSTOMERS,
      30_000,
      50,
    );
    await sleep(2_000);
    expect(senders.map(answered)).toEqual(senders.map(() => 1));
    const conversations = await onA.listAll<{ id: string }>(`/agents/${agent.id}/conversations`);
    expect(conversations).toHaveLength(CUSTOMERS);
    for (const conversation of conversations) {
      const messages = await onA.listAll<{ message: string }>(
        `/agents/${agent.id}/conversations/${conversation.id}/messages`,
      );
      expect(messages.map((m) => m.message)).toEqual(['hello', 'Hi there!']);
    }
    onA.close();
  }, 90_000);
});
