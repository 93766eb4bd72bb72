import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '@/config/app-config';
import { SECRET_KEY } from '@/config/config.module';
import { ConsoleDataSource, ENTITY_FILES } from './console-data-source';
import { dataSourceOptions } from './data-source-options';
import { Database } from './database.service';
import { watchDatabaseConnections } from './database-trouble';
import { migrate } from './migrate';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig, SECRET_KEY],
      useFactory: (config: AppConfig, secretKey: Buffer) => ({
        ...dataSourceOptions(config.database.url, secretKey, config.database.poolSize),
        entities: [ENTITY_FILES],
        retryAttempts: 0,
      }),
      dataSourceFactory: async (options) => {
        const dataSource = await new ConsoleDataSource(options!).initialize();
        await migrate(dataSource);
        watchDatabaseConnections(dataSource);
        return dataSource;
      },
    }),
  ],
  providers: [Database],
  exports: [Database],
})
export class DatabaseModule {}
