import { Injectable, Logger } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Database } from '@/database/database.service';
import {
  ActionExecution,
  ActionExecutors,
  ActionParameters,
  ExecutableAction,
} from '@/modules/integrations/integrations.public';
import { IntegrationsService } from '@/modules/integrations/integrations.service';
import { ActionRunsRepository } from './action-runs.repository';
import { ActionRunEntity } from './entities/action-run.entity';
import { whileLeased } from './run-lease';
import { RunStates } from './run-states';

/** Where a run comes from: the reply to one customer message. */
export interface RunOrigin {
  teamId: string;
  agentId: string;
  conversationId: string;
  messageId: string;
}

/** Why an approved run was not called: its action went, or was disabled, while it waited. */
export const ACTION_GONE = 'The action no longer exists';
export const ACTION_DISABLED = 'action disabled';

function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(',')}]`;
  }
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Runs an agent's actions for its replies. The run row is written before the call and updated
 * after it, with no transaction open meanwhile and the run's lease renewed during the call; a
 * reply produced again (its worker died) finds the runs of its first attempt and reuses them, so
 * nothing is called twice. A run still `running` whose caller is gone is failed as
 * "interrupted" (here, or by the RunSweeper once its lease runs out), never repeated.
 */
@Injectable()
export class ActionRunner {
  private readonly logger = new Logger(ActionRunner.name);

  constructor(
    private readonly db: Database,
    private readonly runs: ActionRunsRepository,
    private readonly states: RunStates,
    private readonly executors: ActionExecutors,
    private readonly integrations: IntegrationsService,
  ) {}

  actions(teamId: string, agentId: string): Promise<ExecutableAction[]> {
    return this.integrations.executableActions(teamId, agentId);
  }

  parametersOf(target: ExecutableAction): ActionParameters {
    return this.executors.parametersOf(target);
  }

  find(teamId: string, agentId: string, id: string): Promise<ActionRunEntity | null> {
    return this.runs.findOwned(teamId, agentId, id);
  }

  /** The runs an earlier attempt at this reply made. */
  earlierRuns(origin: RunOrigin): Promise<ActionRunEntity[]> {
    return this.runs.forMessage(origin.teamId, origin.messageId);
  }

  /**
   * Runs `target` with `args` (or parks it for approval), unless `earlier` holds the same run
   * from a previous attempt at this reply: that one is returned as it stands.
   */
  async run(
    target: ExecutableAction,
    args: Record<string, unknown>,
    origin: RunOrigin,
    earlier: ActionRunEntity[] = [],
  ): Promise<ActionRunEntity> {
    const key = canonical(args);
    const previous = earlier.find(
      (run) => run.actionId === target.action.id && canonical(run.arguments) === key,
    );
    if (previous) {
      return this.settledPrevious(previous);
    }
    const now = new Date();
    const run: ActionRunEntity = {
      id: newId(),
      teamId: origin.teamId,
      agentId: origin.agentId,
      conversationId: origin.conversationId,
      messageId: origin.messageId,
      actionId: target.action.id,
      actionName: target.action.actionName,
      arguments: args,
      status: 'running',
      result: null,
      error: null,
      customerText: null,
      decidedByApiKeyId: null,
      createdAt: now,
      updatedAt: now,
      leaseUntil: null,
      leaseToken: null,
    };
    earlier.push(run);
    if (target.action.requireHumanApproval) {
      return this.states.park(run);
    }
    const token = await this.states.start(run);
    const outcome = await this.call(run, token, target);
    if (!(await this.states.complete(run, token, outcome))) {
      return this.stored(run);
    }
    const customerText = outcome.customerText ?? null;
    return outcome.ok
      ? { ...run, status: 'succeeded', result: outcome.result, customerText, updatedAt: new Date() }
      : { ...run, status: 'failed', error: outcome.error, customerText, updatedAt: new Date() };
  }

  /**
   * Calls a run a person approved (`claimApproval` moved it to `running`, held by `token`) and
   * says what came of it; settling it, with the follow-up the customer is owed, is the caller's.
   * An action that went or was disabled while the run waited is not called.
   */
  async callApproved(run: ActionRunEntity, token: string): Promise<ActionExecution> {
    const target = await this.integrations.executableAction(run.teamId, run.agentId, run.actionId);
    if (!target) {
      return { ok: false, error: ACTION_GONE };
    }
    if (!target.action.isEnabled) {
      return { ok: false, error: ACTION_DISABLED };
    }
    return this.call(run, token, target);
  }

  /** The run as stored: another settled it (its lease had run out) while this one called. */
  async stored(run: ActionRunEntity): Promise<ActionRunEntity> {
    this.logger.warn({ run_id: run.id }, 'An action run was settled by another while it ran');
    return (await this.runs.findOwned(run.teamId, run.agentId, run.id)) ?? run;
  }

  private async call(
    run: ActionRunEntity,
    token: string,
    target: ExecutableAction,
  ): Promise<ActionExecution> {
    const started = Date.now();
    const outcome = await this.db.detached(() =>
      whileLeased(
        () => this.states.renew(run.id, token),
        () => this.execute(target, run.arguments),
        this.logger,
      ),
    );
    this.logger.log(
      {
        run_id: run.id,
        action_name: run.actionName,
        ok: outcome.ok,
        duration_ms: Date.now() - started,
      },
      'Action run',
    );
    return outcome;
  }

  private async execute(
    target: ExecutableAction,
    args: Record<string, unknown>,
  ): Promise<ActionExecution> {
    try {
      return await this.executors.execute(target, args);
    } catch (error) {
      this.logger.warn({ err: error, action_id: target.action.id }, 'Action executor threw');
      return { ok: false, error: 'The action failed unexpectedly' };
    }
  }

  private async settledPrevious(previous: ActionRunEntity): Promise<ActionRunEntity> {
    // An approved run is its approver's to settle (or the sweeper's, with the follow-up it owes).
    if (previous.status !== 'running' || previous.decidedByApiKeyId) {
      return previous;
    }
    // The attempt that started it stopped during the call: whether the other side acted is unknown.
    return (
      (await this.states.interruptAbandoned(previous)) ??
      (await this.runs.findOwned(previous.teamId, previous.agentId, previous.id)) ??
      previous
    );
  }
}
