import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWidget, MAX_GZIPPED_BYTES } from './build-widget';

describe('widget.js', () => {
  const dir = mkdtempSync(join(tmpdir(), 'widget-build-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is one minified script under 40 KB gzipped, with no HTML written from data', () => {
    const built = buildWidget(join(dir, 'widget.js'));
    expect(built.gzippedBytes).toBeLessThan(MAX_GZIPPED_BYTES);
    const code = readFileSync(built.path, 'utf8');
    expect(code.startsWith('"use strict";(()=>{')).toBe(true);
    expect(code).not.toMatch(/\bimport\b|\brequire\(/);
    // The launcher's constant icon is the only markup assigned.
    expect(code.match(/innerHTML/g)).toHaveLength(1);
  });
});
