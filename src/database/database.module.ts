import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@/config/config.module';
import { dataSourceOptions } from './data-source-options';
import { Database } from './database.service';
import { migrate } from './migrate';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(
          config.get('DATABASE_URL', { infer: true }),
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
