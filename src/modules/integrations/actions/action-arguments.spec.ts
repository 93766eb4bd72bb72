import { argumentProblems } from './action-arguments';

describe('argumentProblems', () => {
  const schema = {
    type: 'object' as const,
    properties: {
      amount: { type: 'number', exclusiveMinimum: 0 },
      currency: { type: 'string', pattern: '^[A-Za-z]{3}$' },
      reason: { type: 'string', enum: ['duplicate', 'fraudulent'] },
      quantity: { type: 'integer', minimum: 1 },
    },
    required: ['amount'],
    additionalProperties: false,
  };

  it('passes arguments that fit', () => {
    expect(argumentProblems(schema, { amount: 2.5, currency: 'NGN', quantity: 1 })).toEqual([]);
  });

  it('names each argument that does not', () => {
    expect(
      argumentProblems(schema, {
        amount: 0,
        currency: 'naira',
        reason: 'x',
        quantity: 1.5,
        extra: 1,
      }),
    ).toEqual([
      'amount: must be greater than 0',
      'currency: must match ^[A-Za-z]{3}$',
      'reason: must be one of duplicate, fraudulent',
      'quantity: must be an integer',
      'extra: is not a parameter of this action',
    ]);
    expect(argumentProblems(schema, { amount: '5' })).toEqual(['amount: must be a number']);
    expect(argumentProblems(schema, {})).toEqual(['amount: is required']);
  });
});
