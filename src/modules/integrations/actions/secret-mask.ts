/** What stands in a result or an error for a credential of the integration. */
export const REDACTED = '[redacted]';

/** Fields of an auth configuration that name something rather than hold a secret. */
const NOT_SECRET = new Set(['header_name', 'username']);

function stringLeaves(value: unknown, into: string[]): void {
  if (typeof value === 'string') {
    into.push(value);
  } else if (Array.isArray(value)) {
    value.forEach((item) => stringLeaves(item, into));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!NOT_SECRET.has(key)) {
        stringLeaves(item, into);
      }
    }
  }
}

/** The forms a credential is seen in: as sent, URL-encoded, inside a JSON string, as base64. */
function formsOf(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret).toString('base64'),
  ];
}

/**
 * Masks every secret of an integration in what its calls brought back: a server may echo the
 * credentials it was sent (a bearer token, a basic-auth header it decodes), and what an action
 * hands back is stored, streamed, sent to the model and put in webhook events.
 */
export class SecretMask {
  private readonly forms: string[];

  /** `configs`: opened secret settings (auth configs, a connector's keys). */
  constructor(configs: Array<Record<string, unknown>>) {
    const secrets: string[] = [];
    for (const config of configs) {
      stringLeaves(config, secrets);
      if (typeof config.username === 'string' && typeof config.password === 'string') {
        // A basic-auth pair, also as its header carries it and as a server decodes it.
        secrets.push(`${config.username}:${config.password}`);
      }
    }
    this.forms = [...new Set(secrets.filter((secret) => secret.length > 0).flatMap(formsOf))]
      .filter((form) => form.length > 0)
      // Longest first: a secret that holds another is masked whole.
      .sort((a, b) => b.length - a.length);
  }

  text(text: string): string {
    let out = text;
    for (const form of this.forms) {
      if (out.includes(form)) {
        out = out.split(form).join(REDACTED);
      }
    }
    return out;
  }

  /** `value` with every string in it (object keys too) masked. */
  value(value: unknown): unknown {
    if (this.forms.length === 0) {
      return value;
    }
    if (typeof value === 'string') {
      return this.text(value);
    }
    if (Array.isArray(value)) {
      return value.map((item) => this.value(item));
    }
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [this.text(key), this.value(item)]),
      );
    }
    return value;
  }
}
