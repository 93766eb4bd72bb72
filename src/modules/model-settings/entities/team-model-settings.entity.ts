import { Column, Entity, ForeignKey, Unique } from 'typeorm';
import { TeamScopedEntity } from '@/database/team-scoped.entity';

/**
 * A team's own model settings (docs/api.md §5b): a provider of its own (`baseUrl`, `apiKey`,
 * `model`, all three or none: none keeps the environment's), the models its workflows may name,
 * and its monthly token budget. The key is sealed with the SecretBox and never returned.
 */
@Entity('team_model_settings')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
@Unique('uq_team_model_settings_team', ['teamId'])
export class TeamModelSettingsEntity extends TeamScopedEntity {
  @Column({ name: 'base_url', type: 'varchar', length: 2048, nullable: true })
  baseUrl: string | null;

  @Column({ name: 'api_key', type: 'text', nullable: true })
  apiKey: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  model: string | null;

  @Column({ name: 'allowed_models', type: 'simple-json', nullable: true })
  allowedModels: string[] | null;

  @Column({ name: 'monthly_token_budget', type: 'integer', nullable: true })
  monthlyTokenBudget: number | null;
}
