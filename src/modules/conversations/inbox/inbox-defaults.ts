import { ConversationEntity } from '../entities/conversation.entity';

/** The inbox fields of a new conversation: open, unassigned, unlabelled, never handed off. */
export function inboxDefaults(): Pick<
  ConversationEntity,
  | 'status'
  | 'snoozedUntil'
  | 'assigneeId'
  | 'assigneeName'
  | 'labels'
  | 'priority'
  | 'handoffReason'
  | 'handoffSource'
  | 'handoffAt'
  | 'snoozeLeaseUntil'
  | 'snoozeLeaseToken'
  | 'pauseAnnounced'
> {
  return {
    status: 'open',
    snoozedUntil: null,
    assigneeId: null,
    assigneeName: null,
    labels: [],
    priority: 'normal',
    handoffReason: null,
    handoffSource: null,
    handoffAt: null,
    snoozeLeaseUntil: null,
    snoozeLeaseToken: null,
    pauseAnnounced: false,
  };
}
