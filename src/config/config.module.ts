import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config';
import { resolveSecretKey } from './secret-key';

export const SECRET_KEY = Symbol('SECRET_KEY');

@Global()
@Module({})
export class AppConfigModule {
  /** `config` is loaded by the entry point (main.ts, cli.ts, the test factory), once. */
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppConfigModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: SECRET_KEY, useFactory: () => resolveSecretKey(config) },
      ],
      exports: [AppConfig, SECRET_KEY],
    };
  }
}
