import { INestApplication, RequestMethod } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Request } from 'express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { accessLog } from './common/logging/access-log';
import { FrameworkQuietingLogger } from './common/logging/framework-quieting-logger';
import { ROOT_LOGGER } from './common/logging/logging.module';
import { MetricsService } from './common/metrics/metrics.service';
import { answerClientErrorsWithContractBody } from './common/server/client-error';
import { jsonBody } from './common/server/json-body';
import { malformedPathMiddleware } from './common/server/malformed-path';
import { requestIdMiddleware } from './common/http/request-id';
import { traceContextMiddleware } from './common/tracing/trace-context.middleware';
import { RESPONSE_HEADERS } from './common/http/response-headers.docs';
import { AppConfig } from './config/app-config';
import { API_KEY_SECURITY } from './modules/auth/require-scopes.decorator';
import { WIDGET_API_PREFIX } from './modules/widget/widget-cors';

export const API_PREFIX = 'api/v1/console';

/** Everything main.ts and the tests both need, so that tests run the application as shipped. */
export function configureApp(app: NestExpressApplication): INestApplication {
  const { http } = app.get(AppConfig);
  app.useLogger(new FrameworkQuietingLogger(app.get(Logger)));
  app.flushLogs();
  app.disable('x-powered-by');
  app.set('trust proxy', http.trustProxy);
  app.set('etag', false);
  answerClientErrorsWithContractBody(app.getHttpServer());
  app.use(requestIdMiddleware);
  app.use(traceContextMiddleware);
  app.use(accessLog(app.get(ROOT_LOGGER)));
  app.use(app.get(MetricsService).requestTimer());
  app.use(securityHeaders(http.corsOrigins !== undefined));
  app.use(malformedPathMiddleware);
  app.use(jsonBody(http.bodyLimitBytes));
  if (http.corsOrigins) {
    const consoleCors = {
      origin: http.corsOrigins === '*' ? true : http.corsOrigins,
      exposedHeaders: Object.keys(RESPONSE_HEADERS),
      maxAge: 600,
    };
    // The widget's API answers CORS for each web chat's own origins (see the widget module).
    app.enableCors((req: Request, callback) =>
      callback(null, req.url.startsWith(`/${WIDGET_API_PREFIX}/`) ? { origin: false } : consoleCors),
    );
  }
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      { path: 'healthz', method: RequestMethod.GET },
      { path: 'readyz', method: RequestMethod.GET },
      { path: 'widget.js', method: RequestMethod.GET },
      { path: `${WIDGET_API_PREFIX}/*path`, method: RequestMethod.ALL },
      { path: 'api/v1/channels/*path', method: RequestMethod.ALL },
    ],
  });
  setUpOpenApi(app);
  return app;
}

/**
 * helmet's defaults, for the JSON API and the docs page alike: the docs page loads only its own
 * scripts and styles (swagger-ui-init.js, no inline script), so the default Content-Security-Policy
 * fits it. With CORS on, other origins' pages may read the responses, so the
 * Cross-Origin-Resource-Policy must let them.
 */
function securityHeaders(corsEnabled: boolean) {
  return helmet({
    crossOriginResourcePolicy: { policy: corsEnabled ? 'cross-origin' : 'same-origin' },
  });
}

/** The document is built on its first request: building it costs a fair part of start-up. */
function setUpOpenApi(app: INestApplication): void {
  const buildDocument = () => {
    const document = SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Console API')
        .setDescription(
          'Manage AI agents, workflows, conversations and call history. Authenticate with a team ' +
            'API key as `Authorization: Bearer <key>` or `X-Api-Key: <key>`.',
        )
        .setVersion('1')
        .addServer('/', 'The host serving this document')
        .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'sk_…' })
        .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }, API_KEY_SECURITY)
        .build(),
      // Handlers are named for what they do to which resource (`createWorkflow`): that is the id.
      { operationIdFactory: (_controllerKey, methodKey) => methodKey },
    );
    document.components = { ...document.components, headers: RESPONSE_HEADERS };
    return document;
  };
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, buildDocument, {
    jsonDocumentUrl: `${API_PREFIX}/openapi.json`,
    raw: ['json'],
  });
}
