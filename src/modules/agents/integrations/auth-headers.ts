import { Errors } from '@/common/http/api-error';
import { AuthConfig, AuthType } from './dto/auth-config.dto';

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;
const MAX_SECRET_LENGTH = 4096;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\x00-\x1f\x7f]/;

function isHeaderValue(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= MAX_SECRET_LENGTH &&
    !CONTROL_CHARACTERS.test(value)
  );
}

function requireString(config: AuthConfig, key: string, authType: AuthType): string {
  const value = config[key];
  if (!isHeaderValue(value) || value.length === 0) {
    throw Errors.validation([
      `auth_config.${key}: is required for ${authType} and must be a string`,
    ]);
  }
  return value;
}

/**
 * Checks `auth_config` against its `auth_type` and returns the HTTP headers it stands for, so a
 * bad configuration is refused when it is saved rather than when it is first used.
 */
export function authHeaders(authType: AuthType, config: AuthConfig): Record<string, string> {
  switch (authType) {
    case 'none':
      return {};
    case 'bearer':
      return { Authorization: `Bearer ${requireString(config, 'token', authType)}` };
    case 'basic': {
      const credentials = `${requireString(config, 'username', authType)}:${requireString(config, 'password', authType)}`;
      return { Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
    }
    case 'api_key': {
      const header = config.header_name === undefined ? 'X-Api-Key' : config.header_name;
      if (typeof header !== 'string' || !HEADER_NAME.test(header)) {
        throw Errors.validation(['auth_config.header_name: must be an HTTP header name']);
      }
      return { [header]: requireString(config, 'key', authType) };
    }
    case 'custom': {
      const headers = config.headers;
      if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
        throw Errors.validation([
          'auth_config.headers: is required for custom and must be an object',
        ]);
      }
      return Object.fromEntries(
        Object.entries(headers as Record<string, unknown>).map(([name, value]) => {
          if (!HEADER_NAME.test(name) || !isHeaderValue(value)) {
            throw Errors.validation([
              `auth_config.headers.${name}: must be a header name with a string value`,
            ]);
          }
          return [name, value];
        }),
      );
    }
  }
}
