import type { Request } from 'express';
import { Principal } from '../http/principal';

/** Tells the platform who is calling, without the platform knowing how keys work. */
export interface PrincipalResolver {
  resolvePrincipal(req: Request): Promise<Principal | null>;
}

export const PRINCIPAL_RESOLVER = Symbol('PRINCIPAL_RESOLVER');
