import { IdColumn, PrimaryIdColumn, TimeColumn } from './columns';

/** The columns every record a team owns has: its id, its team and when it was created. */
export abstract class TeamRecordEntity {
  @PrimaryIdColumn()
  id: string;

  @IdColumn('team_id')
  teamId: string;

  @TimeColumn('created_at')
  createdAt: Date;
}

/** A team's record that changes after it is created. */
export abstract class TeamScopedEntity extends TeamRecordEntity {
  @TimeColumn('updated_at')
  updatedAt: Date;
}
