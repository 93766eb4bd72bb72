import type { WorkflowFlow } from './entities/workflow.entity';

/** A flow is active unless sent with `is_active: false`. */
export function isActiveFlow(flow: WorkflowFlow): boolean {
  return flow.is_active !== false;
}

/** The phrases of a rule's trigger, a comma-separated list; blank entries are no phrase. */
export function triggerPhrases(trigger: string | null | undefined): string[] {
  return (trigger ?? '')
    .split(',')
    .map((phrase) => phrase.trim())
    .filter((phrase) => phrase !== '');
}
