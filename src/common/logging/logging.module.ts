import { Module, RequestMethod } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { LoggerModule } from 'nestjs-pino';
import type { Options } from 'pino-http';
import { destination, DestinationStream } from 'pino';
import { AppConfig } from '@/config/app-config';
import { InvalidEnvironmentError } from '@/config/environment';

interface SerializedRequest {
  method: string;
  url: string;
}

/** Paths only: query strings can carry stream tickets, and headers carry keys. */
function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}

/** Added when the line is written, rather than bound to a child logger on every request. */
function withKeyId(req: IncomingMessage, line: Record<string, unknown>): Record<string, unknown> {
  const keyId = (req as Request).principal?.keyId;
  return keyId ? { ...line, api_key_id: keyId } : line;
}

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
 * A 502 is another service failing (an MCP server, a customer's API): worth a warning, not an
 * error of this one. 501 is the contract's answer for calls.
 */
function accessLogLevel(status: number, error: Error | undefined): 'error' | 'warn' | 'info' {
  if (error || (status >= 500 && status !== 501 && status !== 502)) {
    return 'error';
  }
  return status === 502 ? 'warn' : 'info';
}

@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const logFile = config.logging.file;
        const options: Options = {
          level: config.logging.level,
          quietReqLogger: true,
          redact: ['err.parameters', 'err.query', 'err.driverError.parameters'],
          customAttributeKeys: { reqId: 'request_id', responseTime: 'duration_ms' },
          serializers: {
            req: (req: SerializedRequest) => ({ method: req.method, path: pathOf(req.url) }),
            res: (res: { statusCode: number }) => ({ status: res.statusCode }),
          },
          // 'silent' when the line would be dropped anyway: pino-http then skips building it.
          customLogLevel: (req, res, error) => {
            const level = accessLogLevel(res.statusCode, error);
            return req.log.isLevelEnabled(level) ? level : 'silent';
          },
          customSuccessObject: (req, _res, line: Record<string, unknown>) => withKeyId(req, line),
          // The exception filter logs the real error with its stack; the access line needs none.
          customErrorObject: (req, _res, _error, line: Record<string, unknown>) => {
            const { err: _err, ...rest } = line;
            return withKeyId(req, rest);
          },
          customSuccessMessage: (req, res) =>
            `${req.method} ${pathOf(req.url ?? '')} ${res.statusCode}`,
          customErrorMessage: (req, res) =>
            `${req.method} ${pathOf(req.url ?? '')} ${res.statusCode}`,
        };
        return {
          forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
          pinoHttp: logFile ? [options, fileDestination(logFile)] : options,
        };
      },
    }),
  ],
})
export class LoggingModule {}
