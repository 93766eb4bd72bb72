import { randomBytes } from 'node:crypto';
import { API_PREFIX } from './app-instance';

const REQUEST_TIMEOUT_MS = 30_000;

export interface ApiResponse {
  status: number;
  text: string;
  body: any;
}

/** The Console API as the suite calls it while seeding and checking (not under load). */
export class ApiClient {
  constructor(
    readonly origin: string,
    readonly key: string,
  ) {}

  async request(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const res = await fetch(`${this.origin}${API_PREFIX}${path}`, {
      method,
      headers: {
        'X-Api-Key': this.key,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
  }

  /** The envelope's `data`, failing unless the status is the one expected. */
  async data(method: string, path: string, expected: number, body?: unknown): Promise<any> {
    const res = await this.request(method, path, body);
    if (res.status !== expected) {
      throw new Error(`${method} ${path}: expected ${expected}, got ${res.status} ${res.text}`);
    }
    return res.body.data;
  }

  get(path: string): Promise<any> {
    return this.data('GET', path, 200);
  }

  create(path: string, body: unknown): Promise<any> {
    return this.data('POST', path, 201, body);
  }
}

/** A key of the form the app accepts for CONSOLE_BOOTSTRAP_KEY (sk_ + 43 URL-safe characters). */
export function newApiKey(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}
