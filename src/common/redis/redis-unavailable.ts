import { ApiError, Errors } from '../http/api-error';

/** Runs a Redis command; if Redis cannot answer, the request fails with a clear 503. */
export async function requireRedis<T>(command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof ApiError) {
      throw error;
    }
    throw Errors.unavailable('Shared state (Redis) is unreachable; try again shortly');
  }
}
