import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Errors } from '@/common/http/api-error';
import { Page } from '@/common/pagination/page';
import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { AgentsService } from '@/modules/agents/agents.service';
import { PhoneNumberRequestCreateDto } from './dto/phone-number-request-create.dto';
import { PhoneNumberRequestListQueryDto } from './dto/phone-number-request-list-query.dto';
import { PhoneNumberRequestEntity } from './entities/phone-number-request.entity';
import { PhoneNumberRequestsRepository } from './phone-number-requests.repository';

/** A team's provisioning requests, as the team submits and follows them. */
@Injectable()
export class PhoneNumberRequestsService {
  private readonly maxPending: number;

  constructor(
    private readonly db: Database,
    private readonly requests: PhoneNumberRequestsRepository,
    private readonly agents: AgentsService,
    config: AppConfig,
  ) {
    this.maxPending = config.phoneNumbers.maxPendingRequests;
  }

  list(
    teamId: string,
    query: PhoneNumberRequestListQueryDto,
  ): Promise<Page<PhoneNumberRequestEntity>> {
    return this.requests.list(teamId, query);
  }

  create(teamId: string, input: PhoneNumberRequestCreateDto): Promise<PhoneNumberRequestEntity> {
    return this.db.transaction(async () => {
      const agentId = input.submitted_by_agent_id ?? null;
      if (agentId !== null) {
        await this.agents.requireOwned(teamId, agentId);
      }
      // Concurrent requests of the team take turns here, so that none slips past the count.
      await this.db.lockRow('teams', teamId);
      if ((await this.requests.countPending(teamId)) >= this.maxPending) {
        throw Errors.forbidden(
          `The team already has ${this.maxPending} pending phone number requests, the most ` +
            'allowed (PHONE_NUMBER_MAX_PENDING_REQUESTS); wait until an operator answers one',
        );
      }
      const now = new Date();
      const request: PhoneNumberRequestEntity = {
        id: newId(),
        teamId,
        businessName: input.business_name,
        intendedUse: input.intended_use,
        region: input.region,
        agentCount: input.agent_count,
        outboundMinutes: input.outbound_minutes,
        submittedByAgentId: agentId,
        status: 'pending',
        e164: null,
        rejectionReason: null,
        createdAt: now,
        updatedAt: now,
      };
      await this.requests.insert(request);
      return request;
    });
  }
}
