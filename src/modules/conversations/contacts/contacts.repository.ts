import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { Changes } from '@/database/sql/entity-statements';
import { ListPages, ListTable } from '@/database/sql/list-pages';
import { SqlParams } from '@/database/sql/params';
import { ConversationChannel, ConversationEntity } from '../entities/conversation.entity';
import { ContactEntity } from './contact.entity';
import { ContactDetails, ContactListQueryDto } from './contact.dto';

const CONTACT_LIST: ListTable = {
  from: 'contacts contact',
  columns: 'contact.*',
  searchColumns: ['contact.full_name', 'contact.email', 'contact.phone_number'],
  sortColumns: {
    created_at: 'contact.created_at',
    updated_at: 'contact.updated_at',
    full_name: 'contact.full_name',
  },
  defaultSort: '-created_at',
  tieBreaker: 'contact.id',
};

const DETAIL_COLUMNS: Record<keyof ContactDetails, string> = {
  full_name: 'full_name',
  email: 'email',
  phone_number: 'phone_number',
};

@Injectable()
export class ContactsRepository {
  private readonly lists: ListPages<ContactEntity>;

  constructor(private readonly db: Database) {
    this.lists = new ListPages(db, ContactEntity, CONTACT_LIST);
  }

  find(teamId: string, id: string): Promise<ContactEntity | null> {
    return this.db.findOne(ContactEntity, { teamId, id });
  }

  async list(teamId: string, query: ContactListQueryDto): Promise<Page<ContactEntity>> {
    const params = new SqlParams();
    const filter = { where: `contact.team_id = ${params.add(teamId)}`, params: params.values };
    return Page.from(await this.lists.page(filter, query), query);
  }

  /**
   * The channel user's contact, created unless it exists: of two concurrent first messages, one
   * inserts and the other's insert is ignored, and both read the one row.
   */
  async ensure(
    teamId: string,
    channelType: ConversationChannel,
    channelUserId: string,
  ): Promise<ContactEntity> {
    const now = new Date();
    const contact: ContactEntity = {
      id: newId(),
      teamId,
      channelType,
      channelUserId,
      fullName: null,
      email: null,
      phoneNumber: null,
      profilePicture: null,
      notes: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.db.insert(ContactEntity, [contact], { orIgnore: true });
    const stored = await this.db.findOne(ContactEntity, { teamId, channelType, channelUserId });
    return stored ?? contact;
  }

  /** Sets the details the contact does not have yet; those it has are kept. */
  async fillEmpty(teamId: string, id: string, details: ContactDetails): Promise<void> {
    const params = new SqlParams();
    const sets = Object.entries(DETAIL_COLUMNS)
      .filter(([field]) => typeof details[field as keyof ContactDetails] === 'string')
      .map(([field, column]) => {
        const value = params.add(details[field as keyof ContactDetails] as string);
        return `${column} = COALESCE(${column}, ${value})`;
      });
    if (sets.length === 0) {
      return;
    }
    const now = params.add(new Date());
    const team = params.add(teamId);
    const contact = params.add(id);
    await this.db.write(() =>
      this.db.execute(
        `UPDATE contacts SET ${sets.join(', ')}, updated_at = ${now}
         WHERE team_id = ${team} AND id = ${contact}`,
        params.values,
      ),
    );
  }

  async update(teamId: string, id: string, changes: Changes<ContactEntity>): Promise<boolean> {
    return (await this.db.update(ContactEntity, { teamId, id }, changes)) > 0;
  }

  /** The ids of the contact's conversations, oldest first. */
  async conversationIds(teamId: string, contactId: string): Promise<string[]> {
    const { rows } = await this.db.execute(
      `SELECT id FROM ${this.db.tableOf(ConversationEntity)}
       WHERE team_id = $1 AND contact_id = $2 ORDER BY created_at, id`,
      [teamId, contactId],
    );
    return rows.map((row) => row.id as string);
  }
}
