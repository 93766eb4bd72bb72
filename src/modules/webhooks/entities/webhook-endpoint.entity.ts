import { Column, Entity, Index } from 'typeorm';
import { BooleanColumn, TimeColumn } from '@/database/columns';
import { TeamScopedEntity } from '@/database/team-scoped.entity';
import { WebhookEventType } from '../event-types';

@Entity('webhook_endpoints')
@Index('ix_webhook_endpoints_team_created', ['teamId', 'createdAt'])
export class WebhookEndpointEntity extends TeamScopedEntity {
  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'simple-json' })
  events: WebhookEventType[];

  @Column({ type: 'varchar', length: 2000, nullable: true })
  description: string | null;

  @BooleanColumn('is_enabled', true)
  isEnabled: boolean;

  /** Why the service turned the endpoint off (null when enabled, or disabled by the team). */
  @Column({ name: 'disabled_reason', type: 'varchar', length: 255, nullable: true })
  disabledReason: string | null;

  /** The signing secret (`whsec_…`), sealed with the SecretBox: it must be read back to sign. */
  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed: string;

  /**
   * Since when every attempt has failed (the creation of the first delivery that failed); null
   * after a success.
   */
  @TimeColumn('failing_since', { nullable: true })
  failingSince: Date | null;
}
