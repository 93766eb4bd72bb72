import { LoggerService } from '@nestjs/common';

/** Nest's start-up chatter: one line per module, controller and route (about a hundred). */
const FRAMEWORK_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * The application's logger as Nest's own: what Nest says at info about its start-up is logged at
 * debug, so that the start is one line of ours (main.ts) unless LOG_LEVEL=debug.
 */
export class FrameworkQuietingLogger implements LoggerService {
  constructor(private readonly logger: Required<LoggerService>) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    if (typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context)) {
      this.logger.debug(message, ...params);
    } else {
      this.logger.log(message, ...params);
    }
  }

  error(message: unknown, ...params: unknown[]): void {
    this.logger.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.logger.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.logger.debug(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.logger.verbose(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.logger.fatal(message, ...params);
  }
}
