const MAX_ACTION_NAME = 128;

/** `Create Payment Link!` → `create_payment_link`: the name a model or a workflow calls it by. */
export function toActionName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_ACTION_NAME);
  return slug || 'action';
}
