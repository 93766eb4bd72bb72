import { Injectable } from '@nestjs/common';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { Changes } from '@/database/sql/entity-statements';
import { ListPages, ListTable } from '@/database/sql/list-pages';
import { PhoneNumberListQueryDto } from './dto/phone-number-list-query.dto';
import { PhoneNumberEntity } from './entities/phone-number.entity';

export const PHONE_NUMBER_LIST: ListTable = {
  from: 'phone_numbers phone_number',
  columns: 'phone_number.*',
  searchColumns: ['phone_number.e164', 'phone_number.label'],
  sortColumns: {
    created_at: 'phone_number.created_at',
    e164: 'phone_number.e164',
    // Unlabelled numbers sort as the empty label on both databases (their NULL orders differ).
    label: "COALESCE(phone_number.label, '')",
  },
  defaultSort: '-created_at',
  tieBreaker: 'phone_number.id',
};

@Injectable()
export class PhoneNumbersRepository {
  private readonly lists: ListPages<PhoneNumberEntity>;

  constructor(private readonly db: Database) {
    this.lists = new ListPages(db, PhoneNumberEntity, PHONE_NUMBER_LIST);
  }

  findOwned(teamId: string, id: string): Promise<PhoneNumberEntity | null> {
    return this.db.findOne(PhoneNumberEntity, { teamId, id });
  }

  async existsWithE164(e164: string): Promise<boolean> {
    return (await this.db.findOne(PhoneNumberEntity, { e164 })) !== null;
  }

  async list(teamId: string, query: PhoneNumberListQueryDto): Promise<Page<PhoneNumberEntity>> {
    const page = await this.lists.page(
      { where: 'phone_number.team_id = $1', params: [teamId] },
      query,
    );
    return Page.from(page, query);
  }

  async insert(number: PhoneNumberEntity): Promise<void> {
    await this.db.insert(PhoneNumberEntity, [number]);
  }

  async update(teamId: string, id: string, changes: Changes<PhoneNumberEntity>): Promise<void> {
    await this.db.update(PhoneNumberEntity, { teamId, id }, changes);
  }
}
