import { Injectable } from '@nestjs/common';
import { Errors } from '@/common/http/api-error';
import { StreamGrant } from '@/common/state/ports';
import { IssuedTicket, Tickets } from '@/common/state/tickets';

/**
 * Stream tickets of web-chat visitors: the ticket stands in for the publishable key and the
 * visitor token, bound to the visitor's conversation (the same store as the staff's tickets).
 */
@Injectable()
export class WidgetTickets {
  constructor(private readonly tickets: Tickets) {}

  issue(grant: Required<Omit<StreamGrant, 'keyId'>>): Promise<IssuedTicket> {
    return this.tickets.issue('wt_', { ...grant, keyId: null });
  }

  /** Consumes the ticket: a visitor's grant, or 401 (none) / 404 (unknown, used or expired). */
  async redeem(ticket: string | undefined): Promise<StreamGrant & { visitorId: string }> {
    if (!ticket) {
      throw Errors.unauthorized('A stream ticket is required: POST /stream-ticket, then ?ticket=');
    }
    const grant = await this.tickets.take(ticket);
    if (!grant?.visitorId || grant.keyId !== null) {
      throw Errors.notFound('Unknown, used or expired stream ticket');
    }
    return { ...grant, visitorId: grant.visitorId };
  }
}
