import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { ReadingThreads, ReadingThreadsClosedError } from './reading-threads';

/** The text of an HTML page, or why it was not read. */
export type ReadOutcome = { text: string; error?: undefined } | { text?: undefined; error: string };

/** Threads that read pages: at most two, and one core left to the event loop. */
const THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
/** A thread's heap: a page that needs more fails rather than swelling the process. */
const THREAD_HEAP_MB = 512;
const IDLE_THREAD_MS = 30_000;

/**
 * Run from source (the test runner, ts-node) this module is TypeScript, and so is the thread's
 * entry, which then needs ts-node to load; built, both are JavaScript side by side in dist.
 */
function threadEntry(): { script: string; execArgv: string[] } {
  const fromSource = __filename.endsWith('.ts');
  return {
    script: join(__dirname, `readable-text.thread${fromSource ? '.ts' : '.js'}`),
    execArgv: fromSource ? ['--require', require.resolve('ts-node/register/transpile-only')] : [],
  };
}

function mebibytes(bytes: number): string {
  return `${Number((bytes / 1024 / 1024).toFixed(2))} MiB`;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * Reads the text of fetched HTML pages off the event loop (see ReadingThreads), each page within
 * a size cap, checked before parsing, and a time cap: the event loop, and so every request of
 * every team, never waits on a page.
 */
@Injectable()
export class PageReader implements OnModuleDestroy {
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private threads?: ReadingThreads;
  private closed = false;

  constructor(config: AppConfig) {
    this.timeoutMs = config.knowledge.readTimeoutMs;
    this.maxBytes = config.knowledge.pageMaxBytes;
  }

  /** The longest a page can take here: its own cap, after those of the pages ahead of it. */
  longestMs(pagesAhead: number): number {
    return this.timeoutMs * (Math.ceil(pagesAhead / THREADS) + 1);
  }

  /** `bytes`: the size of the page as downloaded. Throws once the module is destroyed. */
  async read(html: string, bytes: number): Promise<ReadOutcome> {
    if (bytes > this.maxBytes) {
      return { error: `the page is larger than ${mebibytes(this.maxBytes)} of HTML` };
    }
    const outcome = await this.pool().read(html);
    switch (outcome.failure) {
      case undefined:
        return { text: outcome.text };
      case 'timeout':
        return { error: `the page took longer than ${seconds(this.timeoutMs)} to read` };
      case 'out_of_memory':
        return { error: `the page needs more than ${THREAD_HEAP_MB} MiB of memory to read` };
      case 'failed':
        return { error: 'the page could not be read as HTML' };
    }
  }

  /** Made on the first page, so that an instance that reads none runs no thread. */
  private pool(): ReadingThreads {
    if (this.closed) {
      throw new ReadingThreadsClosedError();
    }
    this.threads ??= new ReadingThreads({
      ...threadEntry(),
      threads: THREADS,
      heapMb: THREAD_HEAP_MB,
      timeoutMs: this.timeoutMs,
      idleMs: IDLE_THREAD_MS,
    });
    return this.threads;
  }

  /** Stops the threads at once, mid-page too: a shutdown never waits on a page. */
  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    await this.threads?.close();
  }
}
