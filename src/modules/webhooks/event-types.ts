/** The events a team can subscribe an endpoint to (docs/api.md §4b). */
export const WEBHOOK_EVENT_TYPES = [
  'conversation.created',
  'message.created',
  'conversation.needs_attention',
  'agent.status_changed',
  'action_run.pending_approval',
  'action_run.completed',
  'knowledge_base.ready',
  'knowledge_base.failed',
  'conversation.handed_off',
  'conversation.status_changed',
  'conversation.assigned',
  'channel.status_changed',
  'message.delivery_updated',
  'usage.budget_exceeded',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only by POST /webhooks/{id}/test, to that endpoint, whatever it subscribes to. */
export const PING_EVENT = 'ping';

export const EVENT_ID_PREFIX = 'evt_';
