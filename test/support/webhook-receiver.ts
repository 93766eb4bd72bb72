import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  IncomingHttpHeaders,
  IncomingMessage,
  Server,
  ServerResponse,
} from 'node:http';
import { AddressInfo } from 'node:net';
import { recordHandedOn } from './log-capture';
import { pollUntil } from './wait';

export interface ReceivedEvent {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; created_at: string; data: Record<string, any> };
  at: number;
}

/** What the receiver answers to the next request: a status, or `hang` (never answers). */
export type Answer = number | 'hang';

/**
 * A team's webhook receiver on 127.0.0.1: records every POST with its raw body, and answers
 * with the statuses queued by the test (200 once the queue is empty).
 */
export class WebhookReceiver {
  readonly received: ReceivedEvent[] = [];
  private readonly answers: Answer[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private fallback: Answer = 200;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(path = '/hooks'): Promise<WebhookReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}${path}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => receiver.handle(req.headers, Buffer.concat(chunks).toString(), res));
    });
    return receiver;
  }

  /** Answers the next requests with `answers`, in order. */
  queue(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  /** Answers every later request with `answer` once the queue is empty. */
  always(answer: Answer): void {
    this.fallback = answer;
  }

  ofType(type: string): ReceivedEvent[] {
    return this.received.filter((event) => event.body.type === type);
  }

  async waitFor(
    predicate: (events: ReceivedEvent[]) => boolean,
    timeoutMs = 10_000,
  ): Promise<ReceivedEvent[]> {
    const { value } = await pollUntil(
      async () => this.received,
      (events) => predicate(events),
      timeoutMs,
      20,
    );
    if (!predicate(value)) {
      throw new Error(`webhook receiver: condition not met after ${timeoutMs} ms`);
    }
    return value;
  }

  async close(): Promise<void> {
    this.hanging.forEach((res) => res.destroy());
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(headers: IncomingHttpHeaders, rawBody: string, res: ServerResponse): void {
    this.received.push({ headers, rawBody, body: JSON.parse(rawBody), at: Date.now() });
    recordHandedOn('a webhook delivery', rawBody);
    const answer = this.answers.shift() ?? this.fallback;
    if (answer === 'hang') {
      this.hanging.add(res);
      return;
    }
    res.writeHead(answer, { 'Content-Type': 'text/plain' }).end(answer < 300 ? 'ok' : 'nope');
  }
}

/** The receiver's side of the signature check, as the README shows it. */
export function verifySignature(secret: string, event: ReceivedEvent, toleranceS = 300): boolean {
  const header = String(event.headers['console-signature'] ?? '');
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2)));
  const t = Number(parts.t);
  if (!parts.v1 || !Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceS) {
    return false;
  }
  const expected = createHmac('sha256', secret).update(`${t}.${event.rawBody}`).digest();
  const given = Buffer.from(String(parts.v1), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
