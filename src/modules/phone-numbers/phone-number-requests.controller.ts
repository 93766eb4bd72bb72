import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Page } from '@/common/pagination/page';
import { TeamId } from '@/modules/auth/current-principal.decorator';
import { Endpoint } from '@/modules/auth/endpoint.decorator';
import { PhoneNumberRequestCreateDto } from './dto/phone-number-request-create.dto';
import { PhoneNumberRequestListQueryDto } from './dto/phone-number-request-list-query.dto';
import {
  PhoneNumberRequestResponseDto,
  toPhoneNumberRequestResponse,
} from './dto/phone-number-request-response.dto';
import { PhoneNumberRequestsService } from './phone-number-requests.service';

@ApiTags('phone-numbers')
@Controller('phone-numbers/request')
export class PhoneNumberRequestsController {
  constructor(private readonly requests: PhoneNumberRequestsService) {}

  @Post()
  @Endpoint({
    scope: 'phone_numbers:write',
    summary: 'Ask the operators for a phone number',
    message: 'Phone number request submitted successfully',
    response: PhoneNumberRequestResponseDto,
    status: 201,
  })
  async createPhoneNumberRequest(
    @TeamId() teamId: string,
    @Body() body: PhoneNumberRequestCreateDto,
  ): Promise<PhoneNumberRequestResponseDto> {
    return toPhoneNumberRequestResponse(await this.requests.create(teamId, body));
  }

  @Get()
  @Endpoint({
    scope: 'phone_numbers:read',
    summary: "List the team's phone number requests",
    message: 'Phone number requests retrieved successfully',
    response: PhoneNumberRequestResponseDto,
    shape: 'paginated',
    errors: [400],
  })
  async listPhoneNumberRequests(
    @TeamId() teamId: string,
    @Query() query: PhoneNumberRequestListQueryDto,
  ): Promise<Page<PhoneNumberRequestResponseDto>> {
    return (await this.requests.list(teamId, query)).map(toPhoneNumberRequestResponse);
  }
}
