import { parentPort } from 'node:worker_threads';
import { readableText } from './readable-text';
import type { ThreadReply } from './reading-threads';

/**
 * The entry of a page-reading thread (see ReadingThreads): Readability's time grows faster than
 * quadratically with nesting depth, so pages are read here, never on the event loop.
 */
const port = parentPort!;
port.on('message', (html: string) => {
  let reply: ThreadReply;
  try {
    reply = { text: readableText(html) };
  } catch {
    reply = { failed: true };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies ThreadReply);
