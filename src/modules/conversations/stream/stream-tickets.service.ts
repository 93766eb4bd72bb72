import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { Principal } from '@/common/http/principal';
import { StreamGrant, TICKET_STORE, TicketStore } from '@/common/state/ports';
import { AppConfig } from '@/config/app-config';
import { ApiKeysService } from '@/modules/auth/api-keys.service';

export interface IssuedTicket {
  ticket: string;
  expires_in: number;
}

function hashTicket(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

/**
 * Stream tickets stand in for the API key that a browser's EventSource cannot send: single use,
 * short-lived, bound to one conversation and to the key that asked for it, and stored by hash.
 */
@Injectable()
export class StreamTicketsService {
  private readonly ttlSeconds: number;

  constructor(
    @Inject(TICKET_STORE) private readonly store: TicketStore,
    private readonly apiKeys: ApiKeysService,
    config: AppConfig,
  ) {
    this.ttlSeconds = config.stream.ticketTtlS;
  }

  async issue(caller: Principal, agentId: string, conversationId: string): Promise<IssuedTicket> {
    const ticket = `st_${randomBytes(32).toString('base64url')}`;
    await this.store.save(
      hashTicket(ticket),
      { teamId: caller.teamId, agentId, conversationId, keyId: caller.keyId },
      this.ttlSeconds,
    );
    return { ticket, expires_in: this.ttlSeconds };
  }

  /** Consumes the ticket; 404 unless it is live, meant for this conversation, and its key still works. */
  async redeem(ticket: string, agentId: string, conversationId: string): Promise<StreamGrant> {
    const grant = ticket.length <= 256 ? await this.store.take(hashTicket(ticket)) : null;
    if (!grant || grant.agentId !== agentId || grant.conversationId !== conversationId) {
      throw Errors.notFound('Unknown, used or expired stream ticket');
    }
    if (grant.keyId === null || !(await this.apiKeys.isActive(grant.keyId))) {
      throw Errors.notFound('Unknown, used or expired stream ticket');
    }
    return grant;
  }
}
