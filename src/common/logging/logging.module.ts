import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino, { destination, DestinationStream, Logger, LoggerOptions } from 'pino';
import { AppConfig } from '@/config/app-config';
import { InvalidEnvironmentError } from '@/config/environment-validation';

const fileDestinations = new Map<string, DestinationStream>();

/**
 * `LOG_FILE` is opened once per process and kept open like stdout, since a log line can still be
 * written while the application closes; the test suites start many applications in one process.
 * Writes are synchronous, as on stdout, so no line is lost when the process exits.
 */
function fileDestination(path: string): DestinationStream {
  let stream = fileDestinations.get(path);
  if (!stream) {
    try {
      stream = destination({ dest: path, mkdir: true, sync: true });
    } catch (error) {
      throw new InvalidEnvironmentError([
        `LOG_FILE: cannot be opened (${(error as NodeJS.ErrnoException).code})`,
      ]);
    }
    fileDestinations.set(path, stream);
  }
  return stream;
}

/**
 * Readable lines (pino-pretty) when asked, or by default when stdout is a terminal; JSON lines
 * otherwise, for a log collector.
 */
function prettyWanted(config: AppConfig): boolean {
  const { format, file } = config.logging;
  return format === 'pretty' || (format === 'auto' && !file && Boolean(process.stdout.isTTY));
}

function output(config: AppConfig): DestinationStream | undefined {
  const file = config.logging.file && fileDestination(config.logging.file);
  if (!prettyWanted(config)) {
    return file || undefined;
  }
  // Loaded only when wanted: it takes a while to load.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pinoPretty = require('pino-pretty') as typeof import('pino-pretty');
  return pinoPretty({
    destination: file || 1,
    sync: true,
    colorize: !file && Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res',
    singleLine: true,
  });
}

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * The process's pino logger. Access lines are written by access-log.ts, applied in app.setup.ts;
 * nestjs-pino (`useExisting`) only makes each request's logger the application's logger while the
 * request is served, so that lines logged meanwhile carry its `request_id`.
 */
@Module({
  providers: [
    {
      provide: ROOT_LOGGER,
      inject: [AppConfig],
      useFactory: (config: AppConfig): Logger => {
        const options: LoggerOptions = {
          level: config.logging.level,
          redact: ['err.parameters', 'err.query', 'err.driverError.parameters'],
        };
        const stream = output(config);
        return stream ? pino(options, stream) : pino(options);
      },
    },
  ],
  exports: [ROOT_LOGGER],
})
class RootLoggerModule {}

@Module({
  imports: [
    RootLoggerModule,
    LoggerModule.forRootAsync({
      imports: [RootLoggerModule],
      inject: [ROOT_LOGGER],
      useFactory: (root: Logger) => ({
        pinoHttp: { logger: root },
        useExisting: true,
        forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
      }),
    }),
  ],
  exports: [RootLoggerModule],
})
export class LoggingModule {}
