import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { PeerModule } from './app.module';

/**
 * Baseline "peer-nest": GET /workflows/{id} as a team would write it with the stock NestJS
 * pieces (TypeORM repositories, a bearer guard, ThrottlerGuard, ClassSerializerInterceptor,
 * ValidationPipe), on the service's own database.
 */
async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(PeerModule, { logger: false });
  app.setGlobalPrefix('api/v1/console');
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
