import { Column, Entity, Unique } from 'typeorm';
import { PrimaryIdColumn, TimeColumn } from '@/database/columns';

@Entity('teams')
@Unique('uq_teams_name', ['name'])
export class TeamEntity {
  @PrimaryIdColumn()
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @TimeColumn('created_at')
  createdAt: Date;
}
