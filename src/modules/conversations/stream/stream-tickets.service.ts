import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { Principal } from '@/common/http/principal';
import { StreamGrant } from '@/common/state/ports';
import { IssuedTicket, Tickets } from '@/common/state/tickets';
import { ApiKeysService } from '@/modules/auth/api-keys.service';

/** The staff's stream tickets: bound to one conversation and to the key that asked for it. */
@Injectable()
export class StreamTicketsService {
  constructor(
    private readonly tickets: Tickets,
    private readonly apiKeys: ApiKeysService,
  ) {}

  issue(caller: Principal, agentId: string, conversationId: string): Promise<IssuedTicket> {
    return this.tickets.issue('st_', {
      teamId: caller.teamId,
      agentId,
      conversationId,
      keyId: caller.keyId,
    });
  }

  /** Consumes the ticket; 404 unless it is live, meant for this conversation, and its key still works. */
  async redeem(ticket: string, agentId: string, conversationId: string): Promise<StreamGrant> {
    const grant = await this.tickets.take(ticket);
    if (!grant || grant.agentId !== agentId || grant.conversationId !== conversationId) {
      throw Errors.notFound('Unknown, used or expired stream ticket');
    }
    if (grant.keyId === null || !(await this.apiKeys.isActive(grant.keyId))) {
      throw Errors.notFound('Unknown, used or expired stream ticket');
    }
    return grant;
  }
}
