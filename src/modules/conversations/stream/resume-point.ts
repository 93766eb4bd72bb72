import { Errors } from '@/common/http/api-error';

/**
 * One resume point as the client gave it: absent, or a single value that is not empty. Anything
 * else is refused rather than read as "from now", which would silently skip what was asked for.
 */
function single(name: string, given: unknown): string | undefined {
  if (given === undefined) {
    return undefined;
  }
  const values: unknown[] = Array.isArray(given) ? given : [given];
  if (values.length !== 1 || typeof values[0] !== 'string') {
    throw Errors.validation([`${name}: must be given once`]);
  }
  if (values[0] === '') {
    throw Errors.validation([`${name}: must not be empty`]);
  }
  return values[0];
}

/** Where a stream resumes from: `Last-Event-ID` wins over `after`; undefined means "from now". */
export function resumePoint(after: unknown, lastEventId: string[] | undefined): string | undefined {
  const fromQuery = single('after', after);
  return single('Last-Event-ID', lastEventId) ?? fromQuery;
}
