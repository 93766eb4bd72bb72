import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'dotenv';
import { StartupError } from './startup-error';

/**
 * Reads `.env` of the working directory into `env`. A variable set in the real environment wins,
 * even when set empty, so that a deployment can always override the file. No file is no error.
 * Returns the names the file provided.
 */
export function loadEnvFile(
  env: Record<string, string | undefined> = process.env,
  path = resolve('.env'),
): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      return [];
    }
    throw new StartupError(`${path}: cannot be read (${code ?? (error as Error).message})`);
  }
  const provided: string[] = [];
  for (const [name, value] of Object.entries(parse(text))) {
    if (env[name] === undefined) {
      env[name] = value;
      provided.push(name);
    }
  }
  return provided;
}
