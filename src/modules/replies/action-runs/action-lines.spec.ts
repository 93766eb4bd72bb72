import { customerLineFor, runLine, toolResultFor } from './action-lines';
import { ActionRunEntity } from './entities/action-run.entity';

const run = (fields: Partial<ActionRunEntity>): ActionRunEntity =>
  ({
    actionName: 'check_order_status',
    status: 'succeeded',
    result: { order: { status: 'shipped' } },
    error: null,
    customerText: null,
    ...fields,
  }) as ActionRunEntity;

describe('action lines', () => {
  it('tells the customer the action text when the run has one', () => {
    expect(customerLineFor(run({ customerText: 'Your order A1 is shipped' }))).toBe(
      'Your order A1 is shipped',
    );
    expect(
      customerLineFor(
        run({ status: 'failed', error: 'Shop answered 404', customerText: 'No order A1' }),
      ),
    ).toBe('No order A1');
  });

  it('names the action and its outcome without a text, never the raw result', () => {
    expect(customerLineFor(run({}))).toBe('Done: Check order status.');
    expect(customerLineFor(run({ status: 'failed', error: 'Shop answered 500: {"x":1}' }))).toBe(
      'Sorry, I could not complete "Check order status" just now. A member of the team will follow up.',
    );
    expect(customerLineFor(run({ status: 'rejected', error: 'Too late' }))).toBe(
      'Sorry, "Check order status" could not go ahead. A member of the team will follow up if needed.',
    );
  });

  it('shows no quoted JSON answer in the conversation line', () => {
    expect(runLine(run({ status: 'failed', error: 'Shop answered 404: {"error":"gone"}' }))).toBe(
      'Action check_order_status failed: Shop answered 404',
    );
    expect(runLine(run({ status: 'failed', error: '{"error":"gone"}' }))).toBe(
      'Action check_order_status failed: unknown error',
    );
    expect(runLine(run({ status: 'failed', error: 'the token [redacted] expired' }))).toBe(
      'Action check_order_status failed: the token [redacted] expired',
    );
  });

  it('gives the model the result with the customer text beside it', () => {
    expect(JSON.parse(toolResultFor(run({ customerText: 'Shipped' })))).toEqual({
      status: 'succeeded',
      result: { order: { status: 'shipped' } },
      message: 'Shipped',
    });
    expect(JSON.parse(toolResultFor(run({})))).toEqual({
      status: 'succeeded',
      result: { order: { status: 'shipped' } },
    });
  });
});
