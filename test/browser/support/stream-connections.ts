import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { TestApp } from '../../factories/test-app';

export interface StreamRequestRecord {
  ticket: string | null;
  after: string | null;
  lastEventId: string | null;
  /** What the application wrote on the stream so far (its SSE frames, as text). */
  written: string[];
  /** The status the application answered with (0 until its head is sent). */
  readonly status: number;
}

export interface StreamConnections {
  /** Every stream request the application received, in order. */
  requests: StreamRequestRecord[];
  /** Stream responses still open. */
  open(): number;
  /** Drops every open stream's TCP connection from the server side; returns how many. */
  kill(): number;
  stop(): void;
}

/** The staff stream (docs/api.md §5); the widget's is WIDGET_STREAM_PATH. */
export const STAFF_STREAM_PATH = /\/conversations\/[^/]+\/(messages\/)?stream$/;
export const WIDGET_STREAM_PATH = /^\/api\/v1\/widget\/stream$/;

/**
 * Watches the in-process application's HTTP server for stream requests, so that a test can see
 * what the browser asked for and cut its streams the way a crashed proxy or a network failure
 * would: the socket goes away, without an orderly end of the response.
 */
export function watchStreamConnections(
  t: TestApp,
  streamPath: RegExp = STAFF_STREAM_PATH,
): StreamConnections {
  const server: Server = t.app.getHttpServer();
  const requests: StreamRequestRecord[] = [];
  const open = new Set<ServerResponse>();
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://api');
    if (!streamPath.test(url.pathname)) {
      return;
    }
    const written: string[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      written.push(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    const lastEventId = req.headers['last-event-id'];
    requests.push({
      ticket: url.searchParams.get('ticket'),
      after: url.searchParams.get('after'),
      lastEventId: typeof lastEventId === 'string' ? lastEventId : null,
      written,
      get status() {
        return res.headersSent ? res.statusCode : 0;
      },
    });
    open.add(res);
    res.once('close', () => open.delete(res));
  };
  server.on('request', onRequest);
  return {
    requests,
    open: () => open.size,
    kill() {
      const victims = [...open];
      victims.forEach((res) => res.socket?.destroy());
      return victims.length;
    },
    stop: () => server.off('request', onRequest),
  };
}
