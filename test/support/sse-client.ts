import { IncomingHttpHeaders, IncomingMessage, request } from 'node:http';

export interface SseFrame {
  id?: string;
  event?: string;
  data: string;
  raw: string;
}

export interface SseMessageData {
  id: string;
  conversation_id: string;
  role: string;
  message: string;
  message_type: string;
  created_at: string;
  action: { run_id: string; action_name: string; status: string } | null;
  author: { type: string; id: string | null; name: string | null };
  private: boolean;
}

/** Parses an event stream exactly as the SSE specification reads it. */
export function parseFrames(buffer: string): { frames: SseFrame[]; rest: string } {
  const frames: SseFrame[] = [];
  const blocks = buffer.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const raw of blocks) {
    const frame: SseFrame = { data: '', raw };
    const data: string[] = [];
    for (const line of raw.split('\n')) {
      if (line === '' || line.startsWith(':')) {
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') {
        frame.id = value;
      } else if (field === 'event') {
        frame.event = value;
      } else if (field === 'data') {
        data.push(value);
      }
    }
    frame.data = data.join('\n');
    if (frame.id !== undefined || frame.event !== undefined || data.length > 0) {
      frames.push(frame);
    }
  }
  return { frames, rest };
}

export interface SseConnection {
  status: number;
  headers: IncomingHttpHeaders;
  /** The JSON body when the server refused to stream. */
  body?: Record<string, unknown>;
  frames: SseFrame[];
  messages(): SseMessageData[];
  /** Resolves when `predicate` holds for the frames received so far (checked on every frame). */
  waitFor(predicate: (frames: SseFrame[]) => boolean, timeoutMs?: number): Promise<SseFrame[]>;
  closed: Promise<void>;
  /** True once the connection has closed; false if it is still open after `timeoutMs`. */
  closesWithin(timeoutMs: number): Promise<boolean>;
  /** Whether the server ended the stream (its last chunk came), not the connection being cut. */
  endedCleanly(): boolean;
  /** Stops reading, as a client that has stalled: what the server sends waits in the network. */
  pause(): void;
  close(): void;
}

/** Opens a stream with a plain HTTP request and collects its frames. */
export function openStream(
  url: string,
  headers: Record<string, string | string[]> = {},
): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'text/event-stream', ...headers } });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      res.setEncoding('utf8');
      const frames: SseFrame[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let bodyText = '';
      let ended = false;
      let resolveClosed!: () => void;
      const closed = new Promise<void>((done) => (resolveClosed = done));
      const isStream = (res.headers['content-type'] ?? '').startsWith('text/event-stream');
      const connection: SseConnection = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        frames,
        messages: () =>
          frames
            .filter((frame) => frame.event === 'message')
            .map((frame) => JSON.parse(frame.data) as SseMessageData),
        waitFor: (predicate, timeoutMs = 10_000) =>
          new Promise((done, fail) => {
            const check = () => {
              if (predicate(frames)) {
                waiters.delete(check);
                clearTimeout(timer);
                done(frames);
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(
                new Error(`timed out; frames so far:\n${frames.map((f) => f.raw).join('\n\n')}`),
              );
            }, timeoutMs);
            waiters.add(check);
            check();
          }),
        closed,
        closesWithin: (timeoutMs) => {
          let timer: NodeJS.Timeout | undefined;
          const stillOpen = new Promise<boolean>((done) => {
            timer = setTimeout(() => done(false), timeoutMs);
          });
          return Promise.race([closed.then(() => true), stillOpen]).finally(() =>
            clearTimeout(timer),
          );
        },
        endedCleanly: () => ended,
        pause: () => res.pause(),
        close: () => {
          req.destroy();
          res.destroy();
        },
      };
      res.on('data', (chunk: string) => {
        if (!isStream) {
          bodyText += chunk;
          return;
        }
        const parsed = parseFrames(buffer + chunk);
        buffer = parsed.rest;
        frames.push(...parsed.frames);
        [...waiters].forEach((check) => check());
      });
      res.on('end', () => (ended = true));
      res.on('close', () => resolveClosed());
      if (isStream) {
        resolve(connection);
      } else {
        res.on('end', () => {
          connection.body = bodyText
            ? (JSON.parse(bodyText) as Record<string, unknown>)
            : undefined;
          resolve(connection);
        });
      }
    });
    req.end();
  });
}
