import { Module } from '@nestjs/common';
import { FallbackController } from './fallback.controller';

/** Import last: its catch-all route must be registered after every real one. */
@Module({ controllers: [FallbackController] })
export class FallbackModule {}
