import { ActionRunEntity } from './entities/action-run.entity';
import type { MessageAction } from '@/modules/conversations/entities/message.entity';

/**
 * A run's error as the conversation may show it: its start before any JSON (an API's quoted
 * answer), since the customer sees action lines too; the run keeps the whole error for the team.
 */
function lineError(error: string | null): string {
  const plain = (error ?? '').split('{')[0].replace(/[\s:]+$/, '');
  return plain || 'unknown error';
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
      return `Action ${run.actionName} failed: ${lineError(run.error)}`;
    case 'rejected':
      return `Action ${run.actionName} was rejected${run.error && run.error !== 'Rejected' ? `: ${lineError(run.error)}` : ''}`;
  }
}

export function messageActionOf(run: ActionRunEntity): MessageAction {
  return { run_id: run.id, action_name: run.actionName, status: run.status };
}

/** What a model reads back from a tool call: the result, and the text the customer would read. */
export function toolResultFor(run: ActionRunEntity): string {
  const message = run.customerText ? { message: run.customerText } : {};
  switch (run.status) {
    case 'succeeded':
      return JSON.stringify({ status: 'succeeded', result: run.result ?? null, ...message });
    case 'failed':
      return JSON.stringify({ status: 'failed', error: run.error, ...message });
    case 'pending_approval':
      return JSON.stringify({ status: 'pending_approval', note: 'A person must approve it first' });
    case 'rejected':
      return JSON.stringify({ status: 'rejected', error: run.error });
    case 'running':
      return JSON.stringify({ status: 'running' });
  }
}

/** `check_order_status` as the customer reads it: "Check order status". */
function actionTitle(actionName: string): string {
  const words = actionName.replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();
  return words ? `${words[0].toUpperCase()}${words.slice(1)}` : 'That';
}

/**
 * What the customer is told about a run when no model words it: its action's own text when it
 * has one, else a sentence naming the action and its outcome. Never the raw result.
 */
export function customerLineFor(run: ActionRunEntity): string {
  const title = actionTitle(run.actionName);
  switch (run.status) {
    case 'succeeded':
      return run.customerText ?? `Done: ${title}.`;
    case 'failed':
      return (
        run.customerText ??
        `Sorry, I could not complete "${title}" just now. A member of the team will follow up.`
      );
    case 'rejected':
      return `Sorry, "${title}" could not go ahead. A member of the team will follow up if needed.`;
    case 'pending_approval':
      return "I've asked a member of the team to approve this; I'll get back to you as soon as they have.";
    case 'running':
      return 'Working on it.';
  }
}
