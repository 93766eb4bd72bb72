import { SetMetadata } from '@nestjs/common';

export const RESPONSE_MESSAGE = 'console:response-message';
export const RAW_RESPONSE = 'console:raw-response';

/** The human-readable `message` of the route's success envelope. */
export const ResponseMessage = (message: string) => SetMetadata(RESPONSE_MESSAGE, message);

/** The route answers its own body, outside the envelope (health probes). */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);
