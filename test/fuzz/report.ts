import { FuzzRequest } from './requests';
import { Observed } from './checker';

const SHOWN_CHARS = 600;

interface FailureGroup {
  count: number;
  example: { request: FuzzRequest; response: Observed };
}

function shorten(value: string | Buffer | undefined): string {
  if (value === undefined) {
    return '(none)';
  }
  const text = typeof value === 'string' ? value : value.toString('latin1');
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length} chars)` : text;
}

/** Whether a response is one only the operation's handler gives, though not a success. */
export type HandlerAnswer = (response: Observed) => boolean;

/** Statuses per operation and failures grouped by (operation, status, reason). */
export class FuzzReport {
  /** Operations a request reached the handler of, by an answer of `handlerAnswers`. */
  private readonly refusedByHandler = new Set<string>();
  private readonly statuses = new Map<string, Map<number, number>>();
  private readonly milliseconds = new Map<string, { total: number; max: number }>();
  private readonly failures = new Map<string, FailureGroup>();
  requests = 0;

  constructor(private readonly handlerAnswers: Record<string, HandlerAnswer> = {}) {}

  record(request: FuzzRequest, response: Observed, problems: string[], ms: number): void {
    this.requests++;
    const time = this.milliseconds.get(request.operation.name) ?? { total: 0, max: 0 };
    this.milliseconds.set(request.operation.name, {
      total: time.total + ms,
      max: Math.max(time.max, ms),
    });
    const byStatus = this.statuses.get(request.operation.name) ?? new Map<number, number>();
    byStatus.set(response.status, (byStatus.get(response.status) ?? 0) + 1);
    this.statuses.set(request.operation.name, byStatus);
    if (problems.length === 0 && this.handlerAnswers[request.operation.name]?.(response)) {
      this.refusedByHandler.add(request.operation.name);
    }
    for (const problem of problems) {
      const key = `${request.operation.name} → ${response.status}: ${problem}`;
      const group = this.failures.get(key);
      if (group) {
        group.count++;
      } else {
        this.failures.set(key, { count: 1, example: { request, response } });
      }
    }
  }

  get failureCount(): number {
    return [...this.failures.values()].reduce((sum, group) => sum + group.count, 0);
  }

  get operationCount(): number {
    return this.statuses.size;
  }

  /** Operations of the document that no request reached. */
  missing(operationNames: string[]): string[] {
    return operationNames.filter((name) => !this.statuses.has(name));
  }

  /**
   * Operations that no request got through to their handler: none answered with a success, nor
   * with what only a handler answers (501 not implemented, 502 from the upstream it called).
   * Refusals alone (400, 401, 404…) prove only that the guards and pipes work, except those the
   * run knows only a handler gives (`handlerAnswers`).
   */
  neverHandled(operationNames: string[]): string[] {
    const handled = (status: number) =>
      (status >= 200 && status < 300) || [501, 502].includes(status);
    return operationNames.filter(
      (name) =>
        !this.refusedByHandler.has(name) &&
        ![...(this.statuses.get(name)?.keys() ?? [])].some(handled),
    );
  }

  print(write: (line: string) => void): void {
    write('Requests, mean and max milliseconds, and statuses per operation:');
    for (const [name, byStatus] of [...this.statuses].sort(([a], [b]) => a.localeCompare(b))) {
      const total = [...byStatus.values()].reduce((sum, count) => sum + count, 0);
      const statuses = [...byStatus]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`);
      const time = this.milliseconds.get(name)!;
      const ms = `${Math.round(time.total / total)}/${Math.round(time.max)} ms`.padStart(12);
      write(`  ${String(total).padStart(6)} ${ms}  ${name}  ${statuses.join(' ')}`);
    }
    if (this.failures.size === 0) {
      return;
    }
    write(`\n${this.failures.size} kinds of failure:`);
    for (const [key, { count, example }] of this.failures) {
      const { request, response } = example;
      write(`\n✗ ${key} (${count}×)`);
      write(`  request:  ${request.method} ${shorten(request.url)}`);
      write(`  headers:  ${shorten(JSON.stringify(request.headers))}`);
      write(`  body:     ${shorten(request.body)}`);
      write(`  tags:     ${request.tags.join(', ') || '(plain)'}`);
      write(`  response: ${response.status} ${shorten(JSON.stringify(response.headers))}`);
      write(`            ${shorten(response.text)}`);
    }
  }
}
