import 'reflect-metadata';
import { MigrationExecutor } from 'typeorm';
import { reportStartupFailure } from '@/config/startup-error';
import { describeDatabase } from '@/config/deployment';
import { migrate, withMigrationLock } from './migrate';

const USAGE = 'usage: migrations run | revert | show';

/**
 * `run` applies pending migrations (as every start does), `revert` undoes the last one, `show`
 * lists them; run and revert hold the same advisory lock as starting instances.
 */
async function main(command: string | undefined): Promise<void> {
  if (!command || !['run', 'revert', 'show'].includes(command)) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  // Loaded here, so that a bad setting is reported like any failed start.
  const { default: dataSource, databaseUrl } = await import('./data-source');
  process.stderr.write(`Database: ${describeDatabase(databaseUrl)}\n`);
  await dataSource.initialize();
  try {
    const executor = new MigrationExecutor(dataSource);
    if (command === 'run') {
      const pending = await executor.getPendingMigrations();
      await migrate(dataSource);
      process.stdout.write(
        pending.length
          ? pending.map((migration) => `applied ${migration.name}\n`).join('')
          : 'nothing to apply\n',
      );
    } else if (command === 'revert') {
      const executed = await executor.getExecutedMigrations();
      if (executed.length === 0) {
        process.stdout.write('nothing to revert\n');
        return;
      }
      await withMigrationLock(dataSource, () =>
        dataSource.undoLastMigration({ transaction: 'each' }),
      );
      process.stdout.write(`reverted ${executed[0].name}\n`);
    } else {
      const executed = new Set((await executor.getExecutedMigrations()).map((m) => m.name));
      for (const migration of dataSource.migrations) {
        const name = migration.name ?? migration.constructor.name;
        process.stdout.write(`${executed.has(name) ? '[X]' : '[ ]'} ${name}\n`);
      }
    }
  } finally {
    await dataSource.destroy();
  }
}

main(process.argv[2]).catch(reportStartupFailure);
