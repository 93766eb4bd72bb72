/**
 * Packages shipped as ES modules only (linkedom's DOM and its HTML parser): Node requires them as
 * they are, Jest's module loader needs them compiled to CommonJS.
 */
const ESM_PACKAGES = [
  'boolbase',
  'css-select',
  'css-what',
  'cssomnom',
  'dom-serializer',
  'domelementtype',
  'domhandler',
  'domutils',
  'entities',
  'htmlparser2',
  'nth-check',
  'uhyphen',
];

/**
 * TypeScript is compiled by swc, file by file, without type checking (`npm run typecheck` does
 * that): legacy decorators with their design-time metadata, as tsc emits them for Nest's
 * dependency injection and TypeORM's columns, and class fields assigned as tsc does
 * (useDefineForClassFields false).
 */
const swcTypeScript = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
const swcJavaScript = {
  jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' },
  module: { type: 'commonjs' },
};

/** @type {import('jest').Config} */
const common = {
  rootDir: __dirname,
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcTypeScript],
    '^.+\\.js$': ['@swc/jest', swcJavaScript],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
  testEnvironment: 'node',
};

module.exports = {
  testTimeout: 30000,
  // Jest's default (cores - 1) is one worker on a 2-core machine; the suites wait on I/O often
  // enough that two keep both cores busy.
  maxWorkers: 2,
  // Logs and error bodies of the whole run are captured, then checked for secrets at the end.
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/widget/**/*.spec.ts',
        '<rootDir>/scripts/**/*.spec.ts',
      ],
    },
    {
      ...common,
      displayName: 'medium',
      testMatch: ['<rootDir>/test/medium/**/*.medium-spec.ts'],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
    {
      ...common,
      displayName: 'process',
      testMatch: ['<rootDir>/test/process/**/*.process-spec.ts'],
    },
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
    },
    {
      ...common,
      displayName: 'cluster',
      testMatch: ['<rootDir>/test/cluster/**/*.cluster-spec.ts'],
    },
    {
      ...common,
      displayName: 'reliability',
      testMatch: ['<rootDir>/test/reliability/**/*.reliability-spec.ts'],
    },
  ],
};
