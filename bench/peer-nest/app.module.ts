import { ClassSerializerInterceptor, Module, ValidationPipe } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule, TypeOrmModuleOptions } from '@nestjs/typeorm';
import { ApiKey, Workflow } from './entities';
import { WorkflowsController } from './workflows.controller';

/** `sqlite:<path>` (the file the service's bench instance uses) or a PostgreSQL URL. */
function database(url: string): TypeOrmModuleOptions {
  const common = { entities: [ApiKey, Workflow], synchronize: false, logging: false };
  if (url.startsWith('sqlite:')) {
    return { ...common, type: 'better-sqlite3', database: url.slice('sqlite:'.length) };
  }
  return { ...common, type: 'postgres', url };
}

@Module({
  imports: [
    TypeOrmModule.forRoot(database(process.env.DATABASE_URL ?? '')),
    TypeOrmModule.forFeature([ApiKey, Workflow]),
    // In memory; as high as the service's bench limit, so that it counts but never refuses.
    ThrottlerModule.forRoot([{ ttl: 60_000, limit: Number(process.env.RATE_LIMIT_MAX ?? 100) }]),
  ],
  controllers: [WorkflowsController],
  providers: [
    { provide: APP_GUARD, useClass: ThrottlerGuard },
    { provide: APP_INTERCEPTOR, useClass: ClassSerializerInterceptor },
    { provide: APP_PIPE, useValue: new ValidationPipe({ whitelist: true, transform: true }) },
  ],
})
export class PeerModule {}
