import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { Page } from '@/common/pagination/page';
import { definedFields } from '@/common/validation/defined-fields';
import { Database } from '@/database/database.service';
import { AgentsService } from '@/modules/agents/agents.service';
import { PhoneNumberListQueryDto } from './dto/phone-number-list-query.dto';
import { PhoneNumberUpdateDto } from './dto/phone-number-update.dto';
import { PhoneNumberEntity } from './entities/phone-number.entity';
import { PhoneNumbersRepository } from './phone-numbers.repository';

const NOT_FOUND = 'Phone number not found';

@Injectable()
export class PhoneNumbersService {
  constructor(
    private readonly db: Database,
    private readonly numbers: PhoneNumbersRepository,
    private readonly agents: AgentsService,
  ) {}

  list(teamId: string, query: PhoneNumberListQueryDto): Promise<Page<PhoneNumberEntity>> {
    return this.numbers.list(teamId, query);
  }

  async get(teamId: string, id: string): Promise<PhoneNumberEntity> {
    const number = await this.numbers.findOwned(teamId, id);
    if (!number) {
      throw Errors.notFound(NOT_FOUND);
    }
    return number;
  }

  /**
   * Judged under a lock on the number, so that of two requests linking it to different agents at
   * once, the second sees the first's link and answers 409 instead of silently replacing it.
   */
  update(teamId: string, id: string, input: PhoneNumberUpdateDto): Promise<PhoneNumberEntity> {
    return this.db.transaction(async () => {
      await this.db.lockRow('phone_numbers', id);
      const number = await this.get(teamId, id);
      const changes = definedFields<PhoneNumberEntity>({
        label: input.label,
        inboundEnabled: input.inbound_enabled,
      });
      if (input.agent_id !== undefined) {
        if (input.agent_id !== null) {
          await this.agents.requireOwned(teamId, input.agent_id);
          if (number.agentId !== null && number.agentId !== input.agent_id) {
            throw Errors.conflict(
              'The number is linked to another agent; unlink it first with agent_id null',
            );
          }
        }
        changes.agentId = input.agent_id;
      }
      await this.numbers.update(teamId, id, { ...changes, updatedAt: new Date() });
      return this.get(teamId, id);
    });
  }
}
