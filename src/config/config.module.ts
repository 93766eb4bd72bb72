import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { Environment, validateEnvironment } from './environment';
import { resolveSecretKey } from './secret-key';

export type AppConfig = ConfigService<Environment, true>;
export const SECRET_KEY = Symbol('SECRET_KEY');

@Global()
@Module({})
export class AppConfigModule {
  /** `env` defaults to the process environment; tests pass their own. */
  static forRoot(env: Record<string, string | undefined> = process.env): DynamicModule {
    const environment = validateEnvironment(env);
    return {
      module: AppConfigModule,
      imports: [
        ConfigModule.forRoot({
          ignoreEnvFile: true,
          ignoreEnvVars: true,
          skipProcessEnv: true,
          cache: true,
          validate: () => environment,
        }),
      ],
      providers: [{ provide: SECRET_KEY, useFactory: () => resolveSecretKey(environment) }],
      exports: [ConfigModule, SECRET_KEY],
    };
  }
}
