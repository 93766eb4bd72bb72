import { rmSync } from 'node:fs';
import {
  dropTemplates,
  TEMPLATE_DIR_VARIABLE,
  TEMPLATE_PREFIX_VARIABLE,
} from './factories/template-location';
import { CAPTURE_DIR_VARIABLE } from './support/log-capture';
import { scanCapture } from './support/log-capture-scan';

const MAX_REPORTED = 20;

/**
 * Removes the run's template databases. Fails the run when a recorded secret shows up in a captured log line, span export or error
 * body, or an error body shows a stack trace. The capture is kept when something is found.
 */
export default async function globalTeardown(): Promise<void> {
  await dropTemplates(process.env[TEMPLATE_DIR_VARIABLE]!, process.env[TEMPLATE_PREFIX_VARIABLE]!);
  const dir = process.env[CAPTURE_DIR_VARIABLE]!;
  const result = scanCapture(dir);
  process.stdout.write(
    `\nsecrets scan: ${result.logLines} log lines, ${result.spanExports} span exports, ` +
      `${result.errorBodies} error bodies, ${result.handedOn} bodies handed on, ` +
      `${result.secrets} secrets checked, ${result.findings.length} found\n`,
  );
  if (result.findings.length === 0) {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  const listed = result.findings
    .slice(0, MAX_REPORTED)
    .map((finding) => `- ${finding.where} ${finding.problem}:\n    ${finding.excerpt}`);
  throw new Error(
    `Secrets scan failed (capture kept in ${dir}):\n${listed.join('\n')}` +
      (result.findings.length > MAX_REPORTED
        ? `\n…and ${result.findings.length - MAX_REPORTED} more`
        : ''),
  );
}
