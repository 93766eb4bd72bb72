/** What an agent's channel says while it is not active (docs/api.md §4d). */
export const NOT_CONNECTED = 'Not connected';
export const CALLS_UNAVAILABLE =
  'Calls are not available: phone numbers can be requested, calls are not answered yet';
export const DISCONNECTED = 'Disconnected';
