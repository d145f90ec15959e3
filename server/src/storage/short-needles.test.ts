import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asciiLower, EMAIL, FIELD, SEGMENT_SIZE, ShortNeedleIndex } from './short-needles.js';

// The index against the obvious filter over the same emails, across segment boundaries
// (4 096 emails each), pruning and team filters.
describe('ShortNeedleIndex', () => {
  it('finds exactly the emails whose text contains the needle, newest first, with true totals and pages', () => {
    const alphabet = fc.constantFrom('a', 'b', 'O', 'l', 'é', ' ', '@', '.');
    const email = fc.record({ team: fc.constantFrom('t1', 't2', 't3'), subject: fc.string({ unit: alphabet, maxLength: 6 }), to: fc.string({ unit: alphabet, maxLength: 4 }) });
    fc.assert(
      fc.property(
        fc.array(email, { minLength: 1, maxLength: 300 }),
        fc.string({ unit: alphabet, minLength: 0, maxLength: 2 }),
        fc.constantFrom(null, 't1', 't2', 'nobody'),
        fc.nat(300),
        fc.nat(40),
        fc.integer({ min: 1, max: 50 }),
        (emails, needle, team, prune, offset, limit) => {
          const appended = new ShortNeedleIndex();
          emails.forEach((e, i) => appended.append(i + 1, e.team, [e.subject, e.to, 'Sender']));
          // As EmailStore reads it: segments of SEGMENT_SIZE, A–Z lower-cased, EMAIL after each.
          const segments = [];
          for (let i = 0; i < emails.length; i += SEGMENT_SIZE) {
            const part = emails.slice(i, i + SEGMENT_SIZE);
            segments.push({ ids: part.map((_, k) => i + k + 1), teams: part.map((e) => e.team), text: Buffer.from(part.map((e) => asciiLower([e.subject, e.to, 'Sender'].join(FIELD)) + EMAIL).join('')) });
          }
          const built = ShortNeedleIndex.build(segments);
          const expected = emails
            .map((e, i) => ({ ...e, id: i + 1 }))
            .filter((e) => e.id > prune && (team === null || e.team === team) && [e.subject, e.to, 'Sender'].some((f) => asciiLower(f).includes(asciiLower(needle))))
            .map((e) => e.id)
            .reverse();
          for (const index of [appended, built]) {
            index.dropThrough(prune);
            const got = index.search(needle, team, offset, limit);
            expect(got.total).toBe(expected.length);
            expect(got.ids).toEqual(expected.slice(offset, offset + limit));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('spans several segments, and prunes whole and partial ones', () => {
    const index = new ShortNeedleIndex();
    for (let id = 1; id <= 10_000; id++) index.append(id, id % 2 ? 'odd' : 'even', [`n${id % 10}`, 'x']);
    expect(index.search('n7', null, 0, 3)).toEqual({ total: 1_000, ids: [9997, 9987, 9977] });
    expect(index.search('n7', 'even', 0, 3).total).toBe(0);
    index.dropThrough(5_000);
    expect(index.search('n7', null, 0, 2)).toEqual({ total: 500, ids: [9997, 9987] });
    expect(index.search('n7', null, 499, 5)).toEqual({ total: 500, ids: [5007] });
    index.dropThrough(10_000);
    expect(index.search('', null, 0, 5)).toEqual({ total: 0, ids: [] });
    index.append(10_001, 'odd', ['n1', 'x']);
    expect(index.search('', null, 0, 5)).toEqual({ total: 1, ids: [10_001] });
  });

  it('never matches across two fields or two emails', () => {
    const index = new ShortNeedleIndex();
    index.append(1, 't', ['ab', 'cd']);
    index.append(2, 't', ['ef', 'gh']);
    expect(index.search('bc', null, 0, 10).total).toBe(0);
    expect(index.search('de', null, 0, 10).total).toBe(0);
    expect(index.search('hd', null, 0, 10).total).toBe(0);
    expect(index.search('cd', null, 0, 10).ids).toEqual([1]);
  });
});
