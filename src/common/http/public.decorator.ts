import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'console:public';

/** The route takes no API key (health probes, the ticket-authenticated stream, unknown routes). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
