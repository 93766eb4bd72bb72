import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';

/**
 * What a test run records so that test/global-teardown.ts can check that no secret reached a
 * log line, an exported span or an error body: the logs themselves, the span exports a test
 * collector received, every error body, and every secret the tests created, sent or received;
 * and, checked for integration secrets, what the service hands on about its actions (model
 * requests, webhook deliveries, runs and messages it answers with).
 * test/global-setup.ts creates the directory for the whole run.
 */
export const CAPTURE_DIR_VARIABLE = 'TEST_CAPTURE_DIR';

export type SecretKind = 'api key' | 'stream ticket' | 'integration secret' | 'service secret';

export interface RecordedSecret {
  kind: SecretKind;
  value: string;
}

export interface RecordedErrorBody {
  request: string;
  status: number;
  body: string;
}

/** A body the service sent on: where it went (or which answer it was), and what it held. */
export interface RecordedHandedOn {
  where: string;
  body: string;
}

export const CAPTURE_FILES = {
  logs: 'logs',
  secrets: 'secrets',
  errorBodies: 'error-bodies',
  spans: 'spans',
  handedOn: 'handed-on',
} as const;

/** Shorter values ("x", "k-123") would match unrelated text; no generated secret is this short. */
export const MIN_SECRET_LENGTH = 8;

const SECRET_SETTINGS: Record<string, SecretKind> = {
  CONSOLE_BOOTSTRAP_KEY: 'api key',
  CONSOLE_SECRET_KEY: 'service secret',
  LLM_API_KEY: 'service secret',
};

/** Request body fields that carry an integration credential (docs/api.md §1: stored encrypted). */
const SECRET_FIELDS = new Set(['token', 'password', 'api_key', 'secret_key']);
const API_KEY_TEXT = /sk_[A-Za-z0-9_-]{32,}/g;
const MAX_CAPTURED_BODY = 64 * 1024;
/** Answers that carry what actions handed back: runs, and the messages that tell of them. */
const HANDED_ON_ANSWERS = /\/(action-runs|messages)(\/|$)/;

export function captureDir(): string {
  const dir = process.env[CAPTURE_DIR_VARIABLE];
  if (!dir) {
    throw new Error(`${CAPTURE_DIR_VARIABLE} is unset: run the tests through jest.config.js`);
  }
  return dir;
}

function captureFile(kind: keyof typeof CAPTURE_FILES, name: string): string {
  const dir = join(captureDir(), CAPTURE_FILES[kind]);
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

/** Where the applications of this test worker write their log lines. */
export function appLogFile(): string {
  return captureFile('logs', `app-${process.pid}.log`);
}

/** Most requests carry the same few keys again: each secret is written once per test file. */
const recorded = new Set<string>();

export function recordSecret(kind: SecretKind, value: unknown): void {
  if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH && !recorded.has(value)) {
    recorded.add(value);
    const secret: RecordedSecret = { kind, value };
    appendFileSync(captureFile('secrets', `${process.pid}.ndjson`), `${JSON.stringify(secret)}\n`);
  }
}

export function recordSecretSettings(env: Record<string, string | undefined>): void {
  for (const [name, kind] of Object.entries(SECRET_SETTINGS)) {
    recordSecret(kind, env[name]);
  }
}

/** One export of spans as a collector received it, on one line. */
export function recordSpanExport(body: string): void {
  appendFileSync(captureFile('spans', `${process.pid}.ndjson`), `${body.replace(/\n/g, ' ')}\n`);
}

export function recordErrorBody(errorBody: RecordedErrorBody): void {
  appendFileSync(
    captureFile('errorBodies', `${process.pid}.ndjson`),
    `${JSON.stringify(errorBody)}\n`,
  );
}

/**
 * Records a body the service sent on about its actions (a model request, a webhook delivery, an
 * answer holding runs or messages): no integration secret may be in it. Outside a test run (the
 * benchmarks start the same fakes) there is no scan to record for, and nothing is kept.
 */
export function recordHandedOn(where: string, body: string): void {
  if (!process.env[CAPTURE_DIR_VARIABLE]) {
    return;
  }
  const handedOn: RecordedHandedOn = { where, body: body.slice(0, MAX_CAPTURED_BODY) };
  appendFileSync(captureFile('handedOn', `${process.pid}.ndjson`), `${JSON.stringify(handedOn)}\n`);
}

function recordBodySecrets(value: unknown, insideHeaders = false): void {
  if (value === null || typeof value !== 'object') {
    return;
  }
  for (const [name, field] of Object.entries(value)) {
    if (typeof field === 'string' && (insideHeaders || SECRET_FIELDS.has(name))) {
      recordSecret('integration secret', field);
    } else {
      recordBodySecrets(field, insideHeaders || name === 'headers');
    }
  }
}

function recordCredentials(req: Request): void {
  const authorization = req.headers.authorization;
  if (authorization) {
    recordSecret('api key', authorization.replace(/^\S+\s+/, ''));
  }
  recordSecret('api key', req.headers['x-api-key']);
  recordSecret('stream ticket', new URL(req.originalUrl, 'http://test').searchParams.get('ticket'));
}

function recordResponse(req: Request, status: number, body: string): void {
  if (status >= 400) {
    recordErrorBody({ request: `${req.method} ${req.path}`, status, body });
  } else if (HANDED_ON_ANSWERS.test(req.path)) {
    recordHandedOn(`answer of ${req.method} ${req.path} (${status})`, body);
  } else if (req.method === 'POST' && req.path.endsWith('/stream-ticket')) {
    // (A browser's preflight, OPTIONS, is answered with no body.)
    recordSecret('stream ticket', (JSON.parse(body) as { data: { ticket: string } }).data.ticket);
  }
}

/**
 * Express middleware of the test application: records the secrets each request carries, the
 * stream tickets it is given, and every error body. Event streams are not buffered.
 */
export function recordHttpExchanges(req: Request, res: Response, next: NextFunction): void {
  recordCredentials(req);
  const chunks: Buffer[] = [];
  let captured = 0;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (captured >= MAX_CAPTURED_BODY || isEventStream(res)) {
      return;
    }
    const buffer =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk)
          : null;
    if (buffer) {
      chunks.push(buffer);
      captured += buffer.length;
    }
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') {
      keep(chunk, rest[0]);
    }
    return end(chunk, ...rest);
  }) as Response['end'];
  res.once('close', () => {
    recordBodySecrets(req.body);
    if (res.writableFinished) {
      recordResponse(req, res.statusCode, Buffer.concat(chunks).toString('utf8'));
    }
  });
  next();
}

function isEventStream(res: Response): boolean {
  return String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
}

/** A line the application logged through pino, as opposed to a command's own output. */
export function isLogLine(line: string): boolean {
  if (!line.startsWith('{')) {
    return false;
  }
  try {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    return typeof parsed.level === 'number' && typeof parsed.time === 'number';
  } catch {
    return false;
  }
}

/**
 * Keeps what a spawned server or CLI printed: its log lines and everything on stderr are checked
 * like any log; keys it deliberately printed (a created key, the first bootstrap key) become
 * secrets to look for.
 */
export function recordProcessOutput(name: string, stdout: string, stderr: string): void {
  const logLines: string[] = [];
  for (const line of stdout.split('\n')) {
    if (isLogLine(line)) {
      logLines.push(line);
    } else {
      for (const key of line.match(API_KEY_TEXT) ?? []) {
        recordSecret('api key', key);
      }
    }
  }
  logLines.push(...stderr.split('\n').filter((line) => line.length > 0));
  if (logLines.length > 0) {
    appendFileSync(captureFile('logs', `${name}-${process.pid}.log`), `${logLines.join('\n')}\n`);
  }
}
