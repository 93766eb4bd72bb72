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

  /** For operators: the requests of every team still waiting, oldest first. */
  listPending(limit: number): Promise<PhoneNumberRequestEntity[]> {
    return this.db.manager
      .createQueryBuilder(PhoneNumberRequestEntity, 'request')
      .where("request.status = 'pending'")
      .orderBy('request.created_at', 'ASC')
      .addOrderBy('request.id', 'ASC')
      .limit(limit)
      .getMany();
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
