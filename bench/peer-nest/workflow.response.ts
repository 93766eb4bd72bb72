import { Exclude, Expose } from 'class-transformer';
import { Workflow } from './entities';

/** The response DTO, turned into JSON by ClassSerializerInterceptor (class-transformer). */
@Exclude()
export class WorkflowResponse {
  @Expose() id: string;
  @Expose() name: string;
  @Expose() description: string | null;
  @Expose() category: string | null;
  @Expose() visibility: string;
  @Expose() is_owner: boolean;
  @Expose() system_prompt: string | null;
  @Expose() rules: unknown[];
  @Expose() flows: unknown[];
  @Expose() tags: string[];
  @Expose() integrations: unknown[];
  @Expose() channels: unknown[];
  @Expose() actions: unknown[];
  @Expose() guide: unknown;
  @Expose() faq: unknown[];
  @Expose() setup_steps: unknown[];
  @Expose() setup_time: number | null;
  @Expose() video_url: string | null;
  @Expose() prompt_config: Record<string, unknown> | null;
  @Expose() created_at: Date;
  @Expose() updated_at: Date;

  constructor(workflow: Workflow, callerTeamId: string) {
    this.id = workflow.id;
    this.name = workflow.name;
    this.description = workflow.description;
    this.category = workflow.category;
    this.visibility = workflow.visibility;
    this.is_owner = workflow.teamId === callerTeamId;
    this.system_prompt = workflow.systemPrompt;
    this.rules = workflow.rules;
    this.flows = workflow.flows;
    this.tags = workflow.tags;
    this.integrations = workflow.integrations;
    this.channels = workflow.channels;
    this.actions = workflow.actions;
    this.guide = workflow.guide;
    this.faq = workflow.faq;
    this.setup_steps = workflow.setupSteps;
    this.setup_time = workflow.setupTime;
    this.video_url = workflow.videoUrl;
    this.prompt_config = workflow.promptConfig;
    this.created_at = workflow.createdAt;
    this.updated_at = workflow.updatedAt;
  }
}
