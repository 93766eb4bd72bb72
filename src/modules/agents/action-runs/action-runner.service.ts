import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { newId } from '@/common/ids';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import {
  ActionExecution,
  ActionExecutors,
  ActionParameters,
  ExecutableAction,
} from '@/modules/agents/integrations/action-execution.service';
import { IntegrationsService } from '@/modules/agents/integrations/integrations.service';
import { ActionRunsRepository } from './action-runs.repository';
import { ActionRunEntity } from './entities/action-run.entity';

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

/** The longest an action's call may take (a custom API tool's `timeout` goes up to 300 s). */
const MAX_CALL_MS = 300_000;
/** A run `running` for longer than any call can take: the process that called it is gone. */
const STALE_MARGIN_MS = 10_000;

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
 * after it, with no transaction open meanwhile; a reply produced again (its worker died) finds
 * the runs of its first attempt and reuses them, so nothing is called twice. A run still
 * `running` when no call can still be going on is failed as "interrupted", never repeated.
 */
@Injectable()
export class ActionRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ActionRunner.name);
  private readonly staleMs: number;
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly db: Database,
    private readonly runs: ActionRunsRepository,
    private readonly executors: ActionExecutors,
    private readonly integrations: IntegrationsService,
    config: AppConfig,
  ) {
    this.staleMs = Math.max(config.outbound.timeoutMs, MAX_CALL_MS) + STALE_MARGIN_MS;
  }

  async onApplicationBootstrap(): Promise<void> {
    // Embedded mode has one process: whatever it left running was cut off by its own stop.
    if (this.db.kind === 'sqlite') {
      await this.interrupt(new Date());
      return;
    }
    // In a cluster another instance may be calling a run right now: only runs older than any
    // call are interrupted here. A reply taken over from a dead instance fails its runs at once.
    await this.interrupt(new Date(Date.now() - this.staleMs));
    this.sweeper = setInterval(
      () => void this.interrupt(new Date(Date.now() - this.staleMs)),
      this.staleMs,
    );
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

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
      decidedByApiKeyId: null,
      createdAt: now,
      updatedAt: now,
    };
    earlier.push(run);
    if (target.action.requireHumanApproval) {
      await this.runs.park(run);
      return { ...run, status: 'pending_approval' };
    }
    await this.runs.start(run);
    return this.call(run, target);
  }

  /**
   * Calls a run a person approved (`claimApproval` moved it to `running`). An action that went
   * or was disabled while the run waited is not called.
   */
  async runApproved(run: ActionRunEntity): Promise<ActionRunEntity> {
    const target = await this.integrations.executableAction(run.teamId, run.agentId, run.actionId);
    if (!target || !target.action.isEnabled) {
      await this.runs.complete(run.teamId, run.id, {
        ok: false,
        error: target ? ACTION_DISABLED : ACTION_GONE,
      });
      return (await this.runs.findOwned(run.teamId, run.agentId, run.id))!;
    }
    return this.call(run, target);
  }

  private async call(run: ActionRunEntity, target: ExecutableAction): Promise<ActionRunEntity> {
    const started = Date.now();
    const outcome = await this.db.detached(() => this.execute(target, run.arguments));
    await this.runs.complete(run.teamId, run.id, outcome);
    this.logger.log(
      {
        run_id: run.id,
        action_name: run.actionName,
        ok: outcome.ok,
        duration_ms: Date.now() - started,
      },
      'Action run',
    );
    return outcome.ok
      ? { ...run, status: 'succeeded', result: outcome.result, updatedAt: new Date() }
      : { ...run, status: 'failed', error: outcome.error, updatedAt: new Date() };
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
    if (previous.status !== 'running') {
      return previous;
    }
    // The attempt that started it stopped during the call: whether the other side acted is unknown.
    await this.runs.interruptRunning(new Date(Date.now() + 1), previous.teamId, previous.id);
    return { ...previous, status: 'failed', error: 'interrupted' };
  }

  private async interrupt(before: Date): Promise<void> {
    try {
      const count = await this.runs.interruptRunning(before);
      if (count > 0) {
        this.logger.warn({ count }, 'Action runs interrupted by a stop were marked failed');
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not look for interrupted action runs');
    }
  }
}
