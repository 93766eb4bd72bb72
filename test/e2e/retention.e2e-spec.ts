import { Database } from '@/database/database.service';
import { RetentionSweeper } from '@/database/jobs/retention';
import { AgentChannelEntity } from '@/modules/agents/entities/agent-channel.entity';
import { ChannelInboundSeenEntity } from '@/modules/channels/entities/channel-inbound.entity';
import { TestNumberSeenEntity } from '@/modules/channels/entities/test-number.entity';
import { createAgent } from '../factories/agents';
import { WebhookDeliveryEntity } from '@/modules/webhooks/entities/webhook-delivery.entity';
import { WebhookEventEntity } from '@/modules/webhooks/entities/webhook-event.entity';
import { newDelivery, newEvent } from '@/modules/webhooks/outbox/outbox-rows';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWebhook } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { WebhookReceiver } from '../support/webhook-receiver';

const DAY_MS = 86_400_000;

describe('retention', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let db: Database;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestApp({ RETENTION_DAYS: '2' });
    db = t.app.get(Database);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** An event of `ageDays` with `count` deliveries in `status`, written as the outbox would. */
  async function oldDeliveries(
    teamId: string,
    endpointId: string,
    ageDays: number,
    count: number,
    status: 'succeeded' | 'failed' | 'pending',
  ): Promise<WebhookEventEntity> {
    const at = new Date(Date.now() - ageDays * DAY_MS);
    const event = { ...newEvent(teamId, 'ping', () => '{}', true), createdAt: at, fannedOutAt: at };
    const deliveries = Array.from({ length: count }, () => ({
      ...newDelivery(event, DAY_MS, { kind: 'webhook', endpointId }),
      status,
      // Not due: the app's worker leaves the pending ones alone during the test.
      nextAttemptAt: status === 'pending' ? new Date(Date.now() + DAY_MS) : null,
      createdAt: at,
      updatedAt: at,
    }));
    await db.transaction(async () => {
      await db.insert(WebhookEventEntity, [event]);
      for (let i = 0; i < deliveries.length; i += 200) {
        await db.insert(WebhookDeliveryEntity, deliveries.slice(i, i + 200));
      }
    });
    return event;
  }

  it('deletes finished deliveries and their events after RETENTION_DAYS, in batches, keeping the rest', async () => {
    const team = await t.createKey('retention', ['*']);
    const hook = await createWebhook(t, receiver.url, ['message.created'], team.key);
    const old = await oldDeliveries(team.teamId, hook.id, 3, 1_200, 'succeeded');
    const oldFailed = await oldDeliveries(team.teamId, hook.id, 3, 1, 'failed');
    const recent = await oldDeliveries(team.teamId, hook.id, 1, 2, 'succeeded');
    const stillRetrying = await oldDeliveries(team.teamId, hook.id, 3, 1, 'pending');
    await db.execute('DELETE FROM periodic_tasks');

    expect(await t.app.get(RetentionSweeper).sweep()).toBe(true);

    const left = async (event: WebhookEventEntity) => ({
      event: await db.count(WebhookEventEntity, { id: event.id }),
      deliveries: await db.count(WebhookDeliveryEntity, { eventId: event.id }),
    });
    expect(await left(old)).toEqual({ event: 0, deliveries: 0 });
    expect(await left(oldFailed)).toEqual({ event: 0, deliveries: 0 });
    expect(await left(recent)).toEqual({ event: 1, deliveries: 2 });
    expect(await left(stillRetrying)).toEqual({ event: 1, deliveries: 1 });
  });

  it('forgets the provider message ids taken in once no provider may redeliver them', async () => {
    const workflow = await createWorkflow(t, { name: 'Shop' });
    const agent = await createAgent(t, { workflow_id: workflow.id, name: 'Ada' });
    await t
      .api()
      .post(`${API}/agents/${agent.id}/channels/webchat/connect`)
      .send({ allowed_origins: ['https://shop.example'] })
      .expect(200);
    const channel = await db.findOne(AgentChannelEntity, { agentId: agent.id });
    const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
    // RETENTION_DAYS is 2 here, but Meta may send a notification again for 7 days.
    const ages = { 'wamid.old': 8, 'wamid.redeliverable': 5, 'wamid.recent': 1 };
    for (const [providerMessageId, age] of Object.entries(ages)) {
      await db.insert(ChannelInboundSeenEntity, [
        { channelId: channel!.id, providerMessageId, createdAt: daysAgo(age) },
      ]);
      await db.insert(TestNumberSeenEntity, [{ providerMessageId, createdAt: daysAgo(age) }]);
    }
    await db.execute('DELETE FROM periodic_tasks');

    expect(await t.app.get(RetentionSweeper).sweep()).toBe(true);

    const kept = async (table: string) =>
      (
        await db.execute<{ provider_message_id: string }>(
          `SELECT provider_message_id FROM ${table}`,
        )
      ).rows
        .map((row) => row.provider_message_id)
        .sort();
    expect(await kept('channel_inbound_seen')).toEqual(['wamid.recent', 'wamid.redeliverable']);
    expect(await kept('test_number_inbound_seen')).toEqual(['wamid.recent', 'wamid.redeliverable']);
  });

  it('runs on one instance at a time, and not again before its hour', async () => {
    await db.execute('DELETE FROM periodic_tasks');
    const sweeper = t.app.get(RetentionSweeper);
    const runs = await Promise.all([sweeper.sweep(), sweeper.sweep(), sweeper.sweep()]);
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(await sweeper.sweep()).toBe(false);
  });
});
