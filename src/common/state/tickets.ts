import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { StreamGrant, TICKET_STORE, TicketStore } from './ports';

export interface IssuedTicket {
  ticket: string;
  expires_in: number;
}

/** Longer than any ticket issued: not looked up at all. */
const MAX_TICKET_LENGTH = 256;

function hashTicket(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

/**
 * Tickets stand in for the credentials a browser's EventSource cannot send: each one single use,
 * short-lived (STREAM_TICKET_TTL_S), bound to its grant, and stored by hash only. The staff's and
 * the web-chat visitors' streams check the grant each in their own way.
 */
@Injectable()
export class Tickets {
  private readonly ttlSeconds: number;

  constructor(
    @Inject(TICKET_STORE) private readonly store: TicketStore,
    config: AppConfig,
  ) {
    this.ttlSeconds = config.stream.ticketTtlS;
  }

  /** A new ticket for `grant`; `prefix` tells the kinds apart to people (`st_`, `wt_`). */
  async issue(prefix: string, grant: StreamGrant): Promise<IssuedTicket> {
    const ticket = `${prefix}${randomBytes(32).toString('base64url')}`;
    await this.store.save(hashTicket(ticket), grant, this.ttlSeconds);
    return { ticket, expires_in: this.ttlSeconds };
  }

  /** The ticket's grant, taken so that it works once; null when unknown, used or expired. */
  async take(ticket: string): Promise<StreamGrant | null> {
    return ticket.length <= MAX_TICKET_LENGTH ? this.store.take(hashTicket(ticket)) : null;
  }
}
