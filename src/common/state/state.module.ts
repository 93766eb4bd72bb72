import { Global, Module } from '@nestjs/common';
import { MemoryMessageBus } from './memory-message-bus';
import { MemoryStreamSlots } from './memory-stream-slots';
import { MemoryTicketStore } from './memory-ticket-store';
import { MESSAGE_BUS, STREAM_SLOTS, TICKET_STORE } from './ports';

/** State that instances must agree on; in-process here (embedded mode). */
@Global()
@Module({
  providers: [
    { provide: TICKET_STORE, useClass: MemoryTicketStore },
    { provide: STREAM_SLOTS, useClass: MemoryStreamSlots },
    { provide: MESSAGE_BUS, useClass: MemoryMessageBus },
  ],
  exports: [TICKET_STORE, STREAM_SLOTS, MESSAGE_BUS],
})
export class StateModule {}
