import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { TeamScopedEntity } from '@/database/team-scoped.entity';
import type { StepValidation } from '../step-validation';

export type { StepValidation };

export type WorkflowVisibility = 'private' | 'public';

export interface WorkflowRule {
  id: string;
  name: string | null;
  trigger: string | null;
  condition: string | null;
  response: string | null;
  action: string | null;
  enabled: boolean;
}

// Flows and the guide are the client's own objects: optional fields are kept only when sent.
export interface FlowTriggerKeyword {
  keyword: string;
  weight?: 'high' | 'medium' | 'low' | null;
}

export interface FlowStep {
  type: string;
  content?: string | null;
  action?: string | null;
  followup?: string | null;
  /** For a `collect` step: the name the customer's answer is kept under. */
  key?: string | null;
  /** For a `collect` step: what the answer must be (docs/api.md §5b). */
  validate?: StepValidation | null;
}

export interface WorkflowFlow {
  name: string;
  description?: string | null;
  category?: string | null;
  priority?: number | null;
  /** Active unless sent as false. */
  is_active?: boolean;
  trigger_keywords: FlowTriggerKeyword[];
  conversation_steps: FlowStep[];
}

export interface WorkflowGuide {
  youtubeUrl?: string | null;
  steps: string[];
}

export interface WorkflowFaq {
  question: string;
  answer: string;
}

export type JsonObject = Record<string, unknown>;
export type WorkflowListItem = string | JsonObject;

@Entity('workflows')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Index('ix_workflows_team_created', ['teamId', 'createdAt'])
@Index('ix_workflows_visibility_created', ['visibility', 'createdAt'])
export class WorkflowEntity extends TeamScopedEntity {
  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  category: string | null;

  @Column({ type: 'varchar', length: 16 })
  visibility: WorkflowVisibility;

  @Column({ name: 'system_prompt', type: 'text', nullable: true })
  systemPrompt: string | null;

  @Column({ type: 'simple-json' })
  rules: WorkflowRule[];

  @Column({ type: 'simple-json' })
  flows: WorkflowFlow[];

  @Column({ type: 'simple-json' })
  tags: string[];

  @Column({ type: 'simple-json' })
  integrations: WorkflowListItem[];

  @Column({ type: 'simple-json' })
  channels: WorkflowListItem[];

  @Column({ type: 'simple-json' })
  actions: WorkflowListItem[];

  @Column({ type: 'simple-json', nullable: true })
  guide: WorkflowGuide | null;

  @Column({ type: 'simple-json' })
  faq: WorkflowFaq[];

  @Column({ name: 'setup_steps', type: 'simple-json' })
  setupSteps: WorkflowListItem[];

  /** Minutes. */
  @Column({ name: 'setup_time', type: 'integer', nullable: true })
  setupTime: number | null;

  @Column({ name: 'video_url', type: 'varchar', length: 2048, nullable: true })
  videoUrl: string | null;

  @Column({ name: 'prompt_config', type: 'simple-json', nullable: true })
  promptConfig: JsonObject | null;
}
