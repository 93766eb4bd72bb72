import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';

/**
 * Baseline "floor-nest": the least a NestJS 11 express app does for one route (no guards,
 * interceptors, pipes or database), answering the object of the captured workflow envelope.
 */
const envelope = JSON.parse(readFileSync(process.env.BENCH_BODY_FILE ?? '', 'utf8')) as unknown;

@Controller()
class FloorController {
  @Get('floor')
  floor(): unknown {
    return envelope;
  }
}

@Module({ controllers: [FloorController] })
class FloorModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false });
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
