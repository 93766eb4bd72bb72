import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  newTemplateLocation,
  TEMPLATE_DIR_VARIABLE,
  TEMPLATE_PREFIX_VARIABLE,
} from './factories/template-location';
import { CAPTURE_DIR_VARIABLE } from './support/log-capture';

/**
 * One capture directory for the whole run, and where the workers keep their migrated template
 * databases; the workers inherit both through the environment.
 */
export default function globalSetup(): void {
  process.env[CAPTURE_DIR_VARIABLE] = mkdtempSync(join(tmpdir(), 'console-test-capture-'));
  const templates = newTemplateLocation();
  process.env[TEMPLATE_DIR_VARIABLE] = templates.dir;
  process.env[TEMPLATE_PREFIX_VARIABLE] = templates.prefix;
}
