import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { Page } from '@/common/pagination/page';
import { definedFields } from '@/common/validation/defined-fields';
import { ContactDetails, ContactListQueryDto, ContactUpdateDto } from './contact.dto';
import { ContactEntity } from './contact.entity';
import { ContactsRepository } from './contacts.repository';

const NOT_FOUND = 'Contact not found';

/** A contact with the ids of its conversations. */
export interface ContactWithConversations {
  contact: ContactEntity;
  conversationIds: string[];
}

/** The team's contacts: the people behind its channel users, as staff know them. */
@Injectable()
export class ContactsService {
  constructor(private readonly contacts: ContactsRepository) {}

  list(teamId: string, query: ContactListQueryDto): Promise<Page<ContactEntity>> {
    return this.contacts.list(teamId, query);
  }

  /** The team's contact with its conversations' ids, or 404 (also for another team's). */
  async get(teamId: string, id: string): Promise<ContactWithConversations> {
    const contact = await this.contacts.find(teamId, id);
    if (!contact) {
      throw Errors.notFound(NOT_FOUND);
    }
    return { contact, conversationIds: await this.contacts.conversationIds(teamId, id) };
  }

  /** The contact, or null when there is none (a conversation's contact_id may be unset). */
  find(teamId: string, id: string | null): Promise<ContactEntity | null> {
    return id ? this.contacts.find(teamId, id) : Promise.resolve(null);
  }

  async update(
    teamId: string,
    id: string,
    input: ContactUpdateDto,
  ): Promise<ContactWithConversations> {
    const fields = definedFields(input);
    const changed = await this.contacts.update(teamId, id, {
      ...('full_name' in fields ? { fullName: fields.full_name ?? null } : {}),
      ...('email' in fields ? { email: fields.email ?? null } : {}),
      ...('phone_number' in fields ? { phoneNumber: fields.phone_number ?? null } : {}),
      ...('notes' in fields ? { notes: fields.notes ?? null } : {}),
      updatedAt: new Date(),
    });
    if (!changed) {
      throw Errors.notFound(NOT_FOUND);
    }
    return this.get(teamId, id);
  }

  /** Sets the details the contact has none of yet, in the caller's transaction. */
  fill(teamId: string, id: string, details: ContactDetails): Promise<void> {
    return this.contacts.fillEmpty(teamId, id, details);
  }
}
