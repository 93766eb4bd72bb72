import { Injectable } from '@nestjs/common';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { Changes } from '@/database/sql/entity-statements';
import { ListPages, ListTable } from '@/database/sql/list-pages';
import { PhoneNumberRequestListQueryDto } from './dto/phone-number-request-list-query.dto';
import { PhoneNumberRequestEntity } from './entities/phone-number-request.entity';

export const PHONE_NUMBER_REQUEST_LIST: ListTable = {
  from: 'phone_number_requests request',
  columns: 'request.*',
  searchColumns: ['request.business_name', 'request.intended_use'],
  sortColumns: {
    created_at: 'request.created_at',
    updated_at: 'request.updated_at',
  },
  defaultSort: '-created_at',
  tieBreaker: 'request.id',
};

@Injectable()
export class PhoneNumberRequestsRepository {
  private readonly lists: ListPages<PhoneNumberRequestEntity>;

  constructor(private readonly db: Database) {
    this.lists = new ListPages(db, PhoneNumberRequestEntity, PHONE_NUMBER_REQUEST_LIST);
  }

  async list(
    teamId: string,
    query: PhoneNumberRequestListQueryDto,
  ): Promise<Page<PhoneNumberRequestEntity>> {
    const page = await this.lists.page(
      query.status
        ? { where: 'request.team_id = $1 AND request.status = $2', params: [teamId, query.status] }
        : { where: 'request.team_id = $1', params: [teamId] },
      query,
    );
    return Page.from(page, query);
  }

  async insert(request: PhoneNumberRequestEntity): Promise<void> {
    await this.db.insert(PhoneNumberRequestEntity, [request]);
  }

  /** For operators: any team's request, locked for the rest of the transaction. */
  findForDecision(id: string): Promise<PhoneNumberRequestEntity | null> {
    return this.db.findOne(PhoneNumberRequestEntity, { id }, { lock: 'update' });
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
    changes: Changes<PhoneNumberRequestEntity>,
  ): Promise<void> {
    await this.db.update(PhoneNumberRequestEntity, { teamId, id }, changes);
  }
}
