import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { TestApp } from '../../factories/test-app';

export interface StreamRequestRecord {
  ticket: string | null;
  after: string | null;
  lastEventId: string | null;
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

/**
 * Watches the in-process application's HTTP server for stream requests, so that a test can see
 * what the browser asked for and cut its streams the way a crashed proxy or a network failure
 * would: the socket goes away, without an orderly end of the response.
 */
export function watchStreamConnections(t: TestApp): StreamConnections {
  const server: Server = t.app.getHttpServer();
  const requests: StreamRequestRecord[] = [];
  const open = new Set<ServerResponse>();
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://api');
    if (!/\/conversations\/[^/]+\/(messages\/)?stream$/.test(url.pathname)) {
      return;
    }
    const lastEventId = req.headers['last-event-id'];
    requests.push({
      ticket: url.searchParams.get('ticket'),
      after: url.searchParams.get('after'),
      lastEventId: typeof lastEventId === 'string' ? lastEventId : null,
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
