import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, TimeColumn } from '@/database/columns';

@Entity('teams')
export class TeamEntity {
  @PrimaryIdColumn()
  id: string;

  @Column({ type: 'varchar', length: 255, unique: true })
  name: string;

  @TimeColumn('created_at')
  createdAt: Date;
}
