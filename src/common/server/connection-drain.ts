import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

export interface ConnectionDrain {
  /**
   * Stops accepting connections (new ones are refused at once) but keeps serving the open ones;
   * from now on every response not yet started closes its connection once it is sent.
   */
  start(): void;
}

/**
 * Lets a shutting-down server finish its keep-alive connections without cutting a request. Node
 * keeps serving further requests on an open keep-alive connection even after `server.close()`, so
 * a shutdown that closes idle connections races with clients sending their next request on them:
 * those clients see a reset. Once draining starts, each response still to be sent (in flight or
 * new) carries `Connection: close`, so its client opens a new connection for the next request
 * instead, and that one is refused cleanly once the server has stopped listening.
 */
export function connectionDrain(server: Server): ConnectionDrain {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) {
      res.setHeader('Connection', 'close');
    }
  };
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      closeAfter(res);
      return;
    }
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  return {
    start() {
      // net's close, not http's: http's also drops every connection idle at this instant, racing
      // with clients that are just sending their next request on one.
      NetServer.prototype.close.call(server);
      draining = true;
      inFlight.forEach(closeAfter);
      inFlight.clear();
    },
  };
}
