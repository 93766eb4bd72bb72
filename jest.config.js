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

/** @type {import('jest').Config} */
const common = {
  rootDir: __dirname,
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: {
    '^.+\\.ts$': 'ts-jest',
    '^.+\\.js$': ['ts-jest', { isolatedModules: true, tsconfig: { allowJs: true } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
  testEnvironment: 'node',
};

module.exports = {
  testTimeout: 30000,
  // Logs and error bodies of the whole run are captured, then checked for secrets at the end.
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
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
