import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command } from 'commander';
import { CliModule } from './cli.module';
import { CliServices } from './common/cli/cli-services';
import { reportStartupFailure } from '@/config/startup-error';
import { loadAppConfig } from './config/app-config';
import { describeDatabase } from './config/deployment';
import { loadEnvFile } from './config/env-file';
import { keysCommand } from './modules/auth/cli/keys.command';
import { teamsCommand } from './modules/auth/cli/teams.command';
import { phoneNumbersCommand } from './modules/phone-numbers/cli/phone-numbers.command';

/**
 * The admin CLI: `teams create|list`, `keys create|list|rotate|revoke`,
 * `phone-numbers requests|fulfil|reject`.
 */
async function main(): Promise<void> {
  loadEnvFile();
  const config = loadAppConfig(process.env);
  // On stderr, so that --json output stays JSON.
  process.stderr.write(`Database: ${describeDatabase(config.database.url)}\n`);
  let context: Promise<INestApplicationContext> | undefined;
  const services: CliServices = {
    get: async (type) => {
      context ??= NestFactory.createApplicationContext(CliModule.forRoot(config), {
        logger: ['error', 'warn'],
      });
      return (await context).get(type);
    },
  };
  const program = new Command('console-admin')
    .description('Administers the Console API: teams, API keys, phone number requests')
    .addCommand(teamsCommand(services))
    .addCommand(keysCommand(services))
    .addCommand(phoneNumbersCommand(services));
  try {
    await program.parseAsync(process.argv);
  } finally {
    await (await context?.catch(() => undefined))?.close();
  }
}

main().catch(reportStartupFailure);
