import { Injectable } from '@nestjs/common';
import { newId } from '@/common/ids';
import { isE164 } from '@/common/validation/e164';
import { LIMITS } from '@/common/validation/limits';
import { Database } from '@/database/database.service';
import { isUniqueViolation } from '@/database/errors';
import { TeamsService } from '@/modules/auth/teams.service';
import { PhoneNumberRequestEntity } from './entities/phone-number-request.entity';
import { PhoneNumberEntity } from './entities/phone-number.entity';
import { PhoneNumberRequestsRepository } from './phone-number-requests.repository';
import { PhoneNumbersRepository } from './phone-numbers.repository';

/** Why an operator's command was refused, in words for the operator. */
export class OperatorRefusal extends Error {}

export interface PendingRequest {
  request: PhoneNumberRequestEntity;
  teamName: string | null;
}

export interface Fulfilment {
  request: PhoneNumberRequestEntity;
  number: PhoneNumberEntity;
}

/**
 * What operators do with the admin CLI, across every team: see the pending requests, and fulfil
 * one with a number (which becomes the team's) or reject it with a reason.
 */
@Injectable()
export class PhoneNumberOperationsService {
  constructor(
    private readonly db: Database,
    private readonly requests: PhoneNumberRequestsRepository,
    private readonly numbers: PhoneNumbersRepository,
    private readonly teams: TeamsService,
  ) {}

  async listPending(limit: number): Promise<PendingRequest[]> {
    const pending = await this.requests.listPending(limit);
    const teamIds = [...new Set(pending.map((request) => request.teamId))];
    const names = await this.teams.namesOf(teamIds);
    return pending.map((request) => ({ request, teamName: names.get(request.teamId) ?? null }));
  }

  async fulfil(requestId: string, e164: string): Promise<Fulfilment> {
    if (!isE164(e164)) {
      throw new OperatorRefusal(`"${e164}" is not an E.164 number such as +14155550100`);
    }
    try {
      return await this.db.transaction(async () => {
        const request = await this.pending(requestId);
        if (await this.numbers.existsWithE164(e164)) {
          throw new OperatorRefusal(`${e164} is already in use`);
        }
        const now = new Date();
        const number: PhoneNumberEntity = {
          id: newId(),
          teamId: request.teamId,
          e164,
          label: null,
          agentId: null,
          inboundEnabled: true,
          requestId: request.id,
          createdAt: now,
          updatedAt: now,
        };
        await this.numbers.insert(number);
        const decided = { status: 'fulfilled' as const, e164, updatedAt: now };
        await this.requests.update(request.teamId, request.id, decided);
        return { request: { ...request, ...decided }, number };
      });
    } catch (error) {
      // Another operator took the number between the check and the insert.
      if (isUniqueViolation(error)) {
        throw new OperatorRefusal(`${e164} is already in use`);
      }
      throw error;
    }
  }

  reject(requestId: string, reason: string): Promise<PhoneNumberRequestEntity> {
    const trimmed = reason.trim();
    if (!trimmed || trimmed.length > LIMITS.description) {
      throw new OperatorRefusal(`a reason must be 1 to ${LIMITS.description} characters`);
    }
    return this.db.transaction(async () => {
      const request = await this.pending(requestId);
      const decided = {
        status: 'rejected' as const,
        rejectionReason: trimmed,
        updatedAt: new Date(),
      };
      await this.requests.update(request.teamId, request.id, decided);
      return { ...request, ...decided };
    });
  }

  /** The request, locked until the decision commits; refused unless it still waits for one. */
  private async pending(requestId: string): Promise<PhoneNumberRequestEntity> {
    const request = await this.requests.findForDecision(requestId);
    if (!request) {
      throw new OperatorRefusal(`no phone number request with id ${requestId}`);
    }
    if (request.status !== 'pending') {
      throw new OperatorRefusal(`request ${requestId} is already ${request.status}`);
    }
    return request;
  }
}
