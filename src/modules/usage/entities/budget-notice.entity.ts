import { Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { TimeColumn } from '@/database/columns';

/**
 * A month (UTC, `YYYY-MM`) in which the team's token budget was crossed and said so: its key lets
 * one instance only emit `usage.budget_exceeded` for it.
 */
@Entity('budget_notices')
@ForeignKey('teams', ['teamId'], ['id'], { onDelete: 'CASCADE' })
export class BudgetNoticeEntity {
  @PrimaryColumn({ name: 'team_id', type: 'varchar', length: 36 })
  teamId: string;

  @PrimaryColumn({ type: 'varchar', length: 7 })
  month: string;

  @TimeColumn('created_at')
  createdAt: Date;
}
