import { paramProblems, toolSchema } from './tool-parameters';

describe('toolSchema', () => {
  it('builds the JSON Schema of url_params and body_params', () => {
    expect(
      toolSchema({
        url_template: '/orders/{order_id}',
        url_params: [
          { name: 'order_id', type: 'string', description: 'The order', required: true },
        ],
        body_params: [
          { name: 'quantity', type: 'integer', required: true },
          { name: 'tags', type: 'array' },
        ],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        order_id: { type: 'string', description: 'The order' },
        quantity: { type: 'integer' },
        tags: { type: 'array', items: {} },
      },
      required: ['order_id', 'quantity'],
      additionalProperties: false,
    });
  });

  it('adds the placeholders of its templates that no parameter declares, required', () => {
    expect(
      toolSchema({
        url_template: '/shops/{shop}/orders/{id}',
        headers_template: { 'X-Customer': '{customer}' },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        shop: { type: 'string' },
        id: { type: 'string' },
        customer: { type: 'string' },
      },
      required: ['shop', 'id', 'customer'],
      additionalProperties: true,
    });
  });

  it('reads the older object form, name → type', () => {
    expect(
      toolSchema({ url_template: '/x', body_params: { qty: 'number', note: { type: 'string' } } }),
    ).toEqual({
      type: 'object',
      properties: { qty: { type: 'number' }, note: { type: 'string' } },
      additionalProperties: false,
    });
  });
});

describe('paramProblems', () => {
  it('accepts both forms and names each bad entry', () => {
    expect(paramProblems('url_params', [{ name: 'id', type: 'string', required: true }])).toEqual(
      [],
    );
    expect(paramProblems('body_params', { qty: 'integer' })).toEqual([]);
    expect(
      paramProblems('url_params', [
        { name: 'order id', type: 'string' },
        { name: 'n', type: 'date' },
        { name: 'r', type: 'string', required: 'yes' },
        'id',
      ]),
    ).toEqual([
      'url_params.0.name: must be a name of letters, digits and _ (not first)',
      'url_params.1.type: must be one of string, number, integer, boolean, object, array',
      'url_params.2.required: must be true or false',
      'url_params.3.name: must be a name of letters, digits and _ (not first)',
      'url_params.3: must be an object {name, type, description?, required?}',
    ]);
  });
});
