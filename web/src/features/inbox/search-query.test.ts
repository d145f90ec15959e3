import { describe, expect, it } from 'vitest';
import { parseSearch, setToken, toListParams } from './search-query';

describe('parseSearch', () => {
  it('keeps plain words as free text', () => {
    expect(parseSearch('  invoice   march ')).toEqual({ filters: { text: 'invoice march' }, problems: [] });
  });

  it('reads every filter of the vocabulary', () => {
    const { filters, problems } = parseSearch('from:alice@acme.test to:bob subject:reset status:bounced has:attachment is:unread welcome');
    expect(problems).toEqual([]);
    expect(filters).toEqual({
      text: 'welcome',
      from: 'alice@acme.test',
      to: 'bob',
      subject: 'reset',
      status: ['bounced'],
      hasAttachment: true,
      isRead: false,
    });
  });

  it('takes quoted values with spaces, for filters and for free text', () => {
    expect(parseSearch('subject:"password reset" "hello world"').filters).toEqual({ text: 'hello world', subject: 'password reset' });
  });

  it('accepts a comma list of statuses, in any case, without duplicates', () => {
    expect(parseSearch('STATUS:Bounced,failed,bounced').filters.status).toEqual(['bounced', 'failed']);
  });

  it('reports an unknown status and keeps the known ones', () => {
    const { filters, problems } = parseSearch('status:bounced,lost');
    expect(filters.status).toEqual(['bounced']);
    expect(problems).toEqual(['Unknown status "lost": use processing, queued, delivered, bounced, failed, complaint.']);
  });

  it('reads is:read and reports unknown is: and has: values', () => {
    expect(parseSearch('is:read').filters.isRead).toBe(true);
    expect(parseSearch('is:starred has:pdf').problems).toEqual(['Unknown "is:starred": use is:unread or is:read.', 'Unknown "has:pdf": use has:attachment.']);
  });

  it('treats an unknown key and a URL as free text', () => {
    expect(parseSearch('foo:bar https://acme.test/x').filters).toEqual({ text: 'foo:bar https://acme.test/x' });
  });

  it('ignores a filter whose value is still being typed', () => {
    expect(parseSearch('from: alice').filters).toEqual({ text: 'alice' });
    expect(parseSearch('subject:').filters).toEqual({ text: '' });
  });

  it('lets the last of a repeated filter win', () => {
    expect(parseSearch('from:a from:b').filters.from).toBe('b');
  });

  it('keeps an unterminated quote as the rest of the value', () => {
    expect(parseSearch('subject:"half open').filters.subject).toBe('half open');
  });
});

describe('toListParams', () => {
  it('maps the filters to the query parameters of GET /sandbox/emails', () => {
    expect(toListParams(parseSearch('from:a to:b subject:c status:bounced,failed has:attachment is:read text').filters)).toEqual({
      search: 'text',
      from: 'a',
      to: 'b',
      subject: 'c',
      status: 'bounced,failed',
      has_attachment: true,
      is_read: true,
    });
  });

  it('leaves out what was not asked for', () => {
    expect(toListParams(parseSearch('').filters)).toEqual({});
  });
});

describe('setToken', () => {
  it('replaces a filter and keeps the rest of the query', () => {
    expect(setToken('status:queued from:alice invoice', 'status', 'bounced')).toBe('status:bounced from:alice invoice');
  });

  it('removes a filter when the value is null', () => {
    expect(setToken('status:queued invoice', 'status', null)).toBe('invoice');
  });

  it('quotes values and phrases that contain spaces', () => {
    expect(setToken('"big deal"', 'subject', 'a b')).toBe('subject:"a b" "big deal"');
  });
});
