import type { AgentEntity } from '@/modules/agents/entities/agent.entity';
import type { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import type { MessageEntity } from '@/modules/conversations/entities/message.entity';
import { historyFor, instructionsFor } from './model-prompt';

const agent = {
  name: 'Ada',
  description: 'Front desk',
  businessName: 'Ada Foods',
  businessAddress: '1 Marina, Lagos',
  businessEmail: null,
  businessDescription: null,
  persona: 'friendly',
  language: 'French',
  timezone: 'Africa/Lagos',
} as AgentEntity;

const workflow = {
  systemPrompt: 'You are {{agent.name}} of {{agent.business_name}}; order {{order_id}}.',
  rules: [
    { trigger: 'human', response: null, action: 'escalate', enabled: true },
    {
      trigger: 'refund',
      response: '{{business.name}} refunds order {{order_id}} in 5 days.',
      action: 'refund_order',
      enabled: true,
    },
    { trigger: 'off', response: 'Disabled answer', action: null, enabled: false },
  ],
} as unknown as WorkflowEntity;

describe('model instructions', () => {
  it('carry the prompt with placeholders filled, persona, language, business, local time and rules', () => {
    const text = instructionsFor(
      agent,
      workflow,
      [{ text: 'We deliver in one day.', score: 1, source: 'kb' }],
      { order_id: 'A1' },
      new Date('2026-11-23T12:00:00Z'),
    );

    expect(text).toContain('You are Ada of Ada Foods; order A1.');
    expect(text).toContain('Be warm and friendly. Answer in this language: French.');
    expect(text).toContain('Address: 1 Marina, Lagos');
    expect(text).toContain('13:00 (Africa/Lagos)');
    expect(text).toContain('- When the customer mentions human, respond and hand the conversation');
    expect(text).toContain(
      'answer: Ada Foods refunds order A1 in 5 days. and use the tool for "refund_order"',
    );
    expect(text).not.toContain('Disabled answer');
    expect(text).toContain('- order_id: A1');
    expect(text).toContain('- We deliver in one day.');
  });

  it('fall back to UTC for a time zone the runtime does not know', () => {
    const text = instructionsFor({ ...agent, timezone: 'Mars/Olympus' }, null, [], {});
    expect(text).toContain('(UTC)');
  });
});

describe('model history', () => {
  const message = (role: 'user' | 'assistant', text: string, type: 'text' | 'action' = 'text') =>
    ({ role, message: text, messageType: type }) as MessageEntity;

  it('keeps the newest messages within the bound, oldest first, actions in brackets', () => {
    const long = 'x'.repeat(2_000);
    const history = [
      ...Array.from({ length: 10 }, () => message('user', long)),
      message('assistant', 'Action order_status succeeded', 'action'),
      message('user', 'thanks'),
    ];

    const kept = historyFor(history);

    expect(kept.length).toBeLessThan(history.length);
    expect(kept.slice(-2)).toEqual([
      { role: 'assistant', content: '[Action order_status succeeded]' },
      { role: 'user', content: 'thanks' },
    ]);
    expect(
      kept.reduce((sum, entry) => sum + (entry.content as string).length, 0),
    ).toBeLessThanOrEqual(12_000 + 2);
  });
});
