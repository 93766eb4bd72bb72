import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { firstKeyDelivery, writeFirstKeyFile } from './first-key-delivery';

describe('where a generated first key goes', () => {
  it('to a terminal when stdout is one, else beside the SQLite file, and nowhere on PostgreSQL', () => {
    expect(firstKeyDelivery('postgres://db/console', true)).toEqual({ to: 'terminal' });
    expect(firstKeyDelivery('sqlite:./data/console.sqlite', false)).toEqual({
      to: 'file',
      path: resolve('./data/first-api-key'),
    });
    expect(firstKeyDelivery('postgres://db/console', false)).toBeNull();
  });

  it('replaces an older file with one only its owner reads', () => {
    const directory = mkdtempSync(join(tmpdir(), 'first-key-'));
    try {
      const file = join(directory, 'first-api-key');
      writeFileSync(file, 'stale', { mode: 0o644 });
      writeFirstKeyFile(file, 'sk_new');
      expect(readFileSync(file, 'utf8')).toBe('sk_new\n');
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
