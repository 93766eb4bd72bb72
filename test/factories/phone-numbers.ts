import { PhoneNumberOperationsService } from '@/modules/phone-numbers/phone-number-operations.service';
import { API, TestApp } from './test-app';

export const REQUEST_BODY = {
  business_name: 'Ada Stores',
  intended_use: 'Order enquiries',
  region: 'ng',
  agent_count: 1,
  outbound_minutes: 0,
};

export async function requestPhoneNumber(
  t: TestApp,
  fields: Record<string, unknown> = {},
  key = t.key,
): Promise<Record<string, any>> {
  const res = await t
    .api(key)
    .post(`${API}/phone-numbers/request`)
    .send({ ...REQUEST_BODY, ...fields })
    .expect(201);
  return res.body.data;
}

let nextNumber = 0;

/** A distinct E.164 number for each call in this worker (+1 555 01xx… range, never assigned). */
export function uniqueE164(): string {
  nextNumber += 1;
  return `+1555${String(process.pid % 1000).padStart(3, '0')}${String(nextNumber).padStart(4, '0')}`;
}

/**
 * A number of the team of `key`, as an operator's fulfilment makes it (the CLI's own path is
 * covered by the phone numbers spec; this one runs in the test process, for speed).
 */
export async function createPhoneNumber(
  t: TestApp,
  key = t.key,
  e164 = uniqueE164(),
): Promise<Record<string, any>> {
  const request = await requestPhoneNumber(t, {}, key);
  const { number } = await t.app.get(PhoneNumberOperationsService).fulfil(request.id, e164);
  return (await t.api(key).get(`${API}/phone-numbers/${number.id}`).expect(200)).body.data;
}
