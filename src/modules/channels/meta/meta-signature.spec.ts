import { createHmac } from 'node:crypto';
import { metaSignatureValid } from './webhook-payloads';

const SECRET = 'app-secret-123';
const BODY = Buffer.from('{"object":"page","entry":[]}');
const HEX = createHmac('sha256', SECRET).update(BODY).digest('hex');

describe('metaSignatureValid', () => {
  it('accepts sha256=<hex HMAC-SHA256 of the raw body keyed with the app secret>', () => {
    expect(metaSignatureValid(BODY, `sha256=${HEX}`, SECRET)).toBe(true);
    expect(metaSignatureValid(BODY, `sha256=${HEX.toUpperCase()}`, SECRET)).toBe(true);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['of another secret', `sha256=${createHmac('sha256', 'other').update(BODY).digest('hex')}`],
    ['of another body', `sha256=${createHmac('sha256', SECRET).update('{}').digest('hex')}`],
    ['with the sha1 prefix', `sha1=${HEX}`],
    ['without a prefix', HEX],
    ['with an upper-case prefix', `SHA256=${HEX}`],
    ['too short', `sha256=${HEX.slice(0, 62)}`],
    ['too long', `sha256=${HEX}00`],
    ['not hex', `sha256=${'z'.repeat(64)}`],
    ['two signatures', `sha256=${HEX}, sha256=${HEX}`],
  ])('refuses a signature %s', (_label, header) => {
    expect(metaSignatureValid(BODY, header, SECRET)).toBe(false);
  });

  it('refuses everything with an empty secret, and a body that is not a Buffer', () => {
    const empty = createHmac('sha256', '').update(BODY).digest('hex');
    expect(metaSignatureValid(BODY, `sha256=${empty}`, '')).toBe(false);
    expect(metaSignatureValid(BODY.toString() as unknown as Buffer, `sha256=${HEX}`, SECRET)).toBe(
      false,
    );
  });

  it('checks the exact bytes: re-serialized JSON does not match', () => {
    const reserialized = Buffer.from(
      JSON.stringify(JSON.parse(' { "object" : "page", "entry": [] } ')),
    );
    const signed = createHmac('sha256', SECRET)
      .update(' { "object" : "page", "entry": [] } ')
      .digest('hex');
    expect(metaSignatureValid(reserialized, `sha256=${signed}`, SECRET)).toBe(false);
  });
});
