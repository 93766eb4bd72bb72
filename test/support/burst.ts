import { STATUS_CODES } from 'node:http';
import { Pool } from 'undici';

export interface BurstRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface BurstResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as sent, to compare replays byte for byte. */
  text: string;
  body: any;
}

/**
 * Sends every request at once, each on a connection of its own, so that the server handles them
 * side by side rather than one after another.
 */
export async function burst(origin: string, requests: BurstRequest[]): Promise<BurstResponse[]> {
  const pool = new Pool(origin, { connections: requests.length, pipelining: 1 });
  try {
    return await Promise.all(
      requests.map(async (request) => {
        const res = await pool.request({
          method: request.method,
          path: request.path,
          headers: { 'content-type': 'application/json', ...request.headers },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
        });
        const text = await res.body.text();
        return {
          status: res.statusCode,
          headers: res.headers,
          text,
          body: text ? JSON.parse(text) : undefined,
        };
      }),
    );
  } finally {
    await pool.close();
  }
}

/** The contract's error body (docs/api.md §1) for `status` and `code`. */
export function errorBody(res: { headers: Record<string, unknown> }, status: number, code: string) {
  return {
    message: expect.any(String),
    error: STATUS_CODES[status],
    code,
    statusCode: status,
    request_id: res.headers['x-request-id'],
  };
}

/** How many times each value occurs, for reporting a race's outcome in one line. */
export function tally(values: Array<string | number>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) {
    counts[value] = (counts[value] ?? 0) + 1;
  }
  return counts;
}
