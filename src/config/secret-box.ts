import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SECRET_KEY } from './config.module';

const VERSION = 'v1';
const IV_BYTES = 12;

/** AES-256-GCM for secrets at rest: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
@Injectable()
export class SecretBox {
  constructor(@Inject(SECRET_KEY) private readonly key: Buffer) {}

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) {
      throw new Error('Not a sealed secret');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }

  sealJson(value: Record<string, unknown>): string | null {
    return Object.keys(value).length === 0 ? null : this.seal(JSON.stringify(value));
  }

  openJson<T extends Record<string, unknown>>(sealed: string | null): T | Record<string, never> {
    return sealed ? (JSON.parse(this.open(sealed)) as T) : {};
  }
}
