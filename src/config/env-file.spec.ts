import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnvFile } from './env-file';

describe('loadEnvFile', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'console-env-file-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('fills in what the environment lacks, and the real environment wins', () => {
    const file = join(directory, '.env');
    writeFileSync(file, '# comment\nPORT=4000\nLOG_LEVEL="debug"\nHOST=file-host\nEMPTY=\n');
    const env: Record<string, string | undefined> = { PORT: '5000', HOST: '' };
    expect(loadEnvFile(env, file)).toEqual(['LOG_LEVEL', 'EMPTY']);
    expect(env).toEqual({ PORT: '5000', HOST: '', LOG_LEVEL: 'debug', EMPTY: '' });
  });

  it('is no error when there is no file', () => {
    const env = {};
    expect(loadEnvFile(env, join(directory, '.env'))).toEqual([]);
    expect(env).toEqual({});
  });

  it('says in one line when the file exists but cannot be read', () => {
    expect(() => loadEnvFile({}, directory)).toThrow(/cannot be read \(EISDIR\)/);
  });
});
