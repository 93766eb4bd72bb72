import { Platform1732262400000 } from './1732262400000-platform';
import { Agents1732348800000 } from './1732348800000-agents';
import { Conversations1732435200000 } from './1732435200000-conversations';

/** Every migration, oldest first. */
export const MIGRATIONS = [Platform1732262400000, Agents1732348800000, Conversations1732435200000];
