import { OnModuleDestroy } from '@nestjs/common';
import { StreamGrant, TicketStore } from './ports';

interface StoredTicket {
  grant: StreamGrant;
  expiresAt: number;
}

const SWEEP_INTERVAL_MS = 30_000;

/** Tickets in process memory, for a single instance. */
export class MemoryTicketStore implements TicketStore, OnModuleDestroy {
  private readonly tickets = new Map<string, StoredTicket>();
  private readonly sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();

  async save(ticketHash: string, grant: StreamGrant, ttlSeconds: number): Promise<void> {
    this.tickets.set(ticketHash, { grant, expiresAt: Date.now() + ttlSeconds * 1000 });
  }

  async take(ticketHash: string): Promise<StreamGrant | null> {
    const stored = this.tickets.get(ticketHash);
    this.tickets.delete(ticketHash);
    return stored && stored.expiresAt > Date.now() ? stored.grant : null;
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [hash, stored] of this.tickets) {
      if (stored.expiresAt <= now) {
        this.tickets.delete(hash);
      }
    }
  }
}
