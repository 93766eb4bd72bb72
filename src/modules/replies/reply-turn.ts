import { ExecutableAction } from '@/modules/integrations/integrations.public';
import { customerLineFor } from './action-runs/action-lines';
import { ActionRunEntity } from './action-runs/entities/action-run.entity';
import type { RunLog } from './model/model-replier';
import type { Reply, ReplyContext } from './reply-engine';

/** What one reply works with: its runs, the agent's actions (read once), the collected answers. */
export interface Turn {
  context: ReplyContext;
  log: RunLog;
  collected: Record<string, string>;
  collectedChanged: boolean;
  actions(): Promise<ExecutableAction[]>;
}

export function findAction(
  actions: ExecutableAction[],
  name: string,
): ExecutableAction | undefined {
  const wanted = name.trim().toLowerCase();
  return (
    actions.find((target) => target.action.actionName.toLowerCase() === wanted) ??
    actions.find((target) => target.action.name.toLowerCase() === wanted)
  );
}

/** The customer's line after a run: `text` when it went well, else what happened, honestly. */
export function afterRun(run: ActionRunEntity, text: string | null | undefined): string {
  return run.status === 'succeeded' && text?.trim() ? text : customerLineFor(run);
}

/** What the stages of a reply share: running an action, finishing a reply, asking the model. */
export interface TurnTools {
  run(turn: Turn, name: string): Promise<ActionRunEntity | null>;
  finish(turn: Turn, reply: Reply): Reply;
  fromModel(turn: Turn, extra: Pick<Reply, 'flowState'>, note?: string): Promise<Reply | null>;
}
