import { Errors } from '@/common/http/api-error';
import { AuthConfig, AuthType, MAX_SECRET_LENGTH } from './dto/auth-config.dto';
import { HEADER_NAME, HEADER_VALUE, HEADER_VALUE_PROBLEM } from './header-syntax';
const DEFAULT_API_KEY_HEADER = 'X-Api-Key';

type Field = keyof AuthConfig;

const FIELDS: Record<AuthType, { required: Field[]; optional: Field[] }> = {
  none: { required: [], optional: [] },
  bearer: { required: ['token'], optional: [] },
  basic: { required: ['username', 'password'], optional: [] },
  api_key: { required: ['api_key'], optional: ['header_name'] },
  custom: { required: ['header_name', 'token'], optional: ['headers'] },
};

function valueProblem(value: unknown): string | null {
  if (typeof value !== 'string') {
    return 'must be a string';
  }
  if (value.length > MAX_SECRET_LENGTH) {
    return `must be shorter than or equal to ${MAX_SECRET_LENGTH} characters`;
  }
  return HEADER_VALUE.test(value) ? null : HEADER_VALUE_PROBLEM;
}

function headersProblems(headers: Record<string, unknown>, secretHeader: unknown): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) {
      // Named at the object, not in the path: clients split a problem on its first ':'.
      problems.push(`auth_config.headers: ${JSON.stringify(name)} is not an HTTP header name`);
      continue;
    }
    const problem =
      typeof secretHeader === 'string' && name.toLowerCase() === secretHeader.toLowerCase()
        ? 'repeats header_name'
        : valueProblem(value);
    if (problem) {
      problems.push(`auth_config.headers.${name}: ${problem}`);
    }
  }
  return problems;
}

function fieldProblem(authType: AuthType, field: Field, value: unknown): string | null {
  if (value === undefined || value === '') {
    return FIELDS[authType].required.includes(field) ? 'must not be empty' : null;
  }
  if (field === 'headers') {
    return null;
  }
  if (field === 'header_name') {
    return typeof value === 'string' && HEADER_NAME.test(value)
      ? null
      : 'must be an HTTP header name';
  }
  if (field === 'username' && typeof value === 'string' && value.includes(':')) {
    return 'must not contain ":"';
  }
  return valueProblem(value);
}

/**
 * The settings `authType` uses, checked; anything else is refused (400, one line per field), so a
 * bad configuration is refused when it is saved rather than when it is first used.
 */
export function checkedAuthConfig(authType: AuthType, config: AuthConfig): AuthConfig {
  const { required, optional } = FIELDS[authType];
  const fields = [...required, ...optional];
  const problems = Object.keys(config)
    .filter((key) => config[key as Field] !== undefined && !fields.includes(key as Field))
    .map((key) => `auth_config.${key}: is not used by ${authType}`);
  const checked: AuthConfig = {};
  for (const field of fields) {
    const value = config[field];
    const problem = fieldProblem(authType, field, value);
    if (problem) {
      problems.push(`auth_config.${field}: ${problem}`);
    } else if (value !== undefined && value !== '') {
      Object.assign(checked, { [field]: value });
    }
  }
  if (checked.headers) {
    problems.push(...headersProblems(checked.headers, checked.header_name));
  }
  if (problems.length > 0) {
    throw Errors.validation(problems);
  }
  return checked;
}

/** The HTTP headers an auth configuration stands for (400 when it does not fit its type). */
export function authHeaders(authType: AuthType, config: AuthConfig): Record<string, string> {
  const checked = checkedAuthConfig(authType, config);
  switch (authType) {
    case 'none':
      return {};
    case 'bearer':
      return { Authorization: `Bearer ${checked.token}` };
    case 'basic': {
      const credentials = `${checked.username}:${checked.password}`;
      return { Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
    }
    case 'api_key':
      return { [checked.header_name ?? DEFAULT_API_KEY_HEADER]: checked.api_key! };
    case 'custom':
      return {
        ...(checked.headers as Record<string, string> | undefined),
        [checked.header_name!]: checked.token!,
      };
  }
}
