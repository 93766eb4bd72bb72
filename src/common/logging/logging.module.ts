import { Module, RequestMethod } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request } from 'express';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '@/config/config.module';

interface SerializedRequest {
  method: string;
  url: string;
}

/** Paths only: query strings can carry stream tickets, and headers carry keys. */
function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}

@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: AppConfig) => ({
        forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
        pinoHttp: {
          level: config.get('LOG_LEVEL', { infer: true }),
          quietReqLogger: true,
          redact: ['err.parameters', 'err.query', 'err.driverError.parameters'],
          customAttributeKeys: { reqId: 'request_id', responseTime: 'duration_ms' },
          customProps: (req) => {
            const keyId = (req as Request).principal?.keyId;
            return keyId ? { api_key_id: keyId } : {};
          },
          serializers: {
            req: (req: SerializedRequest) => ({ method: req.method, path: pathOf(req.url) }),
            res: (res: { statusCode: number }) => ({ status: res.statusCode }),
          },
          customLogLevel: (_req, res, error) =>
            error || (res.statusCode >= 500 && res.statusCode !== 501) ? 'error' : 'info',
          // The exception filter logs the real error with its stack; the access line needs none.
          customErrorObject: (_req, _res, _error, line: Record<string, unknown>) => {
            const { err: _err, ...rest } = line;
            return rest;
          },
          customSuccessMessage: (req, res) =>
            `${req.method} ${pathOf(req.url ?? '')} ${res.statusCode}`,
          customErrorMessage: (req, res) =>
            `${req.method} ${pathOf(req.url ?? '')} ${res.statusCode}`,
        },
      }),
    }),
  ],
})
export class LoggingModule {}
