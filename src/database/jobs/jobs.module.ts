import { Global, Module } from '@nestjs/common';
import { RetentionSweeper } from './retention';

/** The server's periodic upkeep; the CLI does not import it. */
@Global()
@Module({ providers: [RetentionSweeper], exports: [RetentionSweeper] })
export class JobsModule {}
