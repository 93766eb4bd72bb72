import { newId } from '@/common/ids';
import { definedFields } from '@/common/validation/defined-fields';
import { WorkflowCreateDto } from './dto/workflow-create.dto';
import { FlowDto, GuideDto, RuleDto } from './dto/workflow-parts.dto';
import {
  WorkflowEntity,
  WorkflowFlow,
  WorkflowGuide,
  WorkflowRule,
} from './entities/workflow.entity';

type WorkflowInput = Partial<WorkflowCreateDto>;

function toRule(rule: RuleDto): WorkflowRule {
  return {
    id: rule.id ?? newId(),
    name: rule.name ?? null,
    trigger: rule.trigger ?? null,
    condition: rule.condition ?? null,
    response: rule.response ?? null,
    action: rule.action ?? null,
    enabled: rule.enabled ?? true,
  };
}

/** The fields of `source` named in `keys` that were sent, and no others. */
function sentFields<T extends object, K extends keyof T>(
  source: T,
  keys: K[],
): Partial<Pick<T, K>> {
  return Object.fromEntries(
    keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]),
  ) as Partial<Pick<T, K>>;
}

function toFlow(flow: FlowDto): WorkflowFlow {
  return {
    name: flow.name,
    ...sentFields(flow, ['description', 'category', 'priority', 'is_active']),
    trigger_keywords: (flow.trigger_keywords ?? []).map((keyword) => ({
      keyword: keyword.keyword,
      ...sentFields(keyword, ['weight']),
    })),
    conversation_steps: (flow.conversation_steps ?? []).map((step) => ({
      type: step.type,
      ...sentFields(step, ['content', 'action', 'followup', 'key', 'validate']),
    })),
  };
}

function toGuide(guide: GuideDto): WorkflowGuide {
  return { ...sentFields(guide, ['youtubeUrl']), steps: guide.steps };
}

/** The entity columns for the fields present in `input`; absent fields are left out. */
export function workflowChanges(input: WorkflowInput): Partial<WorkflowEntity> {
  return definedFields<WorkflowEntity>({
    name: input.name,
    description: input.description,
    category: input.category,
    visibility: input.visibility,
    systemPrompt: input.system_prompt,
    rules: input.rules?.map(toRule),
    flows: input.flows?.map(toFlow),
    tags: input.tags,
    integrations: input.integrations,
    channels: input.channels,
    actions: input.actions,
    guide: input.guide && toGuide(input.guide),
    faq: input.faq?.map(({ question, answer }) => ({ question, answer })),
    setupSteps: input.setup_steps,
    setupTime: input.setup_time,
    videoUrl: input.video_url,
    promptConfig: input.prompt_config,
  });
}

export function newWorkflow(
  teamId: string,
  input: WorkflowCreateDto,
  now = new Date(),
): WorkflowEntity {
  return {
    id: newId(),
    teamId,
    name: input.name,
    description: null,
    category: null,
    visibility: 'private',
    systemPrompt: null,
    rules: [],
    flows: [],
    tags: [],
    integrations: [],
    channels: [],
    actions: [],
    guide: null,
    faq: [],
    setupSteps: [],
    setupTime: null,
    videoUrl: null,
    promptConfig: null,
    ...workflowChanges(input),
    createdAt: now,
    updatedAt: now,
  };
}
