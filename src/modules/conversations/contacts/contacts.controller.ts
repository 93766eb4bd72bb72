import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { Page } from '@/common/pagination/page';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import {
  ContactDetailResponseDto,
  ContactListQueryDto,
  ContactResponseDto,
  ContactUpdateDto,
  toContactDetail,
  toContactResponse,
} from './contact.dto';
import { ContactsService } from './contacts.service';

/** The team's contacts; team-wide, so a key limited to some agents is refused (403). */
@ApiTags('contacts')
@Controller('contacts')
export class ContactsController {
  constructor(private readonly contacts: ContactsService) {}

  @Get()
  @Endpoint({
    scope: 'conversations:read',
    summary: "List the team's contacts",
    message: 'Contacts retrieved successfully',
    response: ContactResponseDto,
    shape: 'paginated',
    errors: [400],
  })
  async listContacts(
    @TeamId() teamId: string,
    @Query() query: ContactListQueryDto,
  ): Promise<Page<ContactResponseDto>> {
    return (await this.contacts.list(teamId, query)).map(toContactResponse);
  }

  @Get(':contactId')
  @Endpoint({
    scope: 'conversations:read',
    summary: 'One contact, with the ids of its conversations',
    message: 'Contact retrieved successfully',
    response: ContactDetailResponseDto,
  })
  async getContact(
    @TeamId() teamId: string,
    @IdParam('contactId') contactId: string,
  ): Promise<ContactDetailResponseDto> {
    const { contact, conversationIds } = await this.contacts.get(teamId, contactId);
    return toContactDetail(contact, conversationIds);
  }

  @Patch(':contactId')
  @Endpoint({
    scope: 'inbox:write',
    summary: "Edit a contact's name, email, phone number or notes",
    message: 'Contact updated successfully',
    response: ContactDetailResponseDto,
  })
  async updateContact(
    @TeamId() teamId: string,
    @IdParam('contactId') contactId: string,
    @Body() body: ContactUpdateDto,
  ): Promise<ContactDetailResponseDto> {
    const { contact, conversationIds } = await this.contacts.update(teamId, contactId, body);
    return toContactDetail(contact, conversationIds);
  }
}
