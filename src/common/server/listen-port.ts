import { createServer } from 'node:net';
import { StartupError } from '@/config/startup-error';

const LISTEN_PROBLEMS: Record<string, (port: number, host: string) => string> = {
  EADDRINUSE: (port) => `PORT: port ${port} is in use; stop what holds it or set another PORT`,
  EACCES: (port) => `PORT: port ${port} needs privileges this process does not have`,
  EADDRNOTAVAIL: (_port, host) => `HOST: ${host} is not an address of this machine`,
};

/** Why the server cannot listen on `port`, told in one line; other errors are left as they are. */
export function listenProblem(error: Error, port: number, host: string): Error {
  const problem = LISTEN_PROBLEMS[(error as NodeJS.ErrnoException).code ?? ''];
  return problem ? new StartupError(problem(port, host)) : error;
}

/**
 * Fails the start while nothing has happened yet (no migration run, no key created or printed)
 * when the port cannot be listened on.
 */
export function assertCanListen(port: number, host: string): Promise<void> {
  if (port === 0) {
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => reject(listenProblem(error, port, host)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
