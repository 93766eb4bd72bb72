import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig, SECRET_KEY } from '@/config/config.module';
import { dataSourceOptions } from './data-source-options';
import { Database } from './database.service';
import { migrate } from './migrate';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService, SECRET_KEY],
      useFactory: (config: AppConfig, secretKey: Buffer) => ({
        ...dataSourceOptions(
          config.get('DATABASE_URL', { infer: true }),
          secretKey,
          config.get('DATABASE_POOL_SIZE', { infer: true }),
        ),
        autoLoadEntities: true,
        retryAttempts: 0,
      }),
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await migrate(dataSource);
        return dataSource;
      },
    }),
  ],
  providers: [Database],
  exports: [Database],
})
export class DatabaseModule {}
