import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { StreamGrant, TICKET_STORE, TicketStore } from '@/common/state/ports';
import { AppConfig } from '@/config/app-config';

export interface IssuedTicket {
  ticket: string;
  expires_in: number;
}

function hashTicket(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

/**
 * Stream tickets of web-chat visitors: an EventSource sends no Authorization header, so the
 * ticket stands in for the publishable key and the visitor token. Single use, short-lived, bound
 * to the visitor's conversation, stored by hash (the same store as the staff's tickets).
 */
@Injectable()
export class WidgetTickets {
  private readonly ttlSeconds: number;

  constructor(
    @Inject(TICKET_STORE) private readonly store: TicketStore,
    config: AppConfig,
  ) {
    this.ttlSeconds = config.stream.ticketTtlS;
  }

  async issue(grant: Required<Omit<StreamGrant, 'keyId'>>): Promise<IssuedTicket> {
    const ticket = `wt_${randomBytes(32).toString('base64url')}`;
    await this.store.save(hashTicket(ticket), { ...grant, keyId: null }, this.ttlSeconds);
    return { ticket, expires_in: this.ttlSeconds };
  }

  /** Consumes the ticket: a visitor's grant, or 401 (none) / 404 (unknown, used or expired). */
  async redeem(ticket: string | undefined): Promise<StreamGrant & { visitorId: string }> {
    if (!ticket) {
      throw Errors.unauthorized('A stream ticket is required: POST /stream-ticket, then ?ticket=');
    }
    const grant = ticket.length <= 256 ? await this.store.take(hashTicket(ticket)) : null;
    if (!grant?.visitorId || grant.keyId !== null) {
      throw Errors.notFound('Unknown, used or expired stream ticket');
    }
    return { ...grant, visitorId: grant.visitorId };
  }
}
