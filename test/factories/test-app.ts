import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import request, { Test } from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '@/app.module';
import { configureApp } from '@/app.setup';
import { loadAppConfig } from '@/config/app-config';
import { ApiKeysService } from '@/modules/auth/api-keys.service';
import { Scope } from '@/modules/auth/scopes';
import { TeamsService } from '@/modules/auth/teams.service';
import { API } from '../support/api-client';
import { sharedFakeProviders } from '../support/fake-providers';
import { randomApiKey } from '../support/keys';
import {
  appLogFile,
  recordHttpExchanges,
  recordSecret,
  recordSecretSettings,
} from '../support/log-capture';
import { copyMigratedTemplate } from './template-database';
import { createTestDatabase, TestDatabase } from './test-database';

export { API };

export interface TeamKey {
  teamId: string;
  keyId: string;
  key: string;
}

/** Supertest requests that carry `Authorization: Bearer <key>`; everything else is supertest's. */
export interface AuthenticatedRequests {
  get(path: string): Test;
  post(path: string): Test;
  put(path: string): Test;
  patch(path: string): Test;
  delete(path: string): Test;
  head(path: string): Test;
}

export interface TestApp {
  app: NestExpressApplication;
  url: string;
  /** The bootstrap key: scope `*` in team `default`. */
  key: string;
  env: Record<string, string>;
  http(): ReturnType<typeof request>;
  /** Requests authenticated with `key` (the bootstrap key by default). */
  api(key?: string): AuthenticatedRequests;
  /** A new key, in `team` (created when missing). */
  createKey(team: string, scopes: Scope[], expiresAt?: Date | null): Promise<TeamKey>;
  dataSource(): DataSource;
  /** The log lines written since this application started (by it and by any other of this worker). */
  logLines(): string[];
  /** Stops the application and keeps its database. */
  stop(): Promise<void>;
  /** Stops the application and drops its database. */
  close(): Promise<void>;
}

function authenticated(url: string, key: string): AuthenticatedRequests {
  const http = request(url);
  const withKey = (test: Test) => test.set('Authorization', `Bearer ${key}`);
  return {
    get: (path) => withKey(http.get(path)),
    post: (path) => withKey(http.post(path)),
    put: (path) => withKey(http.put(path)),
    patch: (path) => withKey(http.patch(path)),
    delete: (path) => withKey(http.delete(path)),
    head: (path) => withKey(http.head(path)),
  };
}

/**
 * The application as shipped (same module, same setup), on a fresh database (a copy of the
 * worker's migrated template), over real HTTP, on a free port of 127.0.0.1 (or on `PORT` when
 * the overrides give one).
 */
export async function startTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const database: TestDatabase = overrides.DATABASE_URL
    ? { url: overrides.DATABASE_URL, drop: async () => undefined }
    : ((await copyMigratedTemplate()) ?? (await createTestDatabase()));
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    CONSOLE_BOOTSTRAP_KEY: randomApiKey(),
    CONSOLE_SECRET_KEY: randomBytes(32).toString('hex'),
    // Every line is kept, so that the run can check that none of them holds a secret.
    LOG_LEVEL: 'debug',
    LOG_FILE: appLogFile(),
    // Test servers (MCP, custom APIs) listen on 127.0.0.1; the SSRF suite turns this off.
    OUTBOUND_ALLOW_PRIVATE: 'true',
    // Connectors check their keys with the provider: a local fake stands in for each.
    ...(await sharedFakeProviders()).env,
    ...overrides,
  };
  recordSecretSettings(env);
  const logStart = existsSync(env.LOG_FILE) ? statSync(env.LOG_FILE).size : 0;
  const config = loadAppConfig(env);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: false,
  });
  app.use(recordHttpExchanges);
  configureApp(app);
  // A port of its own only when asked (PORT), e.g. for a PUBLIC_URL known before it starts.
  await app.listen(overrides.PORT ? Number(overrides.PORT) : 0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    app,
    url,
    key: env.CONSOLE_BOOTSTRAP_KEY,
    env,
    http: () => request(url),
    api: (key = env.CONSOLE_BOOTSTRAP_KEY) => authenticated(url, key),
    async createKey(team, scopes, expiresAt = null) {
      const teamRecord = await app.get(TeamsService).ensure(team);
      const { record, key } = await app
        .get(ApiKeysService)
        .create(teamRecord.id, scopes, expiresAt);
      recordSecret('api key', key);
      return { teamId: teamRecord.id, keyId: record.id, key };
    },
    dataSource: () => app.get(DataSource),
    logLines: () =>
      readFileSync(env.LOG_FILE).subarray(logStart).toString('utf8').split('\n').filter(Boolean),
    stop: () => app.close(),
    async close() {
      try {
        await app.close();
      } finally {
        await database.drop();
      }
    },
  };
}
