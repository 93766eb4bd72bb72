import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { Environment } from './environment';
import { settingNames } from './environment-validation';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const SETTINGS = settingNames();
const DEFAULTS = new Environment() as unknown as Record<
  string,
  string | number | boolean | undefined
>;
const defaultOf = (name: string) => String(DEFAULTS[name] ?? '');

/** `NAME=value` lines of .env.example, commented out or not. */
function envExample(): Map<string, string> {
  const lines = read('.env.example').matchAll(/^#? ?([A-Z][A-Z0-9_]*)=(.*)$/gm);
  return new Map([...lines].map(([, name, value]) => [name, value]));
}

/** The first column of the README's settings table. */
function readmeTable(): string[] {
  return [...read('README.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map(([, name]) => name);
}

function missing(from: Iterable<string>): string[] {
  const documented = new Set(from);
  return SETTINGS.filter((name) => !documented.has(name));
}
const unknown = (names: Iterable<string>) => [...names].filter((name) => !SETTINGS.includes(name));

describe('every setting the configuration reads (Environment) is documented', () => {
  it('in .env.example, with its default', () => {
    const example = envExample();
    expect({ missingFromEnvExample: missing(example.keys()) }).toEqual({
      missingFromEnvExample: [],
    });
    expect({ notSettings: unknown(example.keys()) }).toEqual({ notSettings: [] });
    const wrongDefaults = SETTINGS.filter((name) => example.get(name) !== defaultOf(name)).map(
      (name) =>
        `${name}: .env.example says "${example.get(name)}", default is "${defaultOf(name)}"`,
    );
    expect(wrongDefaults).toEqual([]);
  });

  it("in the README's settings table", () => {
    const table = readmeTable();
    expect({ missingFromReadme: missing(table) }).toEqual({ missingFromReadme: [] });
    expect({ notSettings: unknown(table) }).toEqual({ notSettings: [] });
  });
});

interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, unknown>;
}

describe('deploy/ names only settings the service knows', () => {
  const compose = load(read('deploy/compose.yaml')) as { services: Record<string, ComposeService> };
  const instances = Object.entries(compose.services).filter(([, service]) => service.build);
  const dockerfile = read('deploy/Dockerfile');

  it('compose.yaml: the instances, behind one proxy (TRUST_PROXY=1)', () => {
    expect(instances.map(([name]) => name)).toEqual(['api-1', 'api-2']);
    for (const [, service] of instances) {
      expect({ notSettings: unknown(Object.keys(service.environment ?? {})) }).toEqual({
        notSettings: [],
      });
      expect(service.environment).toMatchObject({
        TRUST_PROXY: '1',
        DATABASE_URL: expect.stringMatching(/^postgres:\/\/.*@postgres:5432\//),
        REDIS_URL: 'redis://redis:6379',
        CONSOLE_SECRET_KEY: expect.any(String),
      });
    }
    const proxies = Object.values(compose.services).filter((s) => /^nginx:/.test(s.image ?? ''));
    expect(proxies).toHaveLength(1);
    const upstreams = [...read('deploy/nginx.conf').matchAll(/^\s*server (api-\d):3000/gm)];
    expect(upstreams.map(([, name]) => name)).toEqual(['api-1', 'api-2']);
  });

  it('Dockerfile: multi-stage, non-root, health-checked on /readyz, stopped with SIGTERM', () => {
    const env = [...dockerfile.matchAll(/^ENV ((?:.|\\\n)*)$/gm)].flatMap(([, body]) =>
      [...body.matchAll(/([A-Z][A-Z0-9_]*)=/g)].map(([, name]) => name),
    );
    expect(env.length).toBeGreaterThan(0);
    expect({ notSettings: unknown(env) }).toEqual({ notSettings: [] });
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*(\\\n.*)*\/readyz/m);
    expect(dockerfile).toMatch(/^STOPSIGNAL SIGTERM$/m);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
  });
});
