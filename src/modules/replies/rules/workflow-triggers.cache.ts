import { Injectable } from '@nestjs/common';
import type { WorkflowEntity } from '@/modules/workflows/entities/workflow.entity';
import { WorkflowTriggers } from './workflow-triggers';

/** Workflows kept compiled, and the matcher states they may hold in all (about 20 bytes each). */
const MAX_WORKFLOWS = 500;
const MAX_STATES = 4_000_000;

/**
 * Compiled triggers per workflow version (its id and `updated_at`), the least recently used
 * dropped first: a workflow is compiled again only after it changed.
 */
@Injectable()
export class WorkflowTriggersCache {
  private readonly entries = new Map<string, { version: number; triggers: WorkflowTriggers }>();
  private states = 0;

  for(workflow: WorkflowEntity): WorkflowTriggers {
    const version = workflow.updatedAt.getTime();
    const cached = this.entries.get(workflow.id);
    if (cached) {
      this.entries.delete(workflow.id);
      if (cached.version === version) {
        this.entries.set(workflow.id, cached);
        return cached.triggers;
      }
      this.states -= cached.triggers.size;
    }
    const triggers = new WorkflowTriggers(workflow);
    this.entries.set(workflow.id, { version, triggers });
    this.states += triggers.size;
    this.evict();
    return triggers;
  }

  /** Down to the bounds, keeping at least the workflow just compiled. */
  private evict(): void {
    for (const [id, { triggers }] of this.entries) {
      if (
        this.entries.size === 1 ||
        (this.entries.size <= MAX_WORKFLOWS && this.states <= MAX_STATES)
      ) {
        return;
      }
      this.entries.delete(id);
      this.states -= triggers.size;
    }
  }
}
