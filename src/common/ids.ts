import { v7 as uuidv7, validate as isUuid } from 'uuid';

/** Opaque record ids: UUIDv7, so that they sort by creation time. */
export function newId(): string {
  return uuidv7();
}

export function isId(value: unknown): value is string {
  return typeof value === 'string' && isUuid(value);
}
