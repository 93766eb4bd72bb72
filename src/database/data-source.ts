import 'reflect-metadata';
import { loadAppConfig } from '@/config/app-config';
import { loadEnvFile } from '@/config/env-file';
import { resolveSecretKey } from '@/config/secret-key';
import { ConsoleDataSource, ENTITY_FILES } from './console-data-source';
import { dataSourceOptions } from './data-source-options';

/**
 * The database of the settings (DATABASE_URL, from the environment or `.env`), with every entity
 * and migration: what the migration commands work on (`npm run migration:*`, and TypeORM's CLI
 * for `migration:generate`). The server builds the same options in database.module.ts.
 */
loadEnvFile();
const config = loadAppConfig(process.env);

export const databaseUrl = config.database.url;

export default new ConsoleDataSource({
  ...dataSourceOptions(config.database.url, resolveSecretKey(config), config.database.poolSize),
  entities: [ENTITY_FILES],
});
