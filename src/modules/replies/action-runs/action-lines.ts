import { ActionRunEntity } from './entities/action-run.entity';
import type { MessageAction } from '@/modules/conversations/entities/message.entity';

const RESULT_CHARS = 300;

/** A run's result as short text: a string as it is, anything else as JSON. */
export function resultText(result: unknown, limit = RESULT_CHARS): string {
  const text = typeof result === 'string' ? result : JSON.stringify(result ?? null);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** The one line the conversation shows for a run (a `message_type: 'action'` message). */
export function runLine(run: ActionRunEntity): string {
  switch (run.status) {
    case 'pending_approval':
      return `Action ${run.actionName} is waiting for approval`;
    case 'running':
      return `Action ${run.actionName} is running`;
    case 'succeeded':
      return `Action ${run.actionName} succeeded`;
    case 'failed':
      return `Action ${run.actionName} failed: ${run.error ?? 'unknown error'}`;
    case 'rejected':
      return `Action ${run.actionName} was rejected${run.error && run.error !== 'Rejected' ? `: ${run.error}` : ''}`;
  }
}

export function messageActionOf(run: ActionRunEntity): MessageAction {
  return { run_id: run.id, action_name: run.actionName, status: run.status };
}

/** What a model reads back from a tool call. */
export function toolResultFor(run: ActionRunEntity): string {
  switch (run.status) {
    case 'succeeded':
      return JSON.stringify({ status: 'succeeded', result: run.result ?? null });
    case 'failed':
      return JSON.stringify({ status: 'failed', error: run.error });
    case 'pending_approval':
      return JSON.stringify({ status: 'pending_approval', note: 'A person must approve it first' });
    case 'rejected':
      return JSON.stringify({ status: 'rejected', error: run.error });
    case 'running':
      return JSON.stringify({ status: 'running' });
  }
}

/** What the customer is told about a run when no model words it. */
export function customerLineFor(run: ActionRunEntity): string {
  switch (run.status) {
    case 'succeeded':
      return run.result === null || run.result === undefined || run.result === ''
        ? 'Done.'
        : `Done: ${resultText(run.result)}`;
    case 'failed':
      return "Sorry, I couldn't complete that just now. A member of the team will follow up.";
    case 'rejected':
      return "Sorry, that couldn't be done. A member of the team will follow up if needed.";
    case 'pending_approval':
      return "I've asked a member of the team to approve this; I'll get back to you as soon as they have.";
    case 'running':
      return 'Working on it.';
  }
}
