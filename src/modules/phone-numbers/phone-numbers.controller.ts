import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdParam } from '@/common/http/parse-id.pipe';
import { Page } from '@/common/pagination/page';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { PhoneNumberListQueryDto } from './dto/phone-number-list-query.dto';
import {
  PhoneNumberResponseDto,
  PhoneNumberSummaryDto,
  toPhoneNumberResponse,
  toPhoneNumberSummary,
} from './dto/phone-number-response.dto';
import { PhoneNumberUpdateDto } from './dto/phone-number-update.dto';
import { PhoneNumbersService } from './phone-numbers.service';

@ApiTags('phone-numbers')
@Controller('phone-numbers')
export class PhoneNumbersController {
  constructor(private readonly numbers: PhoneNumbersService) {}

  @Get()
  @Endpoint({
    scope: 'phone_numbers:read',
    summary: "List the team's phone numbers",
    message: 'Phone numbers retrieved successfully',
    response: PhoneNumberSummaryDto,
    shape: 'paginated',
    errors: [400],
  })
  async listPhoneNumbers(
    @TeamId() teamId: string,
    @Query() query: PhoneNumberListQueryDto,
  ): Promise<Page<PhoneNumberSummaryDto>> {
    return (await this.numbers.list(teamId, query)).map(toPhoneNumberSummary);
  }

  @Get(':id')
  @Endpoint({
    scope: 'phone_numbers:read',
    summary: 'Retrieve a phone number',
    message: 'Phone number retrieved successfully',
    response: PhoneNumberResponseDto,
  })
  async getPhoneNumber(
    @TeamId() teamId: string,
    @IdParam('id') id: string,
  ): Promise<PhoneNumberResponseDto> {
    return toPhoneNumberResponse(await this.numbers.get(teamId, id));
  }

  @Patch(':id')
  @Endpoint({
    scope: 'phone_numbers:write',
    summary: 'Link a phone number to an agent, label it, or turn inbound calls on or off',
    message: 'Phone number updated successfully',
    response: PhoneNumberResponseDto,
  })
  async updatePhoneNumber(
    @TeamId() teamId: string,
    @IdParam('id') id: string,
    @Body() body: PhoneNumberUpdateDto,
  ): Promise<PhoneNumberResponseDto> {
    return toPhoneNumberResponse(await this.numbers.update(teamId, id, body));
  }
}
