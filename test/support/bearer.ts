export function bearer(key: string): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}
