import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { DomainIdentity } from '../../../shared/domain';
import type { EmailChange } from '../../../shared/events';
import type { Mailbox, SandboxEmail, SandboxEmailList, SandboxEmailSummary } from '../../../shared/sandbox';
import type { Email } from '../../../shared/email';
import type { EmailsChanged } from '../../../shared/tags';
import { apiPaths } from '../paths';
import { domainKeys, inboxKeys, isFilteredList, mailboxKeys, messageKeys, tagKeys, type EmailListParams } from './query-keys';

/** The part of EventSource the listener needs, so tests can hand in a fake. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(): void;
}

export type LiveStatus = 'connecting' | 'live' | 'offline';

export interface LiveEventsOptions {
  url?: string;
  createSource?: (url: string) => EventSourceLike;
  /** Refetches caused by events are batched to at most one per key in this window. */
  throttleMs?: number;
  onStatus?: (status: LiveStatus) => void;
  /** Every new email as the event carries it (desktop notifications listen here). */
  onEmailCreated?: (email: Email) => void;
}

const EVENT_TYPES = ['email.created', 'email.updated', 'email.deleted', 'emails.cleared', 'emails.changed', 'domain.created', 'domain.updated', 'domain.deleted'] as const;

type EmailPatch = Partial<SandboxEmailSummary> & Pick<SandboxEmailSummary, 'id'>;

/**
 * Keeps the query cache in step with the server's SSE stream. Email events carry the list item
 * the inbox caches (the sandbox summary), so a new email is put at the top of the first page of
 * each unfiltered list and counted into its mailbox, and a change is written into the cached
 * lists and message, all in place: no refetch per new email. Only what the event cannot settle
 * refetches (filtered lists and later pages, whose rows shift), throttled so a burst of 1 000
 * sends costs a few requests rather than 1 000. Returns the function that closes the stream.
 */
export function subscribeToLiveEvents(queryClient: QueryClient, options: LiveEventsOptions = {}): () => void {
  const { url = apiPaths.events, throttleMs = 300, onStatus, onEmailCreated } = options;
  const createSource = options.createSource ?? ((u: string) => new EventSource(u));
  const invalidate = throttledInvalidator(queryClient, throttleMs);
  let disconnected = false;

  const handlers: Record<(typeof EVENT_TYPES)[number], (data: unknown, change?: EmailChange) => void> = {
    'email.created': (data) => {
      const email = data as SandboxEmailSummary;
      onEmailCreated?.(email);
      insertIntoCachedLists(queryClient, email);
      if (!countIntoMailbox(queryClient, email)) invalidate(mailboxKeys.all);
      invalidateLists(queryClient, invalidate, (params, fetching) => fetching || isFilteredList(params) || params.page > 1);
    },
    'email.updated': (data, change) => {
      const patch = data as EmailPatch;
      patchCachedLists(queryClient, patch);
      queryClient.setQueryData<SandboxEmail>(messageKeys.detail(patch.id), (old) => (old ? { ...old, ...volatileFields(patch) } : old));
      // Logs, outcomes and activity are only in the full view: fetch the open message again.
      invalidate(messageKeys.detail(patch.id));
      invalidateLists(queryClient, invalidate, (params, fetching) => fetching || isFilteredList(params));
      // The summary carries the read flag (patched above); only the unread counts need the server.
      if (!change || change.kind === 'read') invalidate(mailboxKeys.all);
    },
    'email.deleted': (data) => {
      const { id } = data as { id: string };
      removeFromCachedLists(queryClient, id);
      invalidate(inboxKeys.lists());
      invalidate(mailboxKeys.all);
      invalidate(messageKeys.detail(id));
    },
    // A bulk action or a tag change: applied in place to the cached rows and message; filtered
    // lists refetch (rows may join or leave them); too many ids to list (null) refetches everything.
    'emails.changed': (data) => {
      const change = data as EmailsChanged;
      invalidate(tagKeys.all);
      if (change.action === 'delete' || change.action === 'read' || change.action === 'unread') invalidate(mailboxKeys.all);
      if (change.ids === null) {
        invalidate(inboxKeys.all);
        return;
      }
      applyEmailsChanged(queryClient, change);
      // An open message that was deleted refetches, and shows that it is gone.
      if (change.action === 'delete') invalidate(messageKeys.all);
      invalidateLists(queryClient, invalidate, (params, fetching) => fetching || isFilteredList(params));
    },
    'emails.cleared': () => {
      invalidate(inboxKeys.all);
      invalidate(mailboxKeys.all);
    },
    'domain.created': () => invalidate(domainKeys.all),
    'domain.updated': (data) => {
      const domain = data as DomainIdentity;
      queryClient.setQueriesData<DomainIdentity[]>({ queryKey: domainKeys.lists() }, (old) => old?.map((d) => (d.id === domain.id ? domain : d)));
      invalidate(domainKeys.all);
    },
    'domain.deleted': (data) => {
      const { id } = data as { id: string };
      queryClient.setQueriesData<DomainIdentity[]>({ queryKey: domainKeys.lists() }, (old) => old?.filter((d) => d.id !== id));
      invalidate(domainKeys.all);
    },
  };

  onStatus?.('connecting');
  const source = createSource(url);
  let wasOffline = false;
  source.onopen = () => {
    onStatus?.('live');
    // Events sent while the stream was down are lost: refetch everything once it is back.
    if (wasOffline) {
      wasOffline = false;
      void queryClient.invalidateQueries({ queryKey: inboxKeys.all });
      void queryClient.invalidateQueries({ queryKey: mailboxKeys.all });
      void queryClient.invalidateQueries({ queryKey: domainKeys.all });
    }
  };
  source.onerror = () => {
    if (disconnected) return;
    wasOffline = true;
    onStatus?.('offline');
  };
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (event) => {
      let payload: { data?: unknown; change?: EmailChange };
      try {
        payload = JSON.parse(event.data) as { data?: unknown; change?: EmailChange };
      } catch {
        return;
      }
      // Every event carries an object; anything else is not from sendbox and is ignored.
      if (typeof payload?.data !== 'object' || payload.data === null) return;
      handlers[type](payload.data, payload.change);
    });
  }

  return () => {
    disconnected = true;
    source.close();
    invalidate.cancel();
  };
}

/** A new email at the top of page 1 of every unfiltered list that shows its team, the page kept at its size. */
function insertIntoCachedLists(queryClient: QueryClient, email: SandboxEmailSummary): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: inboxKeys.lists() })) {
    const params = query.queryKey[2] as EmailListParams | undefined;
    if (!params || params.page !== 1 || isFilteredList(params)) continue;
    if (params.team_id !== undefined && params.team_id !== email.team_id) continue;
    queryClient.setQueryData<SandboxEmailList>(query.queryKey, (old) => {
      if (!old || old.data.some((e) => e.id === email.id)) return old;
      const total = old.pagination.total_records + 1;
      return { data: [email, ...old.data].slice(0, params.limit), pagination: { ...old.pagination, total_records: total, total_pages: Math.ceil(total / params.limit) } };
    });
  }
}

/** Counts a new email into its team's cached mailbox; false when there is no such mailbox yet (a new team). */
function countIntoMailbox(queryClient: QueryClient, email: SandboxEmailSummary): boolean {
  const mailboxes = queryClient.getQueryData<Mailbox[]>(mailboxKeys.all);
  if (!mailboxes?.some((m) => m.team_id === email.team_id)) return false;
  queryClient.setQueryData<Mailbox[]>(mailboxKeys.all, mailboxes.map((m) => (m.team_id === email.team_id ? { ...m, total: m.total + 1, unread: m.unread + (email.is_read ? 0 : 1) } : m)));
  return true;
}

function patchCachedLists(queryClient: QueryClient, patch: EmailPatch): void {
  queryClient.setQueriesData<SandboxEmailList>({ queryKey: inboxKeys.lists() }, (old) => {
    if (!old || !old.data.some((e) => e.id === patch.id)) return old;
    return { ...old, data: old.data.map((e) => (e.id === patch.id ? { ...e, ...volatileFields(patch) } : e)) };
  });
}

const VOLATILE = ['status', 'opened_at', 'delivered_at', 'click_count', 'is_read'] as const;

/** What an update can change. The rest of the event's record is left alone: its body fields may be empty. */
function volatileFields(patch: EmailPatch): Partial<SandboxEmailSummary> {
  const picked: Record<string, unknown> = {};
  for (const key of VOLATILE) if (patch[key] !== undefined) picked[key] = patch[key];
  return picked as Partial<SandboxEmailSummary>;
}

/** The in-place effect of an `emails.changed` event on one row. null: the row is gone. */
function changedRow<T extends Pick<SandboxEmailSummary, 'is_read' | 'tags'>>(row: T, change: EmailsChanged): T | null {
  const lower = (tags: string[]) => new Set(tags.map((t) => t.toLowerCase()));
  const tags = row.tags ?? [];
  switch (change.action) {
    case 'delete':
      return null;
    case 'read':
    case 'unread':
      return { ...row, is_read: change.action === 'read' };
    case 'tag': {
      const have = lower(tags);
      return { ...row, tags: [...tags, ...change.tags.filter((t) => !have.has(t.toLowerCase()))] };
    }
    case 'untag': {
      const gone = lower(change.tags);
      return { ...row, tags: tags.filter((t) => !gone.has(t.toLowerCase())) };
    }
    case 'set_tags':
      return { ...row, tags: change.tags };
    case 'rename_tag': {
      const [from, to] = change.tags;
      const renamed = tags.map((t) => (t.toLowerCase() === from.toLowerCase() ? to : t));
      return { ...row, tags: renamed.filter((t, i) => renamed.findIndex((u) => u.toLowerCase() === t.toLowerCase()) === i) };
    }
  }
}

export function applyEmailsChanged(queryClient: QueryClient, change: EmailsChanged): void {
  const ids = new Set(change.ids ?? []);
  queryClient.setQueriesData<SandboxEmailList>({ queryKey: inboxKeys.lists() }, (old) => {
    if (!old || !old.data.some((e) => ids.has(e.id))) return old;
    const data = old.data.flatMap((e) => (ids.has(e.id) ? (changedRow(e, change) ?? []) : [e]));
    const removed = old.data.length - data.length;
    return { data, pagination: { ...old.pagination, total_records: Math.max(0, old.pagination.total_records - removed) } };
  });
  for (const id of ids) {
    queryClient.setQueryData<SandboxEmail>(messageKeys.detail(id), (old) => (old ? (changedRow(old, change) ?? old) : old));
  }
}

function removeFromCachedLists(queryClient: QueryClient, id: string): void {
  queryClient.setQueriesData<SandboxEmailList>({ queryKey: inboxKeys.lists() }, (old) => {
    if (!old || !old.data.some((e) => e.id === id)) return old;
    return {
      data: old.data.filter((e) => e.id !== id),
      pagination: { ...old.pagination, total_records: Math.max(0, old.pagination.total_records - 1) },
    };
  });
}

/**
 * Refetches the lists the update may have changed beyond the patch: a filtered list (the email
 * may leave or join it), and any list whose request is in flight, since its answer was read
 * before this update and would overwrite the patch with the older state.
 */
function invalidateLists(queryClient: QueryClient, invalidate: (key: QueryKey) => void, needs: (params: EmailListParams, fetching: boolean) => boolean): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: inboxKeys.lists() })) {
    const params = query.queryKey[2] as EmailListParams | undefined;
    if (params && needs(params, query.state.fetchStatus === 'fetching')) invalidate(query.queryKey);
  }
}

type Invalidator = ((key: QueryKey) => void) & { cancel(): void };

/**
 * Invalidates each key at most once per window: the first event of a quiet period refetches at
 * once (new mail shows immediately), the rest of a burst is folded into one refetch at the window's end.
 */
export function throttledInvalidator(queryClient: QueryClient, windowMs: number): Invalidator {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastFlush = -Infinity;

  const flush = () => {
    timer = null;
    lastFlush = Date.now();
    const keys = [...pending.values()];
    pending.clear();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };

  const invalidate = ((key: QueryKey) => {
    pending.set(JSON.stringify(key), key);
    if (timer !== null) return;
    const wait = Math.max(0, lastFlush + windowMs - Date.now());
    timer = setTimeout(flush, wait);
  }) as Invalidator;
  invalidate.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    pending.clear();
  };
  return invalidate;
}
