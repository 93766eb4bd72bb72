import { parseCorsOrigins } from './environment';
import { InvalidEnvironmentError, validateEnvironment } from './environment-validation';
import { parseTrustProxy } from './trust-proxy';

describe('validateEnvironment', () => {
  it('applies the documented defaults', () => {
    const env = validateEnvironment({});
    expect(env).toMatchObject({
      PORT: 3000,
      DATABASE_URL: 'sqlite:./data/console.sqlite',
      RATE_LIMIT_MAX: 600,
      RATE_LIMIT_WINDOW_S: 60,
      IDEMPOTENCY_TTL_S: 86400,
      AGENT_QUOTA: 50,
      STREAM_TICKET_TTL_S: 60,
      STREAM_MAX_PER_SUBJECT: 25,
      STREAM_HEARTBEAT_MS: 20000,
      BODY_LIMIT: '1mb',
      LOG_LEVEL: 'info',
    });
  });

  it('converts numbers and ignores unrelated variables', () => {
    const env = validateEnvironment({ PORT: '8080', RATE_LIMIT_MAX: '5', UNRELATED: 'x' });
    expect(env.PORT).toBe(8080);
    expect(env.RATE_LIMIT_MAX).toBe(5);
  });

  it('names every bad variable, and never echoes a secret', () => {
    expect(() =>
      validateEnvironment({
        PORT: 'http',
        LOG_LEVEL: 'loud',
        CONSOLE_BOOTSTRAP_KEY: 'hunter2',
        DATABASE_URL: 'mysql://x',
      }),
    ).toThrow(InvalidEnvironmentError);
    try {
      validateEnvironment({
        PORT: 'http',
        LOG_LEVEL: 'loud',
        CONSOLE_BOOTSTRAP_KEY: 'hunter2',
        DATABASE_URL: 'mysql://x',
      });
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'LOG_LEVEL', 'CONSOLE_BOOTSTRAP_KEY', 'DATABASE_URL']) {
        expect(message).toContain(name);
      }
      expect(message).not.toContain('hunter2');
    }
  });

  it('takes an SMTP_URL the mailer can read, and names (never shows) one it cannot', () => {
    for (const url of ['smtp://mail.example.com:587', 'smtps://u%40x:p%2Fq@[::1]:465']) {
      expect(validateEnvironment({ SMTP_URL: url }).SMTP_URL).toBe(url);
    }
    for (const url of [
      'smtp://mail.example.com:99999',
      'smtp://user:pa%zz@mail.example.com',
      'smtp:///nohost',
      'http://mail.example.com',
    ]) {
      const validate = () => validateEnvironment({ SMTP_URL: url });
      expect(validate).toThrow(/^Invalid configuration:\n {2}SMTP_URL: must be an smtp:\/\//);
      expect(validate).not.toThrow(/mail\.example\.com|pa%zz/);
    }
  });

  it('hides the password of a URL it shows', () => {
    const validate = () =>
      validateEnvironment({
        DATABASE_URL: 'postgress://app:db-pass-1@db.internal/console',
        REDIS_URL: 'http://:redis-pass-2@cache:6379',
      });
    expect(validate).toThrow('DATABASE_URL="postgress://app:***@db.internal/console"');
    expect(validate).toThrow('REDIS_URL="http://:***@cache:6379"');
    expect(validate).not.toThrow(/db-pass-1|redis-pass-2/);
  });

  it('requires a shared secret key on PostgreSQL', () => {
    expect(() => validateEnvironment({ DATABASE_URL: 'postgres://db/console' })).toThrow(
      /CONSOLE_SECRET_KEY/,
    );
    expect(
      validateEnvironment({
        DATABASE_URL: 'postgres://db/console',
        CONSOLE_SECRET_KEY: 'a'.repeat(64),
      }).DATABASE_URL,
    ).toBe('postgres://db/console');
  });

  it('reads CORS origins as off, any, or a list', () => {
    expect(parseCorsOrigins(undefined)).toBeUndefined();
    expect(parseCorsOrigins('*')).toBe('*');
    expect(parseCorsOrigins('https://a.example, https://b.example')).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });
});

describe('TRUST_PROXY', () => {
  it('takes false, a hop count, or addresses and ranges of the proxies', () => {
    expect(validateEnvironment({}).TRUST_PROXY).toBe('false');
    for (const value of ['false', '0', '2', '10.0.0.1', 'loopback, 10.0.0.0/8, fd00::/8']) {
      expect(validateEnvironment({ TRUST_PROXY: value }).TRUST_PROXY).toBe(value);
    }
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('loopback, 10.0.0.0/8')).toEqual(['loopback', '10.0.0.0/8']);
  });

  it('refuses true, naming TRUST_PROXY and suggesting a hop count', () => {
    expect(() => validateEnvironment({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY="true": .*forge.*number of proxies/,
    );
  });

  it('refuses what is neither a count nor an address', () => {
    for (const value of ['yes', '-1', '10.0.0.0/40', '10.1', 'example.com']) {
      expect(() => validateEnvironment({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    }
  });
});
