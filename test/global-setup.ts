import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  newTemplateLocation,
  TEMPLATE_DIR_VARIABLE,
  TEMPLATE_PREFIX_VARIABLE,
} from './factories/template-location';
import { buildDistIfStale } from './support/build';
import { CAPTURE_DIR_VARIABLE } from './support/log-capture';

/**
 * One capture directory for the whole run, and where the workers keep their migrated template
 * databases; the workers inherit both through the environment. dist/ is built (when older than
 * the sources) for the suites that run the application and the CLI as processes.
 */
export default function globalSetup(): void {
  buildDistIfStale();
  process.env[CAPTURE_DIR_VARIABLE] = mkdtempSync(join(tmpdir(), 'console-test-capture-'));
  const templates = newTemplateLocation();
  process.env[TEMPLATE_DIR_VARIABLE] = templates.dir;
  process.env[TEMPLATE_PREFIX_VARIABLE] = templates.prefix;
}
