import { Agent, request } from 'node:http';

export interface JsonResponse {
  status: number;
  text: string;
  body: any;
}

/** One JSON request with node:http (so the caller controls the connection pool). */
export function httpJson(
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: unknown; agent?: Agent; timeoutMs?: number },
): Promise<JsonResponse> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      agent: options.agent,
      headers: {
        ...options.headers,
        ...(payload === undefined
          ? {}
          : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
      },
      timeout: options.timeoutMs ?? 30_000,
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = undefined;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, text, body });
      });
    });
    req.end(payload);
  });
}
