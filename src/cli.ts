import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli.module';
import { reportStartupFailure } from './common/startup-error';
import { loadAppConfig } from './config/app-config';
import { describeDatabase } from './config/deployment';
import { loadEnvFile } from './config/env-file';

/**
 * The admin CLI: `teams create|list`, `keys create|list|rotate|revoke`,
 * `phone-numbers requests|fulfil|reject`.
 */
async function main(): Promise<void> {
  loadEnvFile();
  const config = loadAppConfig(process.env);
  // On stderr, so that --json output stays JSON.
  process.stderr.write(`Database: ${describeDatabase(config.database.url)}\n`);
  await CommandFactory.run(CliModule.forRoot(config), {
    cliName: 'console-admin',
    logger: ['error', 'warn'],
    errorHandler: (error) => {
      const isHelp = /outputHelp|help|version/.test((error as { code?: string }).code ?? '');
      if (!isHelp) {
        process.stderr.write(`${error.message}\n`);
      }
      process.exit(isHelp ? 0 : 1);
    },
  });
}

main().catch(reportStartupFailure);
