import { fillCustomerText, plainText } from './customer-text';

describe('customer texts', () => {
  it('fills each placeholder from the first source holding a value a sentence can carry', () => {
    expect(
      fillCustomerText('Order {{id}}: {{ status }}, paid {{paid}}, {{total}}', [
        { id: null, status: 'shipped' },
        { id: 'A1', paid: true, total: 25.5 },
      ]),
    ).toBe('Order A1: shipped, paid yes, 25.5');
  });

  it('gives null when a placeholder stays unfilled, rather than a sentence with a gap', () => {
    expect(fillCustomerText('Here: {{url}}', [{ url: '' }])).toBeNull();
    expect(fillCustomerText('Here: {{url}}', [{ url: { href: 'x' } }])).toBeNull();
    expect(fillCustomerText('Here: {{url}}', [{ url: ['x'] }, null])).toBeNull();
    expect(fillCustomerText('Here: {{url}}', [{ url: 'x'.repeat(1_001) }])).toBeNull();
    expect(fillCustomerText(undefined, [{ url: 'x' }])).toBeNull();
  });

  it('reads no inherited property as a value', () => {
    expect(fillCustomerText('{{constructor}}', [{}])).toBeNull();
  });

  it('keeps short plain text and nothing that reads as JSON', () => {
    expect(plainText(' Order A1 shipped ')).toBe('Order A1 shipped');
    expect(plainText('{"status":"shipped"}')).toBeNull();
    expect(plainText('[1, 2]')).toBeNull();
    expect(plainText('')).toBeNull();
  });
});
