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

const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/**
 * Added when the line is written, rather than bound to a child logger on every request. The
 * client's address is Express's `req.ip`, which follows TRUST_PROXY.
 */
function withRequestFacts(
  req: IncomingMessage,
  line: Record<string, unknown>,
): Record<string, unknown> {
  const { principal, ip, headers } = req as Request;
  const userAgent = headers['user-agent'];
  const traceId = (req as Request).traceId;
  return {
    ...line,
    ...(principal?.keyId ? { api_key_id: principal.keyId } : {}),
    client_ip: ip ?? req.socket?.remoteAddress,
    ...(userAgent ? { user_agent: userAgent.slice(0, 256) } : {}),
    ...(traceId ? { trace_id: traceId } : {}),
  };
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

/** Probes come every few seconds from every balancer: logged at debug while they succeed. */
function isProbe(req: IncomingMessage): boolean {
  return PROBE_PATHS.has(pathOf(req.url ?? ''));
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
            const level =
              isProbe(req) && res.statusCode < 400
                ? 'debug'
                : accessLogLevel(res.statusCode, error);
            return req.log.isLevelEnabled(level) ? level : 'silent';
          },
          customSuccessObject: (req, _res, line: Record<string, unknown>) =>
            withRequestFacts(req, line),
          // The exception filter logs the real error with its stack; the access line needs none.
          customErrorObject: (req, _res, _error, line: Record<string, unknown>) => {
            const { err: _err, ...rest } = line;
            return withRequestFacts(req, rest);
          },
          customSuccessMessage: (req, res) =>
            `${req.method} ${pathOf(req.url ?? '')} ${res.statusCode}`,
          customErrorMessage: (req, res) =>
            `${req.method} ${pathOf(req.url ?? '')} ${res.statusCode}`,
        };
        const stream = output(config);
        return {
          forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
          pinoHttp: stream ? [options, stream] : options,
        };
      },
    }),
  ],
})
export class LoggingModule {}
