import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CAPTURE_DIR_VARIABLE } from './support/log-capture';

/** One capture directory for the whole run; the workers inherit it through the environment. */
export default function globalSetup(): void {
  process.env[CAPTURE_DIR_VARIABLE] = mkdtempSync(join(tmpdir(), 'console-test-capture-'));
}
