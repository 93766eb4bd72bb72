import { INestApplication, RequestMethod } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { answerClientErrorsWithContractBody } from './common/http/client-error';
import { jsonBody } from './common/http/json-body';
import { malformedPathMiddleware } from './common/http/malformed-path';
import { requestIdMiddleware } from './common/http/request-id';
import { RESPONSE_HEADERS } from './common/http/response-headers.docs';
import { AppConfig } from './config/app-config';
import { API_KEY_SECURITY } from './modules/auth/require-scopes.decorator';

export const API_PREFIX = 'api/v1/console';

/** Everything main.ts and the tests both need, so that tests run the application as shipped. */
export function configureApp(app: NestExpressApplication): INestApplication {
  const { http } = app.get(AppConfig);
  app.useLogger(app.get(Logger));
  app.flushLogs();
  app.disable('x-powered-by');
  app.set('trust proxy', http.trustProxy);
  app.set('etag', false);
  answerClientErrorsWithContractBody(app.getHttpServer());
  app.use(requestIdMiddleware);
  app.use(malformedPathMiddleware);
  app.use(jsonBody(http.bodyLimitBytes));
  if (http.corsOrigins) {
    app.enableCors({
      origin: http.corsOrigins === '*' ? true : http.corsOrigins,
      exposedHeaders: Object.keys(RESPONSE_HEADERS),
      maxAge: 600,
    });
  }
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      { path: 'healthz', method: RequestMethod.GET },
      { path: 'readyz', method: RequestMethod.GET },
    ],
  });
  setUpOpenApi(app);
  return app;
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
