import { Module } from '@nestjs/common';
import { OutboundHttp } from './outbound-http';

/** The one way out to the network: modules that call other services import this. */
@Module({
  providers: [OutboundHttp],
  exports: [OutboundHttp],
})
export class OutboundModule {}
