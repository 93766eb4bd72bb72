import { ApiClient } from '../support/api-client';
import { WEBCHAT, WIDGET_API } from './resources';

/** The origin the seeded web chats allow, and the one the widget requests mostly send. */
export const FUZZ_ORIGIN = 'https://fuzz.example';

/** Connects an agent's web chat for the fuzz origin: its publishable key and allowed origin. */
export async function connectWebchat(
  api: ApiClient,
  agentId: string,
): Promise<{ key: string; origin: string }> {
  const channel = await api.data('POST', `/agents/${agentId}/channels/webchat/connect`, 200, {
    allowed_origins: [FUZZ_ORIGIN],
    title: 'Fuzz shop',
    greeting: 'Hello! Ask me anything.',
  });
  return { key: String(channel.publishable_key), origin: FUZZ_ORIGIN };
}

/** One call of the widget API as the page of an allowed origin makes it. */
async function widgetCall(
  api: ApiClient,
  chat: { key: string; origin: string },
  path: string,
  body: unknown,
): Promise<any> {
  const res = await fetch(`${api.baseUrl}${WIDGET_API}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${chat.key}`,
      Origin: chat.origin,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) {
    throw new Error(`POST ${WIDGET_API}${path} answered ${res.status}: ${text}`);
  }
  return JSON.parse(text).data;
}

/**
 * The agent's web chat, connected, with a visitor whose first message made its conversation: the
 * widget routes see a real key, origin and visitor token, and a stream ticket can be issued.
 */
export async function seedWebchat(
  api: ApiClient,
  agentId: string,
): Promise<[string, Record<string, string>]> {
  const chat = await connectWebchat(api, agentId);
  const session = await widgetCall(api, chat, '/sessions', {});
  const visitorToken = String(session.visitor_token);
  await widgetCall(api, chat, '/messages', {
    visitor_token: visitorToken,
    message: 'Hello from the web chat, where is my order?',
  });
  return [WEBCHAT, { agentId, ...chat, visitorToken }];
}
