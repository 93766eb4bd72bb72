import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDataDirectory, parseDatabaseUrl } from './database-url';
import { AppConfig } from './app-config';
import { InvalidEnvironmentError } from './environment-validation';

const KEY_FILE = 'secret.key';

function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  return /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64');
}

/**
 * The 32-byte key that encrypts stored secrets. Embedded mode keeps a generated key beside the
 * database so that a plain `npm start` works; cluster mode must be given one, since every
 * instance has to share it.
 */
export function resolveSecretKey(config: AppConfig): Buffer {
  if (config.encryption.secretKey) {
    return decodeKey(config.encryption.secretKey);
  }
  const target = parseDatabaseUrl(config.database.url);
  if (target.kind !== 'sqlite') {
    throw new InvalidEnvironmentError([
      'CONSOLE_SECRET_KEY: is required when DATABASE_URL is PostgreSQL',
    ]);
  }
  ensureDataDirectory(target);
  const file = join(target.dataDirectory, KEY_FILE);
  try {
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw error;
    }
  }
  const key = decodeKey(readFileSync(file, 'utf8'));
  if (key.length !== 32) {
    throw new InvalidEnvironmentError([`${file}: does not hold a 32-byte key`]);
  }
  return key;
}
