import { Platform1732262400000 } from './1732262400000-platform';

/** Every migration, oldest first. */
export const MIGRATIONS = [Platform1732262400000];
