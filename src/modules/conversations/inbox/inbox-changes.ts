import { Errors } from '@/common/http/api-error';
import { ConversationUpdateDto } from '../dto/conversation-update.dto';
import { ConversationEntity } from '../entities/conversation.entity';

export type InboxChanges = Partial<
  Pick<
    ConversationEntity,
    | 'status'
    | 'snoozedUntil'
    | 'assigneeId'
    | 'assigneeName'
    | 'labels'
    | 'priority'
    | 'needsAttention'
    | 'isAiChatPaused'
    | 'snoozeLeaseUntil'
    | 'snoozeLeaseToken'
    | 'pauseAnnounced'
  >
>;

/** What the snooze fields of `input` change; errors are pushed onto `errors`. */
function snoozeChanges(
  current: ConversationEntity,
  input: ConversationUpdateDto,
  now: Date,
  errors: string[],
): InboxChanges {
  const status = input.status ?? current.status;
  if (status !== 'snoozed') {
    if (input.snoozed_until) {
      errors.push('snoozed_until: is only allowed when status is snoozed');
    }
    return current.snoozedUntil ? { snoozedUntil: null } : {};
  }
  if (input.status !== 'snoozed' && input.snoozed_until === undefined) {
    return {};
  }
  const until = input.snoozed_until ? new Date(input.snoozed_until) : null;
  if (!until || until.getTime() <= now.getTime()) {
    errors.push('snoozed_until: must be a time in the future when status is snoozed');
    return {};
  }
  return { snoozedUntil: until };
}

/**
 * The changes a PATCH makes to the conversation, only those that differ from what it holds;
 * 400 when a rule is broken. Resolving also clears `needs_attention` and resumes the AI. A change
 * of status or snooze voids any claim on the snooze's end, so a late snooze job cannot reopen it.
 */
export function inboxChanges(
  current: ConversationEntity,
  input: ConversationUpdateDto,
  now: Date,
): InboxChanges {
  const errors: string[] = [];
  const changes: InboxChanges = snoozeChanges(current, input, now, errors);
  if (errors.length > 0) {
    throw Errors.validation(errors);
  }
  if (input.status !== undefined && input.status !== current.status) {
    changes.status = input.status;
  }
  if (input.status === 'resolved') {
    Object.assign(changes, { needsAttention: false, isAiChatPaused: false, pauseAnnounced: false });
  }
  if (changes.status !== undefined || changes.snoozedUntil !== undefined) {
    Object.assign(changes, { snoozeLeaseUntil: null, snoozeLeaseToken: null });
  }
  if (input.assignee !== undefined) {
    const id = input.assignee?.id ?? null;
    const name = id === null ? null : (input.assignee?.name ?? null);
    if (id !== current.assigneeId || name !== current.assigneeName) {
      Object.assign(changes, { assigneeId: id, assigneeName: name });
    }
  }
  if (input.labels !== undefined) {
    const labels = [...new Set(input.labels)];
    if (JSON.stringify(labels) !== JSON.stringify(current.labels)) {
      changes.labels = labels;
    }
  }
  if (input.priority !== undefined && input.priority !== current.priority) {
    changes.priority = input.priority;
  }
  return changes;
}
