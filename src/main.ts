import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { InvalidEnvironmentError, validateEnvironment } from './config/environment';

async function bootstrap(): Promise<void> {
  const environment = validateEnvironment(process.env);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(process.env), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  configureApp(app);
  await app.listen(environment.PORT, environment.HOST ?? '0.0.0.0');
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(
    error instanceof InvalidEnvironmentError ? `${error.message}\n` : `Could not start: ${String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
});
