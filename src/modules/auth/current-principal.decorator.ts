import { requestValue } from '@/common/http/request-value';

const NO_CALLER = 'CurrentPrincipal used on a route without an authenticated caller';

/** The authenticated caller; only on routes behind the API-key guard. */
export const CurrentPrincipal = requestValue('principal', NO_CALLER, (principal) => principal);

/** The caller's team, which scopes everything the route reads or writes. */
export const TeamId = requestValue('principal', NO_CALLER, (principal) => principal.teamId);
