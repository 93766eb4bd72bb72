import type { FlowStep, WorkflowFlow } from '@/modules/workflows/entities/workflow.entity';

const ANSWER_CHARS = 1_000;

/** A step that does something: says its content, asks (`collect`), or runs its action. */
export function isActiveStep(step: FlowStep): boolean {
  return (
    ((step.type === 'message' || step.type === 'collect') && Boolean(step.content?.trim())) ||
    Boolean(step.action?.trim())
  );
}

export function nextStep(flow: WorkflowFlow, after: number): number {
  return flow.conversation_steps.findIndex((step, index) => index > after && isActiveStep(step));
}

/** Where a `collect` step keeps the customer's answer. */
export function collectKey(step: FlowStep, index: number): string {
  return step.key?.trim() || `step_${index + 1}`;
}

export function collectedAnswer(text: string): string {
  return text.trim().slice(0, ANSWER_CHARS);
}
