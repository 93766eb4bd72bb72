import { ConversationWrites } from '@/modules/conversations/conversation-writes';
import { ConversationEntity } from '@/modules/conversations/entities/conversation.entity';
import { createAgent } from '../factories/agents';
import { conversationsPath, repliesSettled, sendAs, sendTo } from '../factories/conversations';
import { API, startTestApp, TestApp } from '../factories/test-app';
import { createWebhook, deliveriesOf, WEBHOOKS } from '../factories/webhooks';
import { createWorkflow } from '../factories/workflows';
import { mailText, SmtpSink } from '../support/smtp-sink';
import { pollUntil, sleep } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

const ESCALATING_WORKFLOW = {
  name: 'Desk',
  rules: [
    {
      name: 'Human',
      trigger: 'talk to a human',
      response: 'Connecting you to a person.',
      action: 'escalate',
      enabled: true,
    },
  ],
};

describe('hand-off mails', () => {
  let t: TestApp;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Console <console@example.test>',
      DASHBOARD_URL: 'https://dashboard.example.test',
      ESCALATION_EMAIL_COOLDOWN_S: '900',
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("mails the agent's escalation address once per conversation within the cooldown", async () => {
    const workflow = await createWorkflow(t, ESCALATING_WORKFLOW);
    const agent = await createAgent(t, {
      workflow_id: workflow.id,
      name: 'Ada',
      escalation_email: 'desk@example.test',
    });
    const first = await sendAs(t, agent.id, 'customer-1', 'My parcel is lost, talk to a human');
    await repliesSettled(t);
    await pollUntil(
      async () => smtp.mails.length,
      (count) => count === 1,
      10_000,
    );
    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail.to).toEqual(['desk@example.test']);
    const text = mailText(mail);
    expect(text).toContain('Subject: Ada: a conversation needs a person');
    expect(text).toContain('> My parcel is lost, talk to a human');
    expect(text).toContain(
      `https://dashboard.example.test/agents/${agent.id}/conversations/${first.conversation_id}`,
    );

    // An operator answers (the flag clears), the customer asks again: a second hand-off within
    // the cooldown sends no second mail.
    await sendTo(t, agent.id, first.conversation_id, 'Looking into it', 'assistant');
    await sendTo(t, agent.id, first.conversation_id, 'Still waiting, talk to a human');
    await repliesSettled(t);
    const conversation = await t
      .api()
      .get(`${conversationsPath(agent.id)}/${first.conversation_id}`)
      .expect(200);
    expect(conversation.body.data.needs_attention).toBe(true);

    // Another conversation of the agent gets its own mail.
    await sendAs(t, agent.id, 'customer-2', 'talk to a human now');
    await repliesSettled(t);
    await pollUntil(
      async () => smtp.mails.length,
      (count) => count === 2,
      10_000,
    );
    await sleep(1_500);
    expect(smtp.mails).toHaveLength(2);
    expect(mailText(smtp.mails[1])).toContain('> talk to a human now');
  });

  it('announces a hand-off set without a message (an approval waiting) by webhook and mail', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      await createWebhook(t, receiver.url, ['conversation.needs_attention']);
      const agent = await createAgent(t, { escalation_email: 'approvals@example.test' });
      // A paused conversation: the message gets no reply, so no hand-off line either.
      const opening = await sendAs(t, agent.id, 'customer-4', 'Hello', { role: 'assistant' });
      await t
        .api()
        .patch(`${conversationsPath(agent.id)}/${opening.conversation_id}/ai-status`)
        .send({ is_ai_chat_paused: true })
        .expect(200);
      const sent = await sendTo(t, agent.id, opening.conversation_id, 'Please refund order 42');
      await repliesSettled(t);
      expect(receiver.received).toEqual([]);
      const conversation = await t
        .dataSource()
        .getRepository(ConversationEntity)
        .findOneByOrFail({ id: sent.conversation_id });
      const before = smtp.mails.length;
      await t.app.get(ConversationWrites).raiseAttention(conversation.teamId, conversation.id);

      const [event] = await receiver.waitFor((all) => all.length === 1);
      expect(event.body.data).toMatchObject({ id: conversation.id, needs_attention: true });
      await pollUntil(
        async () => smtp.mails.length,
        (count) => count === before + 1,
        10_000,
      );
      expect(smtp.mails.at(-1)!.to).toEqual(['approvals@example.test']);
      expect(mailText(smtp.mails.at(-1)!)).toContain('> Please refund order 42');
    } finally {
      await receiver.close();
    }
  });

  it('sends no mail for an agent without an escalation address', async () => {
    const workflow = await createWorkflow(t, ESCALATING_WORKFLOW);
    const agent = await createAgent(t, { workflow_id: workflow.id });
    const before = smtp.mails.length;
    await sendAs(t, agent.id, 'customer-3', 'talk to a human');
    await repliesSettled(t);
    await sleep(1_500);
    expect(smtp.mails).toHaveLength(before);
  });
});

describe('an endpoint that keeps failing', () => {
  it('fails its deliveries after the retry window and is disabled with a reason', async () => {
    const receiver = await WebhookReceiver.start();
    const t = await startTestApp({ WEBHOOK_FIRST_RETRY_S: '1', WEBHOOK_RETRY_MAX_AGE_S: '3' });
    try {
      receiver.always(500);
      const { id } = await createWebhook(t, receiver.url, ['agent.status_changed']);
      await t.api().post(`${WEBHOOKS}/${id}/test`).expect(200);
      const { value } = await pollUntil(
        () => deliveriesOf(t, id),
        (log) => log[0]?.status === 'failed',
        15_000,
      );
      expect(value[0]).toMatchObject({ status: 'failed', last_status_code: 500 });
      expect(value[0].attempts).toBeGreaterThanOrEqual(2);
      expect(value[0].next_attempt_at).toBeNull();
      expect(receiver.received).toHaveLength(value[0].attempts);

      const endpoint = (await t.api().get(`${WEBHOOKS}/${id}`).expect(200)).body.data;
      expect(endpoint.is_enabled).toBe(false);
      expect(endpoint.disabled_reason).toBe(
        'Every delivery failed for 3 s; enable it again once it answers',
      );

      // Disabled: a change the endpoint subscribes to sends nothing.
      const agent = await createAgent(t);
      const received = receiver.received.length;
      await t.api().patch(`${API}/agents/${agent.id}/live-status`).send({ status: 'live' });
      await sleep(1_500);
      expect(receiver.received).toHaveLength(received);

      // Enabled again by the team: the reason goes, deliveries resume.
      receiver.always(200);
      const enabled = await t
        .api()
        .patch(`${WEBHOOKS}/${id}`)
        .send({ is_enabled: true })
        .expect(200);
      expect(enabled.body.data).toMatchObject({ is_enabled: true, disabled_reason: null });
      await t
        .api()
        .patch(`${API}/agents/${agent.id}/live-status`)
        .send({ status: 'paused' })
        .expect(200);
      await receiver.waitFor((all) =>
        all.some((event) => event.body.type === 'agent.status_changed'),
      );
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});
