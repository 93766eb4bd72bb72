import { request } from 'node:http';

export interface SseFrame {
  event: string;
  id: string | undefined;
  /** performance.now() when the chunk holding the frame was read. */
  receivedAt: number;
}

export interface EventStream {
  close(): void;
  /** False once the server or the network ended it. */
  isOpen(): boolean;
}

/**
 * Opens a Server-Sent Events stream on its own connection and calls `onFrame` for every frame.
 * Resolves once the server answered 200 with an event stream. Only `event` and `id` are read:
 * the message id is all the suite needs to time a delivery.
 */
export function openEventStream(
  url: string,
  onFrame: (frame: SseFrame) => void,
  timeoutMs = 30_000,
  headers: Record<string, string> = {},
): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    let open = false;
    const req = request(url, {
      agent: false,
      headers: { Accept: 'text/event-stream', ...headers },
    });
    const timer = setTimeout(() => req.destroy(new Error('stream open timed out')), timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      open = false;
      reject(error);
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      if (res.statusCode !== 200) {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => reject(new Error(`stream refused: ${res.statusCode} ${text}`)));
        return;
      }
      open = true;
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const receivedAt = performance.now();
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const frame = parseFrame(buffer.slice(0, end), receivedAt);
          buffer = buffer.slice(end + 2);
          if (frame) {
            onFrame(frame);
          }
          end = buffer.indexOf('\n\n');
        }
      });
      res.on('close', () => (open = false));
      res.on('error', () => (open = false));
      resolve({
        close: () => {
          open = false;
          req.destroy();
        },
        isOpen: () => open,
      });
    });
    req.end();
  });
}

function parseFrame(block: string, receivedAt: number): SseFrame | undefined {
  let event = 'message';
  let id: string | undefined;
  let seen = false;
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) {
      event = line.slice(6).trim();
      seen = true;
    } else if (line.startsWith('id:')) {
      id = line.slice(3).trim();
      seen = true;
    } else if (line.startsWith('data:')) {
      seen = true;
    }
  }
  return seen ? { event, id, receivedAt } : undefined;
}

/**
 * Opens an event stream whose client never reads it: the response stays paused, so what the
 * server sends fills the network's buffers and then waits on the server. Resolves with a closer
 * once the server answered 200.
 */
export function openStalledStream(url: string, timeoutMs = 30_000): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { Accept: 'text/event-stream' } });
    const timer = setTimeout(() => req.destroy(new Error('stream open timed out')), timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      res.on('error', () => undefined);
      if (res.statusCode !== 200) {
        req.destroy();
        reject(new Error(`stream refused: ${res.statusCode}`));
        return;
      }
      resolve(() => req.destroy());
    });
    req.end();
  });
}
