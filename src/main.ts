import 'reflect-metadata';
// First: reads .env and starts tracing before the modules it instruments load.
import './instrument';
import type { Server } from 'node:http';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { connectionDrain } from './common/server/connection-drain';
import { assertCanListen, listenProblem } from './common/server/listen-port';
import { reportStartupFailure } from '@/config/startup-error';
import { stopTracing } from './common/tracing/tracing-shutdown';
import { AppConfig, loadAppConfig } from './config/app-config';
import { describeDatabase, shapeOf } from './config/deployment';
import { ensureDataDirectory, parseDatabaseUrl } from './config/database-url';
import { databaseStartupProblem } from './database/startup-problem';

async function bootstrap(): Promise<void> {
  const config = loadAppConfig(process.env);
  const { port, host } = config.http;
  ensureDataDirectory(parseDatabaseUrl(config.database.url));
  await assertCanListen(port, host);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    // Nothing of Nest's own console logger: a failed start is told once, by reportStartupFailure;
    // lines logged while the application is built reach the application's logger once it is set.
    logger: false,
    bufferLogs: true,
    abortOnError: false,
  }).catch((error: unknown) => {
    throw databaseStartupProblem(error, config.database.url);
  });
  configureApp(app);
  closeOnSignals(app);
  await app.listen(port, host).catch((error: Error) => {
    throw listenProblem(error, port, host);
  });
  logStart(app, config);
}

/** The one line at info that says the service is up, where, and on what. */
function logStart(app: INestApplication, config: AppConfig): void {
  const { port, host } = config.http;
  const listen = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const database = describeDatabase(config.database.url);
  const shape = shapeOf(config);
  app
    .get(Logger)
    .log(
      { listen, database, shape, metrics_port: config.metrics.port ?? null },
      `Console API listening on ${listen} (${shape}, ${database})`,
      'Main',
    );
}

const SHUTDOWN_DEADLINE_MS = 10_000;

const IDLE_SWEEP_MS = 50;

/**
 * Closing a keep-alive connection that looks idle races with its client sending the next request
 * on it: that client sees a reset. For this long after the signal the open connections are still
 * served, and each response closes its connection, so busy connections end cleanly on their own.
 */
const DRAIN_GRACE_MS = 1_000;

/**
 * SIGTERM/SIGINT close the application and exit 0: the server stops accepting connections at once
 * and responses from then on close their connection; after a short grace open streams are ended, in-flight
 * requests finish, and each remaining keep-alive connection is closed as soon as it falls idle
 * (rather than after its keep-alive timeout). A shutdown that hangs is cut off at the deadline.
 */
function closeOnSignals(app: INestApplication): void {
  const server = app.getHttpServer() as Server;
  const drain = connectionDrain(server);
  const shutdown = (signal: NodeJS.Signals) => {
    app.get(Logger).log(`${signal} received, shutting down`);
    setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS).unref();
    drain.start();
    setTimeout(() => {
      setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
      app
        .close()
        .then(() => stopTracing())
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
    }, DRAIN_GRACE_MS);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

bootstrap().catch(reportStartupFailure);
