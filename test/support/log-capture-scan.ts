import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAPTURE_FILES, RecordedErrorBody, RecordedHandedOn, RecordedSecret } from './log-capture';

export interface Finding {
  where: string;
  problem: string;
  excerpt: string;
}

export interface ScanResult {
  logLines: number;
  spanExports: number;
  errorBodies: number;
  handedOn: number;
  secrets: number;
  findings: Finding[];
}

const STACK_FRAME = /\bat [^\s()]+ \([^()]+:\d+:\d+\)|\bat \/[^\s()]+:\d+:\d+/;
const SOURCE_PATH = /(^|[\s"'(/])(src|dist|node_modules)\/[\w./-]+\.(ts|js)\b/;
const EXCERPT_LENGTH = 200;

function readLines(dir: string): Array<{ file: string; lines: string[] }> {
  if (!existsSync(dir)) {
    return [];
  }
  return readdirSync(dir).map((file) => ({
    file: join(dir, file),
    lines: readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean),
  }));
}

/** Enough to recognise which secret it was, never enough to use it. */
export function describeSecret(secret: RecordedSecret): string {
  return `${secret.kind} ${secret.value.slice(0, 6)}… (${secret.value.length} characters)`;
}

/** The text around `needle`, with the needle itself masked. */
function excerpt(text: string, needle: string): string {
  const at = text.indexOf(needle);
  const start = Math.max(0, at - EXCERPT_LENGTH / 2);
  return text
    .slice(start, at + needle.length + EXCERPT_LENGTH / 2)
    .split(needle)
    .join('[SECRET]');
}

function loadSecrets(dir: string): RecordedSecret[] {
  const byValue = new Map<string, RecordedSecret>();
  for (const { lines } of readLines(join(dir, CAPTURE_FILES.secrets))) {
    for (const line of lines) {
      const secret = JSON.parse(line) as RecordedSecret;
      byValue.set(secret.value, secret);
    }
  }
  return [...byValue.values()];
}

/** Lines or bodies that hold any of `secrets`, looked up file by file rather than line by line. */
function findSecrets(
  texts: Array<{ where: (index: number) => string; lines: string[] }>,
  secrets: RecordedSecret[],
): Finding[] {
  const findings: Finding[] = [];
  for (const { where, lines } of texts) {
    const whole = lines.join('\n');
    for (const secret of secrets) {
      if (!whole.includes(secret.value)) {
        continue;
      }
      const index = lines.findIndex((line) => line.includes(secret.value));
      findings.push({
        where: where(index),
        problem: `holds a secret, ${describeSecret(secret)}`,
        excerpt: excerpt(lines[index], secret.value),
      });
    }
  }
  return findings;
}

function errorBodyName(errorBody: RecordedErrorBody): string {
  return `error body of ${errorBody.request} (${errorBody.status})`;
}

function findInternals(errorBodies: RecordedErrorBody[]): Finding[] {
  return errorBodies.flatMap((errorBody) => {
    const match = STACK_FRAME.exec(errorBody.body) ?? SOURCE_PATH.exec(errorBody.body);
    return match
      ? [
          {
            where: errorBodyName(errorBody),
            problem: 'shows a stack trace or a source path',
            excerpt: errorBody.body.slice(0, EXCERPT_LENGTH),
          },
        ]
      : [];
  });
}

/**
 * Checks every captured log line, span export and error body against every recorded secret, and
 * what the service handed on about its actions against every integration secret.
 */
export function scanCapture(dir: string): ScanResult {
  const secrets = loadSecrets(dir);
  const logs = readLines(join(dir, CAPTURE_FILES.logs));
  const spanExports = readLines(join(dir, CAPTURE_FILES.spans));
  const errorBodies = readLines(join(dir, CAPTURE_FILES.errorBodies)).flatMap(({ lines }) =>
    lines.map((line) => JSON.parse(line) as RecordedErrorBody),
  );
  const handedOn = readLines(join(dir, CAPTURE_FILES.handedOn)).flatMap(({ lines }) =>
    lines.map((line) => JSON.parse(line) as RecordedHandedOn),
  );
  const findings = [
    ...findSecrets(
      logs.map(({ file, lines }) => ({ where: (index) => `${file}:${index + 1}`, lines })),
      secrets,
    ),
    ...findSecrets(
      spanExports.map(({ file, lines }) => ({
        where: (index) => `span export ${file}:${index + 1}`,
        lines,
      })),
      secrets,
    ),
    ...findSecrets(
      [
        {
          where: (index) => errorBodyName(errorBodies[index]),
          lines: errorBodies.map((errorBody) => errorBody.body),
        },
      ],
      secrets,
    ),
    ...findInternals(errorBodies),
    ...findSecrets(
      [{ where: (index) => handedOn[index].where, lines: handedOn.map(({ body }) => body) }],
      secrets.filter((secret) => secret.kind === 'integration secret'),
    ),
  ];
  return {
    logLines: logs.reduce((total, { lines }) => total + lines.length, 0),
    spanExports: spanExports.reduce((total, { lines }) => total + lines.length, 0),
    errorBodies: errorBodies.length,
    handedOn: handedOn.length,
    secrets: secrets.length,
    findings,
  };
}
