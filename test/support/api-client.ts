import { Agent, IncomingHttpHeaders, request } from 'node:http';

export const API = '/api/v1/console';

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

export type ApiResponse = Extract<Outcome, { kind: 'response' }>;

export interface ApiClientOptions {
  /** Connections kept alive to the server at most. */
  maxSockets?: number;
  timeoutMs?: number;
}

/**
 * The Console API of a server process as a client program calls it: JSON over node:http with its
 * own keep-alive pool, authenticated with one key, reporting failures precisely.
 */
export class ApiClient {
  private readonly agent: Agent;
  private readonly timeoutMs: number;

  constructor(
    readonly baseUrl: string,
    readonly key: string,
    { maxSockets = 32, timeoutMs = 20_000 }: ApiClientOptions = {},
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets });
    this.timeoutMs = timeoutMs;
  }

  /** Sends one request to `API + path`; never rejects: a missing response is an outcome too. */
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
      req.setTimeout(this.timeoutMs, () =>
        req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })),
      );
      const noResponse = (code: string, partial: boolean) =>
        settle({
          kind: 'no-response',
          code,
          reusedSocket: req.reusedSocket,
          partial,
          at: Date.now(),
        });
      req.on('error', (error: NodeJS.ErrnoException) =>
        noResponse(error.code ?? error.message, false),
      );
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('aborted', () => noResponse('ABORTED', true));
        res.on('error', () => noResponse('RESPONSE_ERROR', true));
        res.on('end', () =>
          settle({
            kind: 'response',
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            body: parseJson(text),
            at: Date.now(),
          }),
        );
      });
      req.end(payload);
    });
  }

  /** Like `call`, but a request that got no response fails. */
  async request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse> {
    const outcome = await this.call(method, path, body, headers);
    if (outcome.kind !== 'response') {
      throw new Error(`${method} ${path}: no response (${outcome.code})`);
    }
    return outcome;
  }

  get(path: string, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body: unknown = {}, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('POST', path, body, headers);
  }

  patch(path: string, body: unknown, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('PATCH', path, body, headers);
  }

  delete(path: string, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('DELETE', path, undefined, headers);
  }

  /** The envelope's `data`, failing unless the status is `expected`. */
  async data(method: string, path: string, expected: number, body?: unknown): Promise<any> {
    return (await expectStatus(this.call(method, path, body), expected)).body.data;
  }

  /** A new workflow and an agent on it: what a suite needs before it can post messages. */
  async createAgent(
    workflowName: string,
    fields: Record<string, unknown> = {},
  ): Promise<{ id: string; workflow_id: string }> {
    const workflow = await this.data('POST', '/workflows', 201, { name: workflowName });
    return this.data('POST', '/agents', 201, {
      workflow_id: workflow.id,
      name: 'A',
      description: 'd',
      ...fields,
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

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The response of a call that must succeed with `status`, or an error naming what came. */
export async function expectStatus(
  outcome: Promise<Outcome>,
  status: number,
): Promise<ApiResponse> {
  const res = await outcome;
  if (res.kind !== 'response' || res.status !== status) {
    throw new Error(`expected ${status}, got ${JSON.stringify(res)}`);
  }
  return res;
}
