import { AppConfig } from '@/config/app-config';
import { Database } from '@/database/database.service';
import { OutboundHttp } from './outbound-http';

const config = { outbound: { allowPrivate: true, timeoutMs: 1000 } } as AppConfig;

const outbound = (inTransaction: boolean) =>
  new OutboundHttp(config, { inTransaction } as unknown as Database);

describe('outbound calls', () => {
  it('are refused inside a database transaction, which they would hold while they wait', async () => {
    const inside = outbound(true);
    await expect(inside.refusal('http://127.0.0.1/')).rejects.toThrow(
      /inside a database transaction/,
    );
    expect(() => inside.fetchFor(new AbortController().signal)).toThrow(
      /inside a database transaction/,
    );
  });

  it('are made outside one', async () => {
    const outside = outbound(false);
    await expect(outside.refusal('http://127.0.0.1/')).resolves.toBeNull();
    expect(outside.fetchFor(new AbortController().signal)).toEqual(expect.any(Function));
  });
});
