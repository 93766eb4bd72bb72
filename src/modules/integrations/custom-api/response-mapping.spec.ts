import { mapResponse, mappingProblems, parsePath } from './response-mapping';

describe('response_mapping', () => {
  const answer = {
    data: { order: { status: 'shipped', items: [{ sku: 'A' }, { sku: 'B' }] } },
    'a b': 1,
  };

  it('picks each named value by its path, null where the answer has none', () => {
    expect(
      mapResponse(answer, {
        status: '$.data.order.status',
        second: 'data.order.items[1].sku',
        spaced: '$["a b"]',
        missing: '$.data.invoice.total',
      }),
    ).toEqual({ status: 'shipped', second: 'B', spaced: 1, missing: null });
  });

  it('hands back the whole answer without a mapping', () => {
    expect(mapResponse(answer, null)).toBe(answer);
    expect(mapResponse(answer, {})).toBe(answer);
    expect(mapResponse(answer, { all: '$' })).toEqual({ all: answer });
  });

  it('refuses what is not a path', () => {
    expect(parsePath('$.a..b')).toBeNull();
    expect(parsePath('[0]')).toBeNull();
    expect(mappingProblems({ ok: '$.status', bad: 'status code', other: 3 })).toEqual([
      'response_mapping.bad: must be a path into the answer, such as "$.data.order.status"',
      'response_mapping.other: must be a path into the answer, such as "$.data.order.status"',
    ]);
  });
});
