import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { SandboxEmail, SandboxEmailList, SandboxEmailSummary, Mailbox } from '../../../shared/sandbox';
import type { DomainIdentity } from '../../../shared/domain';
import { subscribeToLiveEvents, type EventSourceLike, type LiveStatus } from './live-events';
import { domainKeys, inboxKeys, mailboxKeys, messageKeys, type EmailListParams } from './query-keys';

/** A stand-in for EventSource that the test drives by hand. */
class FakeSource implements EventSourceLike {
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown, extra: Record<string, unknown> = {}) {
    const event = new MessageEvent('message', { data: JSON.stringify({ type, data, ...extra }) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

const summary = (id: string, overrides: Partial<SandboxEmailSummary> = {}): SandboxEmailSummary =>
  ({ id, subject: `Email ${id}`, status: 'processing', is_read: false, opened_at: null, delivered_at: null, click_count: 0, metadata: { from: 'a@x.test', to: ['b@x.test'], cc: null, bcc: null, reply_to: null, text: '', html: '' }, ...overrides }) as SandboxEmailSummary;

const list = (...emails: SandboxEmailSummary[]): SandboxEmailList => ({ data: emails, pagination: { page: 1, limit: 50, total_records: emails.length, total_pages: 1 } });
const params = (extra: Partial<EmailListParams> = {}): EmailListParams => ({ page: 1, limit: 50, ...extra });
const mailbox = (team_id: string, total: number, unread: number): Mailbox => ({ team_id, total, unread, api_keys: [] });

describe('subscribeToLiveEvents', () => {
  let client: QueryClient;
  let source: FakeSource;
  let statuses: LiveStatus[];
  let unsubscribe: () => void;

  beforeEach(() => {
    vi.useFakeTimers();
    client = new QueryClient();
    statuses = [];
    unsubscribe = subscribeToLiveEvents(client, {
      throttleMs: 300,
      createSource: (url) => (source = new FakeSource(url)),
      onStatus: (s) => statuses.push(s),
    });
  });
  afterEach(() => {
    unsubscribe();
    vi.useRealTimers();
  });

  const isInvalid = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;

  it('listens on /sandbox/events and reports the connection', () => {
    expect(source.url).toBe('/sandbox/events');
    source.onopen?.(new Event('open'));
    source.onerror?.(new Event('error'));
    expect(statuses).toEqual(['connecting', 'live', 'offline']);
  });

  it('writes a status change into every cached list and the open email without refetching them', () => {
    client.setQueryData(inboxKeys.list(params()), list(summary('a'), summary('b')));
    client.setQueryData(inboxKeys.list(params({ team_id: 'team_1' })), list(summary('a')));
    client.setQueryData<SandboxEmail>(messageKeys.detail('a'), { ...summary('a'), logs: [], raw: 'RAW' } as unknown as SandboxEmail);

    source.emit('email.updated', { id: 'a', status: 'bounced', metadata: { html: '' } }, { change: { kind: 'state', recipient: 'b@x.test', state: 'bounced' } });

    expect(client.getQueryData<SandboxEmailList>(inboxKeys.list(params()))?.data.map((e) => e.status)).toEqual(['bounced', 'processing']);
    expect(client.getQueryData<SandboxEmailList>(inboxKeys.list(params({ team_id: 'team_1' })))?.data[0].status).toBe('bounced');
    const detail = client.getQueryData<SandboxEmail>(messageKeys.detail('a'));
    expect(detail?.status).toBe('bounced');
    expect(detail?.raw).toBe('RAW');
    vi.runAllTimers();
    expect(isInvalid(inboxKeys.list(params()))).toBe(false);
    // The open email refetches for its new log entries.
    expect(isInvalid(messageKeys.detail('a'))).toBe(true);
  });

  it('refetches a filtered list on a status change, since the email may leave or join it', () => {
    client.setQueryData(inboxKeys.list(params({ status: 'queued' })), list(summary('a', { status: 'queued' })));
    client.setQueryData(inboxKeys.list(params()), list(summary('a')));
    source.emit('email.updated', { id: 'a', status: 'delivered' }, { change: { kind: 'state' } });
    vi.runAllTimers();
    expect(isInvalid(inboxKeys.list(params({ status: 'queued' })))).toBe(true);
    expect(isInvalid(inboxKeys.list(params()))).toBe(false);
  });

  it('refetches a list whose request was in flight during an update, so its older answer does not stick', async () => {
    const key = inboxKeys.list(params());
    let answer: (value: SandboxEmailList) => void = () => {};
    const fetching = client.fetchQuery({ queryKey: key, queryFn: () => new Promise<SandboxEmailList>((resolve) => (answer = resolve)) });
    source.emit('email.updated', { id: 'a', status: 'delivered' });
    answer(list(summary('a', { status: 'queued' })));
    await fetching;
    expect(client.getQueryData<SandboxEmailList>(key)?.data[0].status).toBe('queued');
    vi.runAllTimers();
    expect(isInvalid(key)).toBe(true);
  });

  it('writes a read change from the event into cached lists, refetching only the unread counts', () => {
    client.setQueryData(inboxKeys.list(params()), list(summary('a')));
    client.setQueryData(mailboxKeys.all, [mailbox('team_1', 1, 1)]);
    source.emit('email.updated', summary('a', { is_read: true }), { change: { kind: 'read' } });
    vi.runAllTimers();
    expect(client.getQueryData<SandboxEmailList>(inboxKeys.list(params()))?.data[0].is_read).toBe(true);
    expect(isInvalid(inboxKeys.list(params()))).toBe(false);
    expect(isInvalid(mailboxKeys.all)).toBe(true);
  });

  it('puts a new email at the top of the first page and counts it into its mailbox, without a refetch', () => {
    client.setQueryData(inboxKeys.list(params({ limit: 2 })), { ...list(summary('b'), summary('c')), pagination: { page: 1, limit: 2, total_records: 2, total_pages: 1 } });
    client.setQueryData(inboxKeys.list(params({ team_id: 'team_2' })), list());
    client.setQueryData(mailboxKeys.all, [mailbox('team_1', 2, 1), mailbox('team_2', 0, 0)]);
    const invalidate = vi.spyOn(client, 'invalidateQueries');

    for (let i = 0; i < 500; i++) source.emit('email.created', summary(`n${i}`, { team_id: 'team_1' }));
    source.emit('email.created', summary('a', { team_id: 'team_1' }));
    vi.runAllTimers();
    const first = client.getQueryData<SandboxEmailList>(inboxKeys.list(params({ limit: 2 })));
    expect(first?.data.map((e) => e.id)).toEqual(['a', 'n499']);
    expect(first?.pagination).toEqual({ page: 1, limit: 2, total_records: 503, total_pages: 252 });
    // Another team's mailbox list is left as it was.
    expect(client.getQueryData<SandboxEmailList>(inboxKeys.list(params({ team_id: 'team_2' })))?.data).toEqual([]);
    expect(client.getQueryData<Mailbox[]>(mailboxKeys.all)).toEqual([mailbox('team_1', 503, 502), mailbox('team_2', 0, 0)]);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('refetches filtered lists and later pages when an email arrives, once for a whole burst', () => {
    client.setQueryData(inboxKeys.list(params({ search: 'x' })), list());
    client.setQueryData(inboxKeys.list(params({ page: 2 })), list());
    const invalidate = vi.spyOn(client, 'invalidateQueries');

    source.emit('email.created', summary('a'));
    vi.advanceTimersByTime(0);
    expect(isInvalid(inboxKeys.list(params({ search: 'x' })))).toBe(true);
    expect(isInvalid(inboxKeys.list(params({ page: 2 })))).toBe(true);
    const afterFirst = invalidate.mock.calls.length;

    for (let i = 0; i < 500; i++) source.emit('email.created', summary(`n${i}`));
    vi.advanceTimersByTime(299);
    expect(invalidate.mock.calls.length).toBe(afterFirst);
    vi.advanceTimersByTime(1);
    // One refetch per affected list (and of the counts of a team not cached yet) for the 500 events.
    expect(invalidate.mock.calls.length).toBe(afterFirst + 3);
  });

  it('takes a deleted email out of cached lists at once and counts it out', () => {
    client.setQueryData(inboxKeys.list(params()), list(summary('a'), summary('b')));
    source.emit('email.deleted', { id: 'a', team_id: 'team_1' });
    const cached = client.getQueryData<SandboxEmailList>(inboxKeys.list(params()));
    expect(cached?.data.map((e) => e.id)).toEqual(['b']);
    expect(cached?.pagination.total_records).toBe(1);
  });

  it('refetches every email query when a mailbox is cleared', () => {
    client.setQueryData(inboxKeys.list(params()), list(summary('a')));
    client.setQueryData(messageKeys.detail('a'), summary('a'));
    source.emit('emails.cleared', { team_id: null });
    vi.runAllTimers();
    expect(isInvalid(inboxKeys.list(params()))).toBe(true);
    expect(isInvalid(messageKeys.detail('a'))).toBe(true);
  });

  it('replaces an updated domain in cached domain lists and drops a deleted one', () => {
    const domain = (id: string, status: DomainIdentity['status']) => ({ id, value: `${id}.test`, status }) as DomainIdentity;
    client.setQueryData(domainKeys.list(null), [domain('d1', 'not_started'), domain('d2', 'pending')]);
    source.emit('domain.updated', domain('d1', 'success'));
    expect(client.getQueryData<DomainIdentity[]>(domainKeys.list(null))?.map((d) => d.status)).toEqual(['success', 'pending']);
    source.emit('domain.deleted', { id: 'd2', value: 'd2.test', team_id: 't' });
    expect(client.getQueryData<DomainIdentity[]>(domainKeys.list(null))?.map((d) => d.id)).toEqual(['d1']);
  });

  it('refetches everything after the stream comes back, since events were missed', () => {
    client.setQueryData(inboxKeys.list(params()), list());
    source.onopen?.(new Event('open'));
    expect(isInvalid(inboxKeys.list(params()))).toBe(false);
    source.onerror?.(new Event('error'));
    source.onopen?.(new Event('open'));
    expect(isInvalid(inboxKeys.list(params()))).toBe(true);
  });

  it('ignores malformed event data and closes the stream on unsubscribe', () => {
    client.setQueryData(inboxKeys.list(params()), list(summary('a')));
    expect(() => source.emit('email.updated', undefined)).not.toThrow();
    expect(() => source.emit('email.deleted', 'a')).not.toThrow();
    expect(client.getQueryData<SandboxEmailList>(inboxKeys.list(params()))?.data).toHaveLength(1);
    unsubscribe();
    expect(source.closed).toBe(true);
  });
});
