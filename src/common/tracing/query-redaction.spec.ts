import { redactQuery } from './query-redaction';

describe('redactQuery', () => {
  it('keeps the names of query parameters and redacts every value', () => {
    expect(redactQuery('ticket=st_abc&after=01a2', true)).toBe('ticket=REDACTED&after=REDACTED');
    expect(redactQuery('flag', true)).toBe('flag=REDACTED');
    expect(redactQuery('https://u@api.example/v1/x?key=sk_1&q=a%20b#frag', false)).toBe(
      'https://u@api.example/v1/x?key=REDACTED&q=REDACTED',
    );
    expect(redactQuery('/api/v1/console/workflows?search=x', false)).toBe(
      '/api/v1/console/workflows?search=REDACTED',
    );
  });

  it('leaves a URL without a query as it is', () => {
    expect(redactQuery('http://127.0.0.1:3000/api/v1/console/workflows', false)).toBe(
      'http://127.0.0.1:3000/api/v1/console/workflows',
    );
  });
});
