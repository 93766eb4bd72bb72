import { Column, PrimaryColumn } from 'typeorm';

/** The columns every record a team owns has: its id, its team and its two timestamps. */
export abstract class TeamScopedEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'team_id', type: 'varchar', length: 36 })
  teamId: string;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
