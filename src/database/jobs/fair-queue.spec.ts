import { FairQueue, QueuedJob } from './fair-queue';

/** A queue whose jobs finish when the test says so; `started` lists them in start order. */
function harness(limits: { concurrency: number; perTeam: number }) {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const queue = new FairQueue<QueuedJob>(limits, (job) => {
    started.push(job.id);
    return new Promise<void>((resolve) => finishers.set(job.id, resolve));
  });
  const finish = async (id: string) => {
    finishers.get(id)!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, started, finish };
}

describe('FairQueue', () => {
  it('gives a free slot to the next team in turn, not to the team with the longest backlog', () => {
    const { queue, started } = harness({ concurrency: 3, perTeam: 3 });
    for (let i = 1; i <= 5; i++) {
      queue.add({ id: `a${i}`, teamId: 'A' });
    }
    queue.add({ id: 'b1', teamId: 'B' });
    queue.add({ id: 'c1', teamId: 'C' });
    expect(started).toEqual(['a1', 'a2', 'a3']);
  });

  it("holds a team to its own limit while other teams' jobs start", async () => {
    const { queue, started, finish } = harness({ concurrency: 4, perTeam: 2 });
    for (let i = 1; i <= 6; i++) {
      queue.add({ id: `a${i}`, teamId: 'A' });
    }
    queue.add({ id: 'b1', teamId: 'B' });
    expect(started).toEqual(['a1', 'a2', 'b1']);
    await finish('a1');
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
  });

  it('serves waiting teams round-robin as slots free up', async () => {
    const { queue, started, finish } = harness({ concurrency: 1, perTeam: 1 });
    queue.add({ id: 'a1', teamId: 'A' });
    queue.add({ id: 'a2', teamId: 'A' });
    queue.add({ id: 'a3', teamId: 'A' });
    queue.add({ id: 'b1', teamId: 'B' });
    queue.add({ id: 'b2', teamId: 'B' });
    queue.add({ id: 'c1', teamId: 'C' });
    for (const id of ['a1', 'b1', 'c1', 'a2', 'b2']) {
      await finish(id);
    }
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('runs the jobs of one lane one at a time, in order, while other lanes go ahead', async () => {
    const { queue, started, finish } = harness({ concurrency: 4, perTeam: 4 });
    queue.add({ id: 'x1', teamId: 'A', lane: 'x' });
    queue.add({ id: 'x2', teamId: 'A', lane: 'x' });
    queue.add({ id: 'y1', teamId: 'A', lane: 'y' });
    expect(started).toEqual(['x1', 'y1']);
    expect(queue.hasLane('x')).toBe(true);
    await finish('x1');
    expect(started).toEqual(['x1', 'y1', 'x2']);
    await finish('x2');
    await finish('y1');
    expect(queue.hasLane('x')).toBe(false);
    expect(queue.size).toBe(0);
  });

  it('ignores a job already queued or running', async () => {
    const { queue, started, finish } = harness({ concurrency: 1, perTeam: 1 });
    expect(queue.add({ id: 'a1', teamId: 'A' })).toBe(true);
    expect(queue.add({ id: 'a1', teamId: 'A' })).toBe(false);
    await finish('a1');
    expect(queue.add({ id: 'a1', teamId: 'A' })).toBe(true);
    expect(started).toEqual(['a1', 'a1']);
  });

  it('counts the jobs not yet started and says when one finished, after the next has started', async () => {
    const finishers = new Map<string, () => void>();
    const seen: number[] = [];
    const queue: FairQueue<QueuedJob> = new FairQueue<QueuedJob>(
      { concurrency: 1, perTeam: 1 },
      (job) => new Promise<void>((resolve) => finishers.set(job.id, resolve)),
      () => seen.push(queue.notStarted),
    );
    queue.add({ id: 'a1', teamId: 'A' });
    queue.add({ id: 'a2', teamId: 'A' });
    queue.add({ id: 'a3', teamId: 'A' });
    expect(queue.notStarted).toBe(2);
    finishers.get('a1')!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([1]);
    expect(queue.notStarted).toBe(1);
  });
});
