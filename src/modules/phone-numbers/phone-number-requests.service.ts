import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { Page } from '@/common/pagination/page';
import { Database } from '@/database/database.service';
import { AgentsService } from '@/modules/agents/agents.service';
import { PhoneNumberRequestCreateDto } from './dto/phone-number-request-create.dto';
import { PhoneNumberRequestListQueryDto } from './dto/phone-number-request-list-query.dto';
import { PhoneNumberRequestEntity } from './entities/phone-number-request.entity';
import { PhoneNumberRequestsRepository } from './phone-number-requests.repository';

/** A team's provisioning requests, as the team submits and follows them. */
@Injectable()
export class PhoneNumberRequestsService {
  constructor(
    private readonly db: Database,
    private readonly requests: PhoneNumberRequestsRepository,
    private readonly agents: AgentsService,
  ) {}

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
