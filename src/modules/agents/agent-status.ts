import { AgentStatus } from './entities/agent.entity';

const ALLOWED: Record<AgentStatus, readonly AgentStatus[]> = {
  development: ['live'],
  live: ['paused', 'development'],
  paused: ['live', 'development'],
};

/** The live-status state machine of docs/api.md §4 (staying in the same state is always allowed). */
export function canTransition(from: AgentStatus, to: AgentStatus): boolean {
  return from === to || ALLOWED[from].includes(to);
}
