import { describe, expect, it } from 'vitest';
import { readSearch, removeToken, searchChips, setToken, toListParams } from './search-query';

describe('readSearch', () => {
  it('sends the parsed terms as q, as typed', () => {
    const search = readSearch('from:alice@acme.test -tag:spam subject:"password reset" is:unread welcome');
    expect(search.problems).toEqual([]);
    expect(toListParams(search)).toEqual({ q: 'from:alice@acme.test -tag:spam subject:"password reset" is:unread welcome' });
  });

  it('leaves out what it cannot parse and explains it', () => {
    const search = readSearch('status:bounced,lost invoice');
    expect(search.q).toBe('invoice');
    expect(search.problems).toEqual([{ term: 'status:bounced,lost', message: 'unknown status "lost": use processing, queued, delivered, bounced, failed, complaint (a comma list for several)' }]);
  });

  it('collects the statuses of positive status: terms for the status menu', () => {
    expect(readSearch('STATUS:Bounced,failed -status:queued').statuses).toEqual(['bounced', 'failed']);
  });

  it('asks for nothing when the box is empty', () => {
    expect(toListParams(readSearch('  '))).toEqual({});
  });
});

describe('chips', () => {
  it('gives one chip per term or problem, and removes one by its index', () => {
    const q = 'from:alice nope:x  invoice';
    expect(searchChips(q).map((c) => [c.index, c.source, c.problem === null])).toEqual([[0, 'from:alice', true], [1, 'nope:x', false], [2, 'invoice', true]]);
    expect(removeToken(q, 1)).toBe('from:alice invoice');
  });
});

describe('setToken', () => {
  it('replaces a filter and keeps the rest of the query', () => {
    expect(setToken('status:queued from:alice invoice', 'status', 'bounced')).toBe('status:bounced from:alice invoice');
  });

  it('removes a filter when the value is null', () => {
    expect(setToken('status:queued invoice', 'status', null)).toBe('invoice');
  });

  it('quotes values that contain spaces', () => {
    expect(setToken('"big deal"', 'subject', 'a b')).toBe('subject:"a b" "big deal"');
  });
});
