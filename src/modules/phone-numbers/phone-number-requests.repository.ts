import { Injectable } from '@nestjs/common';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '@/common/pagination/paginate';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { PhoneNumberRequestListQueryDto } from './dto/phone-number-request-list-query.dto';
import { PhoneNumberRequestEntity } from './entities/phone-number-request.entity';

const SORT_COLUMNS = {
  created_at: 'request.created_at',
  updated_at: 'request.updated_at',
};

@Injectable()
export class PhoneNumberRequestsRepository {
  constructor(private readonly db: Database) {}

  list(
    teamId: string,
    query: PhoneNumberRequestListQueryDto,
  ): Promise<Page<PhoneNumberRequestEntity>> {
    const builder = this.db.manager
      .createQueryBuilder(PhoneNumberRequestEntity, 'request')
      .where('request.team_id = :teamId', { teamId });
    if (query.status) {
      builder.andWhere('request.status = :status', { status: query.status });
    }
    return paginate(builder, query, {
      searchColumns: ['request.business_name', 'request.intended_use'],
      sortColumns: SORT_COLUMNS,
      defaultSort: '-created_at',
      tieBreaker: 'request.id',
    });
  }

  async insert(request: PhoneNumberRequestEntity): Promise<void> {
    await this.db.write(() => this.db.manager.insert(PhoneNumberRequestEntity, request));
  }

  /** For operators: any team's request, locked for the rest of the transaction. */
  findForDecision(id: string): Promise<PhoneNumberRequestEntity | null> {
    return this.db
      .forUpdate(
        this.db.manager
          .createQueryBuilder(PhoneNumberRequestEntity, 'request')
          .where('request.id = :id', { id }),
      )
      .getOne();
  }

  async countPending(teamId: string): Promise<number> {
    const { rows } = await this.db.execute<{ pending: number | string }>(
      "SELECT COUNT(*) AS pending FROM phone_number_requests WHERE team_id = $1 AND status = 'pending'",
      [teamId],
    );
    return Number(rows[0].pending);
  }

  /**
   * For operators: the requests of every team still waiting, teams taking turns (each team's
   * oldest, then each one's second oldest, …) so that one team's many cannot push another's out
   * of the list.
   */
  listPending(limit: number): Promise<PhoneNumberRequestEntity[]> {
    return this.db.entities(
      PhoneNumberRequestEntity,
      `SELECT * FROM (
         SELECT request.*, ROW_NUMBER() OVER (
           PARTITION BY request.team_id ORDER BY request.created_at, request.id
         ) AS turn
         FROM phone_number_requests request
         WHERE request.status = 'pending'
       ) ranked
       ORDER BY turn, created_at, id
       LIMIT $1`,
      [limit],
    );
  }

  async update(
    teamId: string,
    id: string,
    changes: QueryDeepPartialEntity<PhoneNumberRequestEntity>,
  ): Promise<void> {
    await this.db.write(() =>
      this.db.manager.update(PhoneNumberRequestEntity, { teamId, id }, changes),
    );
  }
}
