import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { OpenApiDocument } from './openapi';

const ROOT = join(__dirname, '..', '..');

const VALIDATE = `
const SwaggerParser = require('@apidevtools/swagger-parser');
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () =>
  SwaggerParser.validate(JSON.parse(text)).then(
    () => process.stdout.write('valid'),
    (error) => process.stdout.write(error.message),
  ),
);
`;

/**
 * What swagger-parser says of the document: `valid`, or its list of problems. It runs in a plain
 * Node process because its reference parser is an ES module, which Jest's runtime cannot load.
 */
export function swaggerParserVerdict(document: OpenApiDocument): Promise<string> {
  const child = spawn(process.execPath, ['-e', VALIDATE], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let verdict = '';
  child.stdout.on('data', (chunk: Buffer) => (verdict += chunk.toString()));
  child.stdin.end(JSON.stringify(document));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve(verdict));
  });
}
