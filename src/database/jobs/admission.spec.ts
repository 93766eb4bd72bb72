import { Admission } from './admission';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Admission', () => {
  it('lets producers in at once while the queue is under its bound', async () => {
    const admission = new Admission(() => 1, 2);
    await expect(admission.enter(1_000)).resolves.toBe(true);
    expect(admission.queued).toBe(0);
  });

  it('past its bound, lets one producer in per finished job, first come first served', async () => {
    let waiting = 3;
    const admission = new Admission(() => waiting, 3);
    const order: string[] = [];
    const a = admission.enter(10_000).then(() => order.push('a'));
    const b = admission.enter(10_000).then(() => order.push('b'));
    await tick();
    expect(order).toEqual([]);

    waiting = 2;
    admission.jobFinished();
    await a;
    expect(order).toEqual(['a']);
    expect(admission.queued).toBe(1);

    admission.jobFinished();
    await b;
    expect(order).toEqual(['a', 'b']);
  });

  it('keeps producers out while finished jobs leave the queue over its bound', async () => {
    const admission = new Admission(() => 5, 3);
    let entered = false;
    void admission.enter(10_000).then(() => (entered = true));
    admission.jobFinished();
    await tick();
    expect(entered).toBe(false);
    expect(admission.queued).toBe(1);
  });

  it('lets a producer in anyway once its own time runs out', async () => {
    const admission = new Admission(() => 5, 3);
    await expect(admission.enter(10)).resolves.toBe(false);
    expect(admission.queued).toBe(0);
  });

  it('does not let a newcomer pass producers already waiting', async () => {
    let waiting = 4;
    const admission = new Admission(() => waiting, 3);
    const order: string[] = [];
    const first = admission.enter(10_000).then(() => order.push('first'));
    waiting = 0;
    const second = admission.enter(10_000).then(() => order.push('second'));
    await tick();
    expect(order).toEqual([]);
    admission.jobFinished();
    admission.jobFinished();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
  });
});
