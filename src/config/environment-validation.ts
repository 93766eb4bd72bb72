import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { Environment } from './environment';
import { StartupError } from './startup-error';

const SECRET_VARIABLES = new Set([
  'CONSOLE_BOOTSTRAP_KEY',
  'CONSOLE_SECRET_KEY',
  'LLM_API_KEY',
  'SMTP_URL',
  'TEST_WHATSAPP_ACCESS_TOKEN',
  'TEST_WHATSAPP_APP_SECRET',
  'TEST_WHATSAPP_VERIFY_TOKEN',
]);

/** The shared test number works only with all of these: set all of them or none. */
const TEST_WHATSAPP_SETTINGS = [
  'TEST_WHATSAPP_NUMBER',
  'TEST_WHATSAPP_PHONE_NUMBER_ID',
  'TEST_WHATSAPP_ACCESS_TOKEN',
  'TEST_WHATSAPP_APP_SECRET',
  'TEST_WHATSAPP_VERIFY_TOKEN',
] as const;
const URL_PASSWORD = /(\/\/[^/@:\s]*):[^/@\s]*@/g;

/** Settings that stop the start, one problem a line, each naming its variable. */
export class InvalidEnvironmentError extends StartupError {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/** The name of every variable the service reads, from the decorators of `Environment`. */
export function settingNames(): string[] {
  return [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(Environment, '', true, false)
        .map((metadata) => metadata.propertyName),
    ),
  ];
}

/** Builds the validated settings; the error message names every offending variable. */
export function validateEnvironment(raw: Record<string, string | undefined>): Environment {
  const known = new Set(settingNames());
  const given = Object.fromEntries(
    Object.entries(raw).filter(([name, value]) => known.has(name) && value !== undefined),
  );
  const environment = plainToInstance(Environment, given);
  const errors = validateSync(environment, { forbidUnknownValues: true });
  const lines = errors.map((error) => {
    const problems = Object.values(error.constraints ?? {})
      .map((message) => message.replace(`${error.property} `, ''))
      .join(', ');
    // A mistyped database or Redis URL still carries its password.
    const shown = SECRET_VARIABLES.has(error.property)
      ? ''
      : `=${JSON.stringify(raw[error.property]?.replace(URL_PASSWORD, '$1:***@'))}`;
    return `${error.property}${shown}: ${problems}`;
  });
  if (/^postgres/.test(environment.DATABASE_URL) && !environment.CONSOLE_SECRET_KEY) {
    lines.push(
      'CONSOLE_SECRET_KEY: is required when DATABASE_URL is PostgreSQL (every instance must share it)',
    );
  }
  const testWhatsApp = TEST_WHATSAPP_SETTINGS.filter((name) => environment[name] !== undefined);
  if (testWhatsApp.length > 0 && testWhatsApp.length < TEST_WHATSAPP_SETTINGS.length) {
    const missing = TEST_WHATSAPP_SETTINGS.filter((name) => environment[name] === undefined);
    lines.push(
      `${missing.join(', ')}: required with ${testWhatsApp.join(', ')} (the shared test number needs all of them)`,
    );
  }
  if (lines.length > 0) {
    throw new InvalidEnvironmentError(lines);
  }
  return environment;
}
