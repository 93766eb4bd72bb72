export const SCOPES = [
  'workflows:read',
  'workflows:write',
  'agents:read',
  'agents:write',
  'conversations:read',
  'conversations:write',
  'calls:read',
  'calls:write',
  'webhooks:read',
  'webhooks:write',
  'phone_numbers:read',
  'phone_numbers:write',
  'channels:write',
  'inbox:write',
  'settings:read',
  'settings:write',
  '*',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function grants(scopes: readonly string[], required: Scope): boolean {
  return scopes.includes('*') || scopes.includes(required);
}
