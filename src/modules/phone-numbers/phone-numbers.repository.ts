import { Injectable } from '@nestjs/common';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate } from '@/common/pagination/paginate';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { PhoneNumberListQueryDto } from './dto/phone-number-list-query.dto';
import { PhoneNumberEntity } from './entities/phone-number.entity';

const SORT_COLUMNS = {
  created_at: 'number.created_at',
  e164: 'number.e164',
  // Unlabelled numbers sort as the empty label on both databases (their NULL orders differ).
  label: "COALESCE(number.label, '')",
};

@Injectable()
export class PhoneNumbersRepository {
  constructor(private readonly db: Database) {}

  findOwned(teamId: string, id: string): Promise<PhoneNumberEntity | null> {
    return this.db.manager.findOneBy(PhoneNumberEntity, { teamId, id });
  }

  existsWithE164(e164: string): Promise<boolean> {
    return this.db.manager.existsBy(PhoneNumberEntity, { e164 });
  }

  list(teamId: string, query: PhoneNumberListQueryDto): Promise<Page<PhoneNumberEntity>> {
    const builder = this.db.manager
      .createQueryBuilder(PhoneNumberEntity, 'number')
      .where('number.team_id = :teamId', { teamId });
    return paginate(builder, query, {
      searchColumns: ['number.e164', 'number.label'],
      sortColumns: SORT_COLUMNS,
      defaultSort: '-created_at',
      tieBreaker: 'number.id',
    });
  }

  async insert(number: PhoneNumberEntity): Promise<void> {
    await this.db.write(() => this.db.manager.insert(PhoneNumberEntity, number));
  }

  async update(
    teamId: string,
    id: string,
    changes: QueryDeepPartialEntity<PhoneNumberEntity>,
  ): Promise<void> {
    await this.db.write(() => this.db.manager.update(PhoneNumberEntity, { teamId, id }, changes));
  }
}
