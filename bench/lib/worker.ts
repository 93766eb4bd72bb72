import { ManagedProcess } from '../../test/support/managed-process';
import { forkBenchScript } from './processes';

export interface WorkerMessage {
  type: string;
}

export interface WorkerFailure {
  type: 'failed';
  message: string;
}

/**
 * The parent's side of a bench worker process (load generator, SSE client): send it commands,
 * wait for its answers. Every wait is bounded, so a stuck worker cannot stall the suite.
 */
export class Worker<In extends WorkerMessage, Out extends WorkerMessage> {
  private readonly inbox: (Out | WorkerFailure)[] = [];
  private wake: (() => void) | undefined;
  private exited = false;

  private constructor(private readonly managed: ManagedProcess) {
    managed.child.on('message', (message) => {
      this.inbox.push(message as Out | WorkerFailure);
      this.wake?.();
    });
    void managed.exited.then(() => {
      this.exited = true;
      this.wake?.();
    });
  }

  static start<In extends WorkerMessage, Out extends WorkerMessage>(
    name: string,
    script: string,
  ): Worker<In, Out> {
    return new Worker<In, Out>(forkBenchScript(name, script, { NODE_ENV: 'production' }));
  }

  send(message: In): void {
    this.managed.child.send(message);
  }

  /** The next message of `type`; a failure reported by the worker is thrown here. */
  async receive<T extends Out['type']>(
    type: T,
    timeoutMs: number,
  ): Promise<Extract<Out, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.inbox.findIndex((m) => m.type === type || m.type === 'failed');
      if (index !== -1) {
        const [message] = this.inbox.splice(index, 1);
        if (message.type === 'failed') {
          throw new Error(`${this.managed.name}: ${(message as WorkerFailure).message}`);
        }
        return message as Extract<Out, { type: T }>;
      }
      if (this.exited) {
        throw new Error(`${this.managed.name} exited early:\n${this.managed.tail()}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`${this.managed.name}: no '${type}' within ${timeoutMs} ms`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  async stop(): Promise<void> {
    await this.managed.stop();
  }
}

/** The worker's side: handle the parent's commands, report failures instead of dying silently. */
export function serveParent<In extends WorkerMessage>(
  handle: (message: In) => Promise<WorkerMessage | undefined>,
): void {
  const reply = (message: WorkerMessage) => process.send?.(message);
  process.on('message', (message) => {
    handle(message as In).then(
      (answer) => answer && reply(answer),
      (error: unknown) =>
        reply({
          type: 'failed',
          message: String((error as Error)?.stack ?? error),
        } as WorkerFailure),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
