import { join } from 'node:path';
import {
  ReadingThreads,
  ReadingThreadsClosedError,
  ReadingThreadsOptions,
} from './reading-threads';

const THREAD = {
  script: join(__dirname, 'readable-text.thread.ts'),
  execArgv: ['--require', require.resolve('ts-node/register/transpile-only')],
};
/** Readability takes hours over this (its time grows faster than quadratically with depth). */
const NESTED = `${'<div>'.repeat(20_000)}<p>Deep down.</p>${'</div>'.repeat(20_000)}`;
const FLAT = `<main>${'<p>An ordinary paragraph of an ordinary page.</p>'.repeat(80_000)}</main>`;

describe('ReadingThreads', () => {
  let threads: ReadingThreads;
  const start = (options: Partial<ReadingThreadsOptions> = {}) =>
    (threads = new ReadingThreads({
      ...THREAD,
      threads: 1,
      heapMb: 512,
      timeoutMs: 60_000,
      idleMs: 60_000,
      ...options,
    }));
  afterEach(() => threads.close());

  it('reads pages in a thread, one after the other', async () => {
    start();
    expect(
      await Promise.all([
        threads.read('<p>Open from nine.</p>'),
        threads.read('<p>Closed on Sundays.</p>'),
      ]),
    ).toEqual([{ text: 'Open from nine.' }, { text: 'Closed on Sundays.' }]);
  });

  it('stops a thread still reading at the cap; the page behind it gets a fresh thread', async () => {
    start({ timeoutMs: 1_000 });
    expect(await Promise.all([threads.read(NESTED), threads.read('<p>Next page.</p>')])).toEqual([
      { failure: 'timeout' },
      { text: 'Next page.' },
    ]);
  });

  it('fails a page that needs more than the heap, not the process', async () => {
    start({ heapMb: 64 });
    expect(await threads.read(FLAT)).toEqual({ failure: 'out_of_memory' });
    expect(await threads.read('<p>Small again.</p>')).toEqual({ text: 'Small again.' });
  });

  it('fails the waiting pages when a thread cannot even load, rather than starting one after another', async () => {
    start({ script: join(__dirname, 'no-such-thread.js') });
    expect(await Promise.all([threads.read('<p>a</p>'), threads.read('<p>b</p>')])).toEqual([
      { failure: 'failed' },
      { failure: 'failed' },
    ]);
  });

  it('refuses the page under way and those waiting once closed, without waiting for the cap', async () => {
    start();
    const refusal = (page: Promise<unknown>) =>
      page.then(
        () => null,
        (error: unknown) => error,
      );
    const underWay = refusal(threads.read(NESTED));
    const waiting = refusal(threads.read('<p>Waiting.</p>'));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await threads.close();
    expect(await underWay).toBeInstanceOf(ReadingThreadsClosedError);
    expect(await waiting).toBeInstanceOf(ReadingThreadsClosedError);
    await expect(threads.read('<p>Later.</p>')).rejects.toBeInstanceOf(ReadingThreadsClosedError);
  });
});
