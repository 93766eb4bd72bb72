import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli.module';
import { StartupError } from './common/startup-error';
import { loadAppConfig } from './config/app-config';

/** The admin CLI: `teams create`, `keys create|list|revoke`, `phone-numbers requests|fulfil|reject`. */
async function main(): Promise<void> {
  await CommandFactory.run(CliModule.forRoot(loadAppConfig(process.env)), {
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

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof StartupError
      ? `${error.message}\n`
      : `error: ${String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
});
