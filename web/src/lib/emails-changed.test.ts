import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Email } from '../../../shared/email';
import type { SandboxEmail, SandboxEmailList, SandboxEmailSummary } from '../../../shared/sandbox';
import type { EmailsChanged } from '../../../shared/tags';
import { subscribeToLiveEvents, type EventSourceLike } from './live-events';
import { inboxKeys, messageKeys, type EmailListParams } from './query-keys';

/** `emails.changed` (bulk actions, tags) applied in place to the cached rows and message. */
class FakeSource implements EventSourceLike {
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {}
  emit(type: string, data: unknown) {
    for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent('message', { data: JSON.stringify({ type, data }) }));
  }
}

const row = (id: string, overrides: Partial<SandboxEmailSummary> = {}) => ({ id, subject: id, is_read: false, tags: [], ...overrides }) as unknown as SandboxEmailSummary;
const page = (...rows: SandboxEmailSummary[]): SandboxEmailList => ({ data: rows, pagination: { page: 1, limit: 50, total_records: rows.length + 10, total_pages: 1 } });
const key = inboxKeys.list({ page: 1, limit: 50 } satisfies EmailListParams);
const change = (c: Partial<EmailsChanged>): EmailsChanged => ({ action: 'read', ids: [], tags: [], count: 0, team_id: null, ...c });

describe('emails.changed', () => {
  let client: QueryClient;
  let source: FakeSource;
  let created: Email[];
  let unsubscribe: () => void;
  beforeEach(() => {
    client = new QueryClient();
    created = [];
    unsubscribe = subscribeToLiveEvents(client, { createSource: () => (source = new FakeSource()), onEmailCreated: (e) => created.push(e) });
    client.setQueryData(key, page(row('a', { tags: ['Keep', 'old'] }), row('b'), row('c', { is_read: true })));
    client.setQueryData(messageKeys.detail('a'), row('a', { tags: ['Keep', 'old'] }) as unknown as SandboxEmail);
  });
  afterEach(() => unsubscribe());
  const rows = () => client.getQueryData<SandboxEmailList>(key)!;

  it('marks rows read or unread', () => {
    source.emit('emails.changed', change({ action: 'read', ids: ['a', 'b'] }));
    expect(rows().data.map((e) => e.is_read)).toEqual([true, true, true]);
    source.emit('emails.changed', change({ action: 'unread', ids: ['c'] }));
    expect(rows().data.map((e) => e.is_read)).toEqual([true, true, false]);
  });

  it('adds, removes, sets and renames tags, case-insensitively, in rows and the open message', () => {
    source.emit('emails.changed', change({ action: 'tag', ids: ['a', 'b'], tags: ['KEEP', 'new'] }));
    expect(rows().data.map((e) => e.tags)).toEqual([['Keep', 'old', 'new'], ['KEEP', 'new'], []]);
    source.emit('emails.changed', change({ action: 'untag', ids: ['a'], tags: ['OLD'] }));
    source.emit('emails.changed', change({ action: 'rename_tag', ids: ['a', 'b'], tags: ['new', 'keep'] }));
    expect(rows().data.map((e) => e.tags)).toEqual([['Keep'], ['KEEP'], []]);
    source.emit('emails.changed', change({ action: 'set_tags', ids: ['c'], tags: ['x'] }));
    expect(rows().data[2].tags).toEqual(['x']);
    expect(client.getQueryData<SandboxEmail>(messageKeys.detail('a'))!.tags).toEqual(['Keep']);
  });

  it('removes deleted rows and lowers the total', () => {
    source.emit('emails.changed', change({ action: 'delete', ids: ['a', 'c'], count: 2 }));
    expect(rows().data.map((e) => e.id)).toEqual(['b']);
    expect(rows().pagination.total_records).toBe(11);
  });

  it('refetches instead when the event carries no ids (too many to list)', async () => {
    source.emit('emails.changed', change({ action: 'delete', ids: null, count: 9000 }));
    expect(rows().data).toHaveLength(3);
    // The throttled invalidation runs on the next timer turn.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });

  it('hands each new email to the notification hook', () => {
    source.emit('email.created', { id: 'n1', team_id: 't', subject: 'Hi' });
    expect(created.map((e) => e.id)).toEqual(['n1']);
  });
});
