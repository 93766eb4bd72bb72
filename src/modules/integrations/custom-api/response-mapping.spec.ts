import {
  fieldValues,
  mappedCustomerText,
  mappingProblems,
  parsePath,
  pickResult,
} from './response-mapping';

describe('response_mapping', () => {
  const answer = {
    data: { order: { id: 'A1', status: 'shipped', items: [{ sku: 'A' }, { sku: 'B' }] } },
    'a b': 1,
  };

  it('picks the result by its path, the whole answer without one', () => {
    expect(pickResult(answer, { path: '$.data.order' })).toBe(answer.data.order);
    expect(pickResult(answer, { path: 'data.order.items[1].sku' })).toBe('B');
    expect(pickResult(answer, { path: '$.data.invoice' })).toBeNull();
    expect(pickResult(answer, null)).toBe(answer);
    expect(pickResult(answer, { success_message: 'Done' })).toBe(answer);
  });

  it('reads each field by its path in the whole answer, null where the answer has none', () => {
    expect(
      fieldValues(answer, {
        path: '$.data.order',
        fields: { status: '$.data.order.status', spaced: '$["a b"]', missing: '$.data.x' },
      }),
    ).toEqual({ status: 'shipped', spaced: 1, missing: null });
  });

  it('fills the success text from the fields, then the result keys, then the arguments', () => {
    const mapping = {
      path: '$.data.order',
      fields: { state: '$.data.order.status' },
      success_message: 'Your order {{order_id}} ({{ id }}) is {{state}}, {{status}}',
    };
    expect(mappedCustomerText(mapping, answer, { order_id: 'a1', id: 'not this' }, true)).toBe(
      'Your order a1 (A1) is shipped, shipped',
    );
  });

  it('fills the error text from the arguments when the call fails', () => {
    const mapping = { error_message: 'Sorry, I could not find order {{order_id}}' };
    expect(mappedCustomerText(mapping, { error: 'gone' }, { order_id: 'Z9' }, false)).toBe(
      'Sorry, I could not find order Z9',
    );
    expect(mappedCustomerText(mapping, answer, { order_id: 'Z9' }, true)).toBeNull();
  });

  it('says nothing of its own when a placeholder stays unfilled or would be an object', () => {
    const mapping = { path: '$.data', success_message: 'Order {{order}} is {{colour}}' };
    expect(mappedCustomerText(mapping, answer, {}, true)).toBeNull();
    expect(
      mappedCustomerText({ success_message: 'Paid: {{paid}}' }, { paid: null }, {}, true),
    ).toBeNull();
  });

  it('accepts the shape clients send', () => {
    expect(
      mappingProblems({
        path: '$.data',
        fields: { status: '$.data.order.status', first: 'items[0].sku' },
        success_message: 'Your order {{order_id}} is {{status}}',
        error_message: 'Sorry, I could not find order {{order_id}}',
      }),
    ).toEqual([]);
    expect(mappingProblems(null)).toEqual([]);
    expect(mappingProblems({})).toEqual([]);
  });

  it('refuses bad paths, names, texts and keys, each named', () => {
    expect(parsePath('$.a..b')).toBeNull();
    expect(parsePath('[0]')).toBeNull();
    expect(
      mappingProblems({
        path: 'status code',
        fields: { ok: '$.status', bad: 3, 'two words': '$.a' },
        success_message: 'Order {order_id} is ready',
        error_message: 'x'.repeat(1_001),
        order_status: '$.data.status',
      }),
    ).toEqual([
      'response_mapping.order_status: is not allowed',
      'response_mapping.path: must be a path into the answer, such as "$.data.order.status"',
      'response_mapping.fields.bad: must be a path into the answer, such as "$.data.order.status"',
      'response_mapping.fields.two words: a name is letters, digits, _ and -, starting with a letter or _',
      'response_mapping.success_message: placeholders are written {{name}} (a name of letters, digits, _ and -); other braces are refused',
      'response_mapping.error_message: must be shorter than or equal to 1000 characters',
    ]);
    expect(mappingProblems({ fields: ['$.a'], success_message: 3 })).toEqual([
      'response_mapping.fields: must be an object of name → path',
      'response_mapping.success_message: must be a string',
    ]);
    expect(
      mappingProblems({
        path: `$${'.a'.repeat(500)}`,
        fields: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, '$.a'])),
      }),
    ).toEqual([
      'response_mapping.path: must be a path into the answer, such as "$.data.order.status"',
      'response_mapping.fields: must have at most 100 names',
    ]);
    expect(mappingProblems({ success_message: '  ' })).toEqual([
      'response_mapping.success_message: must not be empty',
    ]);
  });
});
