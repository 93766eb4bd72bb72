import { API, TestApp } from './test-app';

export const FULL_WORKFLOW = {
  name: 'Support desk',
  description: 'Answers support questions',
  category: 'support',
  visibility: 'private',
  system_prompt: 'You are a helpful support agent for {{agent.business_name}}.',
  rules: [
    {
      name: 'Greeting',
      trigger: 'hello, hi',
      condition: 'always',
      response: 'Hello from {{agent.name}}!',
      action: 'reply',
      enabled: true,
    },
    {
      id: 'rule-fixed',
      name: 'Escalate',
      trigger: 'human',
      response: 'Connecting you',
      action: 'escalate',
      enabled: false,
    },
  ],
  flows: [
    {
      name: 'Refunds',
      description: 'Refund questions',
      category: 'billing',
      priority: 2,
      is_active: true,
      trigger_keywords: [{ keyword: 'refund', weight: 'high' }, { keyword: 'money back' }],
      conversation_steps: [
        { type: 'message', content: 'Sorry to hear that. What is your order number?' },
        {
          type: 'message',
          content: 'Thanks, a refund is on its way.',
          action: 'refund',
          followup: 'Anything else?',
        },
      ],
    },
  ],
  tags: ['support', 'faq'],
  integrations: ['stripe'],
  channels: ['webchat', { type: 'whatsapp' }],
  actions: [{ name: 'create_payment_link' }],
  guide: { youtubeUrl: 'https://youtube.com/watch?v=1', steps: ['Create', 'Test'] },
  faq: [{ question: 'Hours?', answer: '9 to 5' }],
  setup_steps: ['Connect Stripe'],
  setup_time: 10,
  video_url: 'https://example.com/video',
  prompt_config: { temperature: 0.2, nested: { list: [1, 2] } },
};

export async function createWorkflow(
  t: TestApp,
  body: Record<string, unknown> = { name: 'Workflow' },
  key = t.key,
): Promise<Record<string, any>> {
  const res = await t.api(key).post(`${API}/workflows`).send(body).expect(201);
  return res.body.data;
}
