import type { Type } from '@nestjs/common';

/**
 * How a command's action reaches the application's services. The application context (database,
 * Redis) is only built when an action first asks, so that `--help` or a mistyped option never
 * connects to anything.
 */
export interface CliServices {
  get<T>(type: Type<T>): Promise<T>;
}
