import { Worker } from 'node:worker_threads';

/** What a thread posts: once that it has loaded, then one reply per page. */
export type ThreadReply = { ready: true } | { text: string } | { failed: true };

/** A page's text, or why a thread gave none. */
export type ThreadOutcome =
  | { text: string; failure?: undefined }
  | { text?: undefined; failure: 'timeout' | 'out_of_memory' | 'failed' };

export interface ReadingThreadsOptions {
  /** The thread's entry file, and the Node options it needs to load. */
  script: string;
  execArgv: string[];
  threads: number;
  heapMb: number;
  /** A page's time cap, counted from when a loaded thread takes it. */
  timeoutMs: number;
  /** An idle thread is stopped after this long, giving back the heap its last page grew. */
  idleMs: number;
}

interface Job {
  html: string;
  resolve(outcome: ThreadOutcome): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  /** Loading its modules; ready for a page (or reading one); being terminated. */
  state: 'loading' | 'ready' | 'stopping';
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/** Thrown for pages asked for or under way once the threads were closed (the process stops). */
export class ReadingThreadsClosedError extends Error {
  constructor() {
    super('The page-reading threads are closed');
  }
}

/**
 * A small pool of worker threads reading HTML pages, one page per thread at a time, the others
 * waiting in order. A thread still reading when the time cap runs out is terminated, which stops
 * even a busy loop, and a fresh one takes its place for the next page.
 */
export class ReadingThreads {
  private readonly threads = new Set<Thread>();
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(private readonly options: ReadingThreadsOptions) {}

  read(html: string): Promise<ThreadOutcome> {
    if (this.closed) {
      return Promise.reject(new ReadingThreadsClosedError());
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ html, resolve, reject });
      this.pump();
    });
  }

  /** Terminates every thread, mid-page too, and refuses the pages still waiting. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      job.reject(new ReadingThreadsClosedError());
    }
    const threads = [...this.threads];
    for (const thread of threads) {
      this.finish(thread, null);
    }
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private pump(): void {
    while (!this.closed && this.queue.length > 0) {
      const idle = [...this.threads].find((thread) => thread.state === 'ready' && !thread.job);
      if (idle) {
        this.start(idle, this.queue.shift()!);
      } else if (this.threads.size < this.options.threads) {
        this.spawn();
      } else {
        return;
      }
    }
  }

  private start(thread: Thread, job: Job): void {
    if (thread.timer) {
      clearTimeout(thread.timer);
    }
    thread.job = job;
    thread.worker.ref();
    thread.timer = setTimeout(() => {
      this.finish(thread, { failure: 'timeout' });
      this.stop(thread);
    }, this.options.timeoutMs);
    thread.worker.postMessage(job.html);
  }

  /** Settles the thread's page, if any (`null`: refused, the threads closing). */
  private finish(thread: Thread, outcome: ThreadOutcome | null): void {
    const job = thread.job;
    if (thread.timer) {
      clearTimeout(thread.timer);
      thread.timer = null;
    }
    thread.job = null;
    if (job) {
      if (outcome) {
        job.resolve(outcome);
      } else {
        job.reject(new ReadingThreadsClosedError());
      }
    }
  }

  /** Waits for the next page; an idle thread does not hold the process open. */
  private idle(thread: Thread): void {
    thread.worker.unref();
    thread.timer = setTimeout(() => this.stop(thread), this.options.idleMs);
    thread.timer.unref();
    this.pump();
  }

  private stop(thread: Thread): void {
    thread.state = 'stopping';
    void thread.worker.terminate();
  }

  private spawn(): void {
    const worker = new Worker(this.options.script, {
      execArgv: this.options.execArgv,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
    });
    const thread: Thread = { worker, state: 'loading', job: null, timer: null };
    this.threads.add(thread);
    worker.on('message', (reply: ThreadReply) => {
      if ('ready' in reply) {
        thread.state = 'ready';
      } else {
        this.finish(thread, 'text' in reply ? { text: reply.text } : { failure: 'failed' });
      }
      this.idle(thread);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      // The thread is ending: no page may be given to it before its 'exit'.
      if (thread.state === 'ready') {
        thread.state = 'stopping';
      }
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.finish(thread, { failure: outOfMemory ? 'out_of_memory' : 'failed' });
    });
    worker.on('exit', () => {
      this.threads.delete(thread);
      this.finish(thread, { failure: 'failed' });
      if (thread.state === 'loading') {
        // A thread that cannot even load would fail every page: the waiting ones fail now.
        for (const job of this.queue.splice(0)) {
          job.resolve({ failure: 'failed' });
        }
      }
      this.pump();
    });
  }
}
