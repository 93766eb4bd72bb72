import { Agent, IncomingHttpHeaders, request } from 'node:http';
import { API } from '../../factories/test-app';

/**
 * What became of one request, as a client sees it: a complete response, or none. `partial` marks
 * a response whose headers came but whose body was cut off (the worst outcome: a client cannot
 * tell what happened). `reusedSocket` marks a request sent on a kept-alive connection, where a
 * close by the server can cross the request on the wire (Node documents retrying those).
 */
export type Outcome =
  | {
      kind: 'response';
      status: number;
      headers: IncomingHttpHeaders;
      text: string;
      body: any;
      at: number;
    }
  | { kind: 'no-response'; code: string; reusedSocket: boolean; partial: boolean; at: number };

const REQUEST_TIMEOUT_MS = 20_000;

/** A JSON client over node:http with its own keep-alive pool, reporting failures precisely. */
export class ApiClient {
  private readonly agent: Agent;

  constructor(
    readonly baseUrl: string,
    private readonly key: string,
    maxSockets = 32,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Outcome> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: Outcome) => {
        if (!settled) {
          settled = true;
          resolve(outcome);
        }
      };
      const req = request(`${this.baseUrl}${API}${path}`, {
        method,
        agent: this.agent,
        headers: {
          Authorization: `Bearer ${this.key}`,
          ...(payload === undefined
            ? {}
            : {
                'Content-Type': 'application/json',
                'Content-Length': Buffer.byteLength(payload),
              }),
          ...headers,
        },
      });
      req.setTimeout(REQUEST_TIMEOUT_MS, () =>
        req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })),
      );
      req.on('error', (error: NodeJS.ErrnoException) =>
        settle({
          kind: 'no-response',
          code: error.code ?? error.message,
          reusedSocket: req.reusedSocket,
          partial: false,
          at: Date.now(),
        }),
      );
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('aborted', () =>
          settle({
            kind: 'no-response',
            code: 'ABORTED',
            reusedSocket: req.reusedSocket,
            partial: true,
            at: Date.now(),
          }),
        );
        res.on('error', () =>
          settle({
            kind: 'no-response',
            code: 'RESPONSE_ERROR',
            reusedSocket: req.reusedSocket,
            partial: true,
            at: Date.now(),
          }),
        );
        res.on('end', () => {
          let parsed: unknown = undefined;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          settle({
            kind: 'response',
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            body: parsed,
            at: Date.now(),
          });
        });
      });
      req.end(payload);
    });
  }

  /** Every page of a top-level list. */
  async listAll<T = any>(path: string): Promise<T[]> {
    const items: T[] = [];
    const separator = path.includes('?') ? '&' : '?';
    for (let page = 1; ; page++) {
      const res = await this.call('GET', `${path}${separator}limit=100&page=${page}`);
      if (res.kind !== 'response' || res.status !== 200) {
        throw new Error(`GET ${path} page ${page} failed: ${JSON.stringify(res)}`);
      }
      items.push(...(res.body.data as T[]));
      if (!res.body.meta.has_next_page) {
        return items;
      }
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The response of a call that must succeed with `status`, or an error naming what came. */
export async function expectStatus(
  outcome: Promise<Outcome>,
  status: number,
): Promise<Extract<Outcome, { kind: 'response' }>> {
  const res = await outcome;
  if (res.kind !== 'response' || res.status !== status) {
    throw new Error(`expected ${status}, got ${JSON.stringify(res)}`);
  }
  return res;
}
