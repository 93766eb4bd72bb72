import { Injectable } from '@nestjs/common';

/** Told which actions of an agent can no longer run, in the transaction that changed them. */
export type WithdrawalListener = (
  teamId: string,
  agentId: string,
  actionIds: string[],
) => Promise<void>;

/**
 * Where the integrations announce actions they disable or delete, so that what waits on those
 * actions (runs parked for approval) ends with the change. The action runs sit above the
 * integrations (they run their actions), so they listen here rather than being called.
 */
@Injectable()
export class ActionWithdrawals {
  private readonly listeners: WithdrawalListener[] = [];

  listen(listener: WithdrawalListener): void {
    this.listeners.push(listener);
  }

  /** In the caller's transaction: the listeners' writes commit or roll back with the change. */
  async withdrawn(teamId: string, agentId: string, actionIds: string[]): Promise<void> {
    if (actionIds.length === 0) {
      return;
    }
    for (const listener of this.listeners) {
      await listener(teamId, agentId, actionIds);
    }
  }
}
