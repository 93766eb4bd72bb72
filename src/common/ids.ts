import { v7 as uuidv7, validate as isUuid } from 'uuid';

/** Opaque record ids: UUIDv7, so that they sort by creation time. */
export function newId(): string {
  return uuidv7();
}

export function isId(value: unknown): value is string {
  return typeof value === 'string' && isUuid(value);
}

/** Ids are UUIDs, whose case does not matter: every id the API is given is compared lower-cased. */
export function canonicalId<T>(value: T): T | string {
  return isId(value) ? value.toLowerCase() : value;
}
