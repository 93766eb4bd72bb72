import { map } from 'rxjs';
import { SubjectRegistry } from './subject-registry';

/** A registry whose hooks record what they were asked to do upstream. */
function registry(onFirst: (key: string) => void = () => undefined) {
  const upstream: string[] = [];
  const subjects = new SubjectRegistry<number>({
    onFirstSubscriber: (key) => {
      onFirst(key);
      upstream.push(`subscribe ${key}`);
    },
    onLastUnsubscribe: (key) => upstream.push(`unsubscribe ${key}`),
  });
  return { subjects, upstream };
}

describe('SubjectRegistry', () => {
  it('subscribes upstream once for the first subscriber of a key, and shares values', () => {
    const { subjects, upstream } = registry();
    const a: number[] = [];
    const b: number[] = [];
    subjects.observe('c1').subscribe((value) => a.push(value));
    subjects.observe('c1').subscribe((value) => b.push(value));
    subjects.next('c1', 1);
    subjects.next('c2', 2);

    expect(upstream).toEqual(['subscribe c1']);
    expect({ a, b, size: subjects.size }).toEqual({ a: [1], b: [1], size: 1 });
  });

  it('releases upstream only when the last subscriber leaves', () => {
    const { subjects, upstream } = registry();
    const first = subjects.observe('c1').subscribe();
    const second = subjects.observe('c1').subscribe();

    first.unsubscribe();
    expect(upstream).toEqual(['subscribe c1']);
    second.unsubscribe();
    expect(upstream).toEqual(['subscribe c1', 'unsubscribe c1']);
    expect({ size: subjects.size, has: subjects.has('c1') }).toEqual({ size: 0, has: false });
  });

  it('subscribes upstream again for a subscriber that comes after the release', () => {
    const { subjects, upstream } = registry();
    subjects.observe('c1').subscribe().unsubscribe();
    const values: number[] = [];
    subjects.observe('c1').subscribe((value) => values.push(value));
    subjects.next('c1', 7);

    expect(upstream).toEqual(['subscribe c1', 'unsubscribe c1', 'subscribe c1']);
    expect(values).toEqual([7]);
  });

  it('drops values for a key nobody watches, and gives nextAll to every watched key', () => {
    const { subjects } = registry();
    const seen: string[] = [];
    subjects.next('c1', 0);
    subjects.observe('c1').subscribe((value) => seen.push(`c1:${value}`));
    subjects.observe('c2').subscribe((value) => seen.push(`c2:${value}`));
    subjects.nextAll(9);

    expect(seen).toEqual(['c1:9', 'c2:9']);
  });

  it('releases the subscriber whose pipeline fails', () => {
    const { subjects, upstream } = registry();
    const errors: unknown[] = [];
    subjects
      .observe('c1')
      .pipe(
        map(() => {
          throw new Error('consumer failed');
        }),
      )
      .subscribe({ error: (error: unknown) => errors.push(error) });
    subjects.next('c1', 1);

    expect(errors).toHaveLength(1);
    expect(upstream).toEqual(['subscribe c1', 'unsubscribe c1']);
    expect(subjects.size).toBe(0);
  });

  it('registers nothing when subscribing upstream fails, and lets the next subscriber retry', () => {
    let failing = true;
    const { subjects, upstream } = registry(() => {
      if (failing) {
        throw new Error('upstream down');
      }
    });
    const errors: unknown[] = [];
    subjects.observe('c1').subscribe({ error: (error: unknown) => errors.push(error) });
    expect({ errors: errors.length, size: subjects.size }).toEqual({ errors: 1, size: 0 });

    failing = false;
    subjects.observe('c1').subscribe();
    expect(upstream).toEqual(['subscribe c1']);
    expect(subjects.size).toBe(1);
  });
});
