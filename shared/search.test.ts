import { describe, expect, it } from 'vitest';
import { describeTerm, formatSearch, parseSearch, parseSize, removeSearchToken, setSearchKey } from './search.js';
import { parseTagsHeader } from './tags.js';

describe('the search language', () => {
  it('reads every filter, quoted phrases and free text', () => {
    const { terms, problems } = parseSearch('from:alice to:bob cc:carol subject:"password reset" tag:signup status:bounced,FAILED is:unread has:attachment has:inline after:2026-01-31 before:2026-02-01T12:00:00Z larger:100KB smaller:2mb header:X-Env=ci "hello world" invoice');
    expect(problems).toEqual([]);
    expect(terms.map((t) => t.kind)).toEqual(['from', 'to', 'cc', 'subject', 'tag', 'status', 'is', 'has', 'has', 'after', 'before', 'larger', 'smaller', 'header', 'text', 'text']);
    expect(terms[3]).toMatchObject({ kind: 'subject', value: 'password reset', negated: false });
    expect(terms[5]).toMatchObject({ statuses: ['bounced', 'failed'] });
    expect(terms[6]).toMatchObject({ read: false });
    expect(terms[9]).toMatchObject({ ms: Date.parse('2026-01-31T00:00:00Z') });
    expect(terms[10]).toMatchObject({ ms: Date.parse('2026-02-01T12:00:00Z') });
    expect(terms[11]).toMatchObject({ bytes: 102_400 });
    expect(terms[12]).toMatchObject({ bytes: 2 * 1024 * 1024 });
    expect(terms[13]).toMatchObject({ name: 'X-Env', value: 'ci' });
    expect(terms[14]).toMatchObject({ kind: 'text', value: 'hello world' });
  });

  it('negates any term with a leading minus', () => {
    const { terms } = parseSearch('-tag:spam -"out of office" -from:noreply -is:read -header:List-Id');
    expect(terms.every((t) => t.negated)).toBe(true);
    expect(terms.map(describeTerm)).toEqual(['not tagged "spam"', 'without "out of office"', 'from does not contain "noreply"', 'unread', 'without header List-Id']);
  });

  it('names each term it cannot parse and keeps the others', () => {
    const { terms, problems } = parseSearch('status:lost foo:bar is:starred after:2026-02-30 larger:lots "open quote');
    expect(terms).toEqual([]);
    expect(problems.map((p) => p.term)).toEqual(['status:lost', 'foo:bar', 'is:starred', 'after:2026-02-30', 'larger:lots', '"open quote']);
    expect(problems[0].message).toContain('unknown status "lost"');
    expect(problems[1].message).toContain('unknown filter foo:');
  });

  it('treats a quoted key:value as text, a lone minus as nothing, and an empty value as a problem', () => {
    expect(parseSearch('"re: hello"').terms).toMatchObject([{ kind: 'text', value: 're: hello' }]);
    expect(parseSearch('a - b').terms.map((t) => t.kind)).toEqual(['text', 'text', 'text']);
    expect(parseSearch('from:').problems).toEqual([{ term: 'from:', message: 'from: needs a value' }]);
  });

  it('writes terms back as they were typed, so chips can remove one', () => {
    const q = 'from:alice -tag:"two words" invoice';
    expect(formatSearch(parseSearch(q).terms)).toBe(q);
    expect(removeSearchToken(q, 1)).toBe('from:alice invoice');
    expect(setSearchKey(q, 'status', 'bounced')).toBe('status:bounced from:alice -tag:"two words" invoice');
    expect(setSearchKey('status:x other', 'status', null)).toBe('other');
  });

  it('reads sizes in bytes, KB and MB', () => {
    expect([parseSize('500'), parseSize('1k'), parseSize('1.5MB'), parseSize('3 parsecs')]).toEqual([500, 1024, 1_572_864, null]);
  });

  it('reads X-Tags as a trimmed, distinct comma list', () => {
    expect(parseTagsHeader(' signup, Welcome ,, signup ,welcome,a\u0001b ')).toEqual(['signup', 'Welcome', 'a b']);
  });
});
