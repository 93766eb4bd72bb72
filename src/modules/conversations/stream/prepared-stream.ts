import { requestValue } from '@/common/http/request-value';
import { StreamGrant } from '@/common/state/ports';
import { StreamStart } from './conversation-stream';

/** A stream that passed every check and holds its slot; nothing has been written to the client. */
export interface PreparedStream {
  grant: StreamGrant;
  conversationId: string;
  start: StreamStart;
}

/** The stream StreamAccessGuard prepared for this request. */
export const PreparedStream = requestValue(
  'preparedStream',
  'PreparedStream used on a route without StreamAccessGuard',
  (stream) => stream,
);
