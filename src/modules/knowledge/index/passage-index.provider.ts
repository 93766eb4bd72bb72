import { Provider } from '@nestjs/common';
import { Database } from '@/database/database.service';
import { Fts5Index } from './fts5-index';
import { PassageIndex } from './passage-index';
import { TsvectorIndex } from './tsvector-index';

/** The passage index of the engine the service runs on, chosen once. */
export const passageIndexProvider: Provider = {
  provide: PassageIndex,
  inject: [Database],
  useFactory: (db: Database): PassageIndex =>
    db.dialect.engine === 'postgres' ? new TsvectorIndex(db) : new Fts5Index(db),
};
