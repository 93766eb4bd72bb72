import { ApiClient } from '../../test/support/api-client';
import type { EmbeddedSeed } from '../scenarios/context';
import { progress } from './log';
import { Sizes } from './options';

/** A workflow as a team would write one: a few rules, a flow, an FAQ. */
function workflowBody(index: number): Record<string, unknown> {
  return {
    name: `Support desk ${index}`,
    description: 'Answers questions about orders, delivery and refunds for an online shop.',
    category: 'support',
    tags: ['support', 'orders', 'delivery'],
    system_prompt: 'You are the friendly assistant of {{agent.business_name}}. Keep answers short.',
    rules: [
      { name: 'Greeting', trigger: 'hello, hi', response: 'Hello! How can I help you today?' },
      {
        name: 'Opening hours',
        trigger: 'opening hours, open',
        response: 'We are open from 9am to 6pm, Monday to Saturday.',
      },
      {
        name: 'Refunds',
        trigger: 'refund',
        response: 'Refunds take five working days.',
        action: 'escalate',
      },
    ],
    flows: [
      {
        name: 'Order tracking',
        is_active: true,
        trigger_keywords: [{ keyword: 'order', weight: 'high' }, { keyword: 'tracking' }],
        conversation_steps: [
          { type: 'message', content: 'Please send me your order number.' },
          { type: 'message', content: 'Thank you, I am checking it now.' },
        ],
      },
    ],
    faq: [{ question: 'Do you deliver?', answer: 'Yes, within one day in the city.' }],
  };
}

/** What user messages say in the bench: rules, a flow, knowledge and hand-offs all get used. */
export const USER_MESSAGES = [
  'Hello, are you there?',
  'What are your opening hours on Saturday?',
  'Do you deliver to Lekki within one day?',
  'I would like to speak about something else entirely.',
  'Where is my order?',
];

export async function seedWorkflows(api: ApiClient, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(String((await api.data('POST', '/workflows', 201, workflowBody(i))).id));
  }
  return ids;
}

/** An agent on the workflow, with a small text knowledge base for its replies. */
export async function seedAgent(api: ApiClient, workflowId: string): Promise<string> {
  const agent = await api.data('POST', '/agents', 201, {
    workflow_id: workflowId,
    name: 'Ada',
    description: 'Front desk of the bench shop',
    business_name: 'Bench Foods',
    // The conversations are opened by an assistant message and the load asks on after hand-offs:
    // either would pause the AI (docs/api.md §5, take-over) and stop the replies being measured.
    handoff_pauses_ai: false,
    operator_reply_pauses_ai: false,
  });
  const agentId = String(agent.id);
  await api.data('POST', `/agents/${agentId}/knowledge_bases`, 201, {
    type: 'text',
    name: 'Delivery',
    content:
      'We deliver in Lagos, including Lekki and Ikeja, within one day.\n\n' +
      'Payment is by card or bank transfer; cash on delivery is not available.',
  });
  return agentId;
}

/** Conversations on the web chat, each created by a first message from its own visitor. */
export async function seedConversations(
  api: ApiClient,
  agentId: string,
  count: number,
  label: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const message = await api.data('POST', `/agents/${agentId}/conversations/messages`, 201, {
      message: 'Hello!',
      channel_type: 'webchat',
      channel_user_id: `bench-${label}-${i}`,
      role: 'assistant',
    });
    ids.push(String(message.conversation_id));
  }
  return ids;
}

/** Requests in flight while a long conversation is seeded (its writes queue on the server). */
const LONG_SEED_CONCURRENCY = 4;
/** The longest message the API takes. */
const LONG_MESSAGE_LENGTH = 10_000;

export interface LongConversation {
  conversationId: string;
  firstMessageId: string;
  messages: number;
  messageLength: number;
}

/** One conversation of `messages` operator messages of the longest length the API takes. */
export async function seedLongConversation(
  api: ApiClient,
  agentId: string,
  messages: number,
): Promise<LongConversation> {
  const first = await api.data('POST', `/agents/${agentId}/conversations/messages`, 201, {
    message: 'Hello!',
    channel_type: 'webchat',
    channel_user_id: 'bench-long',
    role: 'assistant',
  });
  const conversationId = String(first.conversation_id);
  const body = { message: 'x'.repeat(LONG_MESSAGE_LENGTH), role: 'assistant' };
  let posted = 1;
  await Promise.all(
    Array.from({ length: LONG_SEED_CONCURRENCY }, async () => {
      while (posted < messages) {
        posted++;
        await api.data(
          'POST',
          `/agents/${agentId}/conversations/${conversationId}/messages`,
          201,
          body,
        );
      }
    }),
  );
  return {
    conversationId,
    firstMessageId: String(first.id),
    messages,
    messageLength: LONG_MESSAGE_LENGTH,
  };
}

/** The exact body a client gets for GET /workflows/{id}: what the floors answer with. */
export async function workflowEnvelope(api: ApiClient, workflowId: string): Promise<string> {
  const res = await api.request('GET', `/workflows/${workflowId}`);
  if (res.status !== 200) {
    throw new Error(`GET /workflows/${workflowId}: ${res.status} ${res.text}`);
  }
  return res.text;
}

const WARMUP_CONVERSATIONS = 10;

/** What the load scenarios work on: workflows, an agent with knowledge, conversations. */
export async function seedLoadData(api: ApiClient, sizes: Sizes): Promise<EmbeddedSeed> {
  progress(`seeding ${sizes.workflows} workflows, an agent and conversations through the API`);
  const workflowIds = await seedWorkflows(api, sizes.workflows);
  const agentId = await seedAgent(api, workflowIds[0]);
  return {
    workflowId: workflowIds[0],
    agentId,
    postConversationIds: await seedConversations(api, agentId, sizes.postConversations, 'load'),
    warmupConversationIds: await seedConversations(api, agentId, WARMUP_CONVERSATIONS, 'warm'),
    fanoutConversationId: (await seedConversations(api, agentId, 1, 'fanout'))[0],
  };
}
