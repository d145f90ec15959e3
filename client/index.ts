/**
 * The typed sendbox client for test suites (Vitest, Jest, Playwright …): send through the
 * provider API, wait for emails without polling, follow links, read codes, script
 * outcomes. Zero dependencies: it uses the global fetch (Node 18+, browsers).
 *
 *   import { createSendboxClient } from 'sendbox/client';
 *   const sendbox = createSendboxClient({ baseUrl: 'http://127.0.0.1:8025' });
 *   const email = await sendbox.waitForEmail({ to: 'jane@example.com', subject: 'Reset' });
 *   await page.goto(sendbox.latestLink(email, /reset/));
 */
import type { Email, SendResponse } from '../shared/email.js';
import type { DomainIdentity } from '../shared/domain.js';
import type { Webhook, WebhookAttempt, WebhookDetail, WebhookInput } from '../shared/webhooks.js';
import type { AuthResult, HtmlCheckResult, LinkCheckResult, SpamResult } from '../shared/lab.js';
import type {
  ChaosRates,
  ChaosSettings,
  DeliveryState,
  ForceEventInput,
  Mailbox,
  ResetResult,
  Rule,
  RuleInput,
  SandboxEmail,
  SandboxEmailList,
  SandboxEmailSummary,
  SandboxLink,
} from '../shared/sandbox.js';
import type { ReleaseResult } from '../shared/release.js';
import type { BulkRequest, BulkResult, TagCount } from '../shared/tags.js';

export type * from '../shared/sandbox.js';
export type { ReleaseResult } from '../shared/release.js';
export type { BulkAction, BulkRequest, BulkResult, EmailsChanged, TagCount } from '../shared/tags.js';
export type { Email, EmailLogEntry, EmailStatus } from '../shared/email.js';
export type { DomainIdentity, DnsRecord, DomainStatus } from '../shared/domain.js';
export type { Webhook, WebhookAttempt, WebhookDetail, WebhookInput, WebhookPayload } from '../shared/webhooks.js';
export type { AuthResult, HtmlCheckResult, LinkCheckResult, SpamResult } from '../shared/lab.js';

export interface SendboxClientOptions {
  /** Where sendbox listens, e.g. `http://127.0.0.1:8025`. */
  baseUrl: string;
  /** The API key `send` uses (any well-formed key in open mode). */
  apiKey?: string;
  /** Scope waits and lists to one team (parallel workers with their own keys). */
  teamId?: string;
  /** Credentials when sendbox runs with `--ui-auth user:password`. */
  auth?: { username: string; password: string };
  /** Another fetch implementation (defaults to the global one). */
  fetch?: typeof fetch;
  /**
   * The default `since` of every wait: `'now'` ignores mail from before the client was made
   * (a fresh client per test then never reads a previous test's mail), or a time or an email.
   */
  since?: Since;
}

/** Only emails created after this: `'now'` (when the call or the client was made), an email (or its id), or a time (inclusive). */
export type Since = 'now' | string | Date | { id: string };

/** A send through `POST /v1/send`; addresses are `a@x.com` or `Name <a@x.com>`. */
export interface SendInput {
  from?: string;
  to: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  subject: string;
  body: string;
  username?: string;
  reply_to?: string;
  headers?: Record<string, string>;
  attachments?: { filename: string; content: string; contentType: string; contentId?: string }[];
}

export interface WaitOptions {
  /** An address or a `*` glob over any recipient (to, cc, bcc). */
  to?: string;
  /** A case-insensitive substring of the subject. */
  subject?: string;
  /**
   * Only emails created after this: `'now'` (when this call was made), an email (or its id),
   * or a time (inclusive). Defaults to the client's `since`; without either, existing emails match.
   */
  since?: Since;
  /** How long the server waits, in ms (default 10 000, at most 300 000). */
  timeoutMs?: number;
  teamId?: string;
  signal?: AbortSignal;
}

export interface ListOptions {
  page?: number;
  limit?: number;
  search?: string;
  from?: string;
  to?: string;
  subject?: string;
  status?: string;
  teamId?: string;
  hasAttachment?: boolean;
  isRead?: boolean;
  /** The search language: `from:alice -tag:spam after:2026-01-31 "reset link"` (README, Sandbox API). */
  q?: string;
}

type ScriptedStatus = 'success' | 'pending' | 'failed' | 'temporary_failure';
interface ScriptStep {
  status?: ScriptedStatus;
  records?: Partial<Record<'dkim' | 'spf' | 'bounce' | 'dmarc', 'success' | 'pending' | 'failed'>>;
  error_type?: 'HOST_NOT_FOUND' | 'TYPE_NOT_FOUND' | 'INVALID_VALUE' | 'DNS_SERVER_ERROR' | 'SERVICE_ERROR';
}
/** A scripted domain verification (`PUT /sandbox/domains/{domain}/verification`): one check, or a sequence used one per check. */
export type DomainScript = (ScriptStep | { sequence: (ScriptedStatus | ScriptStep)[] }) & { team_id?: string };

/** A failed sendbox call: the HTTP status and the JSON body the server answered. */
export class SendboxError extends Error {
  constructor(message: string, readonly status: number, readonly body: unknown) {
    super(message);
    this.name = 'SendboxError';
  }
}

/** A link matcher: a substring or a RegExp (tried on the href, then the text), or a predicate. */
export type LinkMatch = string | RegExp | ((link: SandboxLink) => boolean);

// Links a reader would not call "the" link of an email.
const INCIDENTAL = /unsubscribe|preferences|privacy|terms|legal|help|support|contact|mailto:|facebook|twitter|linkedin|instagram|youtube/i;

const newest = <T>(email: T | T[]): T => {
  const one = Array.isArray(email) ? email[email.length - 1] : email;
  if (!one) throw new Error('No email given');
  return one;
};

/**
 * The link to follow: the first matching `match`, or without it the first link that is
 * not incidental (unsubscribe, privacy, help …, or a bare home page). Given several
 * emails (as `waitForEmail` with `count` returns), it reads the newest.
 */
export function latestLink(email: Pick<SandboxEmail, 'links' | 'subject'> | Pick<SandboxEmail, 'links' | 'subject'>[], match?: LinkMatch): string {
  const { links, subject } = newest(email);
  const test = (link: SandboxLink): boolean => {
    if (match === undefined) return !INCIDENTAL.test(`${link.href} ${link.text}`) && !/^https?:\/\/[^/?#]+\/?(?:[?#].*)?$/i.test(link.href);
    if (typeof match === 'function') return match(link);
    if (typeof match === 'string') return link.href.includes(match) || link.text.includes(match);
    match.lastIndex = 0;
    const inHref = match.test(link.href);
    match.lastIndex = 0;
    return inHref || match.test(link.text);
  };
  const found = links.find(test) ?? (match === undefined ? links[0] : undefined);
  if (!found) {
    const known = links.map((l) => `${l.text ? `${l.text} → ` : ''}${l.href}`).join('\n  ') || '(none)';
    throw new Error(`No link${match === undefined ? '' : ` matching ${String(match)}`} in ${JSON.stringify(subject)}. Links:\n  ${known}`);
  }
  return found.href;
}

/** The verification code of an email (the first one found); throws when there is none. */
export function code(email: Pick<SandboxEmail, 'codes' | 'subject' | 'snippet'> | Pick<SandboxEmail, 'codes' | 'subject' | 'snippet'>[]): string {
  const one = newest(email);
  const found = one.codes[0];
  if (!found) throw new Error(`No verification code in ${JSON.stringify(one.subject)} (${JSON.stringify(one.snippet)})`);
  return found.value;
}

/** The team of an open-mode key (`team_` + 12 hex of its SHA-256), for `teamId`. */
export async function teamIdForKey(apiKey: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(apiKey));
  return `team_${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('').slice(0, 12)}`;
}

type Query = Record<string, string | number | boolean | undefined>;

export function createSendboxClient(options: SendboxClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const basic = options.auth ? `Basic ${btoa(`${options.auth.username}:${options.auth.password}`)}` : undefined;

  async function call<T>(method: string, path: string, init: { query?: Query; body?: unknown; bearer?: string; signal?: AbortSignal; expect?: number[] } = {}): Promise<{ status: number; body: T }> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(init.query ?? {})) if (value !== undefined) search.set(name, String(value));
    const headers: Record<string, string> = { Accept: 'application/json' };
    // Every state change is declared as JSON: sendbox refuses others (forged-request defence).
    if (method !== 'GET') headers['Content-Type'] = 'application/json';
    if (init.bearer) headers.Authorization = `Bearer ${init.bearer}`;
    else if (basic) headers.Authorization = basic;
    const qs = search.toString();
    const res = await doFetch(`${base}${path}${qs ? `?${qs}` : ''}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), signal: init.signal });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text for the error
    }
    if (!res.ok && !(init.expect ?? []).includes(res.status)) {
      const message = body && typeof body === 'object' && 'message' in body ? String((body as { message: unknown }).message) : `${res.status} ${res.statusText}`;
      throw new SendboxError(`${method} ${path} → ${res.status}: ${message}`, res.status, body);
    }
    return { status: res.status, body: body as T };
  }
  const data = async <T>(method: string, path: string, init?: Parameters<typeof call>[2]): Promise<T> => (await call<{ data: T }>(method, path, init)).body.data;
  const keyFor = (what: string): string => {
    if (!options.apiKey) throw new Error(`${what} needs the client's apiKey (the domains are the key's team's)`);
    return options.apiKey;
  };

  // 'now' on the client is fixed when the client is made; on a call, when the call is made.
  const clientSince = options.since === 'now' ? new Date() : options.since;
  const sinceParam = (since: Since | undefined): string | undefined => {
    if (since === undefined) return undefined;
    if (since === 'now') return new Date().toISOString();
    if (since instanceof Date) return since.toISOString();
    return typeof since === 'string' ? since : since.id;
  };
  const waitQuery = (o: WaitOptions): Query => ({
    to: o.to,
    subject: o.subject,
    team_id: o.teamId ?? options.teamId,
    since: sinceParam(o.since ?? clientSince),
    timeout_ms: o.timeoutMs,
  });

  function waitForEmail(query: WaitOptions & { count: number }): Promise<SandboxEmail[]>;
  function waitForEmail(query?: WaitOptions): Promise<SandboxEmail>;
  /** Resolves as soon as matching emails exist (server-side long poll); a timeout rejects with the server's explanation. */
  async function waitForEmail(query: WaitOptions & { count?: number } = {}): Promise<SandboxEmail | SandboxEmail[]> {
    const emails = await data<SandboxEmail[]>('GET', '/sandbox/emails/wait', { query: { ...waitQuery(query), count: query.count }, signal: query.signal });
    return query.count === undefined ? emails[0] : emails;
  }

  return {
    /** `POST /v1/send` with the client's key (or `apiKey`); resolves with the email id. */
    async send(input: SendInput, sendOptions: { apiKey?: string } = {}): Promise<{ id: string; message: string }> {
      const apiKey = sendOptions.apiKey ?? options.apiKey;
      if (!apiKey) throw new Error('send needs an apiKey (in createSendboxClient or in the call)');
      const { body } = await call<SendResponse>('POST', '/v1/send', { body: input, bearer: apiKey });
      return { id: body.data[0].email_id, message: body.data[0].message };
    },

    waitForEmail,

    /** Resolves when no matching email arrives within `timeoutMs` (default 1 000); rejects naming the one that did. */
    async expectNoEmail(query: WaitOptions = {}): Promise<void> {
      const { status, body } = await call<{ message: string; data: SandboxEmail }>('GET', '/sandbox/emails/wait', { query: { ...waitQuery({ timeoutMs: 1000, ...query }), none: true }, signal: query.signal, expect: [409] });
      if (status === 409) throw new SendboxError(`Expected no email, but: ${body.message}`, 409, body);
    },

    latestLink,
    code,

    rules: {
      add: (rule: RuleInput) => data<Rule>('POST', '/sandbox/rules', { body: rule }),
      list: () => data<Rule[]>('GET', '/sandbox/rules'),
      get: (id: number) => data<Rule>('GET', `/sandbox/rules/${id}`),
      remove: (id: number) => data<null>('DELETE', `/sandbox/rules/${id}`),
      clear: () => data<{ deleted: number }>('DELETE', '/sandbox/rules'),
    },

    /** Holds every email in `queued` until `resume`. */
    pause: () => data<DeliveryState>('POST', '/sandbox/delivery/pause'),
    resume: () => data<DeliveryState>('POST', '/sandbox/delivery/resume'),
    delivery: () => data<DeliveryState>('GET', '/sandbox/delivery'),

    /** Empties emails, rules and domains (of one team with `teamId`). */
    reset: (resetOptions: { teamId?: string } = {}) => data<ResetResult>('POST', '/sandbox/reset', { body: resetOptions.teamId ? { team_id: resetOptions.teamId } : {} }),

    emails: {
      get: (id: string) => data<SandboxEmail>('GET', `/sandbox/emails/${encodeURIComponent(id)}`),
      list: (query: ListOptions = {}) =>
        data<SandboxEmailList>('GET', '/sandbox/emails', {
          query: { page: query.page, limit: query.limit, search: query.search, from: query.from, to: query.to, subject: query.subject, status: query.status, team_id: query.teamId ?? options.teamId, has_attachment: query.hasAttachment, is_read: query.isRead, q: query.q },
        }),
      /** The raw message source (`.eml`). */
      raw: async (id: string) => {
        const res = await doFetch(`${base}/sandbox/emails/${encodeURIComponent(id)}/raw`, { headers: basic ? { Authorization: basic } : {} });
        if (!res.ok) throw new SendboxError(`GET raw of ${id} → ${res.status}`, res.status, await res.text());
        return res.text();
      },
      markRead: (id: string, read = true) => data<SandboxEmailSummary>('PATCH', `/sandbox/emails/${encodeURIComponent(id)}`, { body: { read } }),
      delete: (id: string) => data<{ id: string; team_id: string }>('DELETE', `/sandbox/emails/${encodeURIComponent(id)}`),
      /** Deletes every email (of one team with `teamId`). */
      clear: (clearOptions: { teamId?: string } = {}) => data<{ team_id: string | null; deleted: number }>('DELETE', '/sandbox/emails', { query: { team_id: clearOptions.teamId } }),
    },

    /** Forces an outcome, an open or a click along the recipient state machine (409 when impossible). */
    forceEvent: (id: string, event: ForceEventInput) => data<SandboxEmail>('POST', `/sandbox/emails/${encodeURIComponent(id)}/events`, { body: event }),

    /** Sending domains of the client's key (`/v1/domains`): the DKIM, MAIL FROM and DMARC records to publish, and their verification. */
    domains: {
      add: (domain: string) => data<DomainIdentity>('POST', '/v1/domains', { body: { value: domain }, bearer: keyFor('domains.add') }),
      get: (domain: string) => data<DomainIdentity>('GET', '/v1/domains', { query: { domain }, bearer: keyFor('domains.get') }),
      list: () => data<DomainIdentity[]>('GET', '/v1/domains', { bearer: keyFor('domains.list') }),
      /** Checks the records now (simulated, scripted, or real DNS with `--dns real`). */
      verify: (domain: string) => data<DomainIdentity>('POST', '/v1/domains/verify', { query: { domain }, bearer: keyFor('domains.verify') }),
      delete: (domain: string) => data<null>('DELETE', '/v1/domains', { query: { domain }, bearer: keyFor('domains.delete') }),
      /** Scripts the next verification(s) of a domain: `{status}`, `{records}` or `{sequence}`. */
      scriptVerification: (domain: string, script: DomainScript) => data<unknown>('PUT', `/sandbox/domains/${encodeURIComponent(domain)}/verification`, { body: script }),
    },

    /** Webhooks sendbox POSTs every email and domain event to, signed and retried like the provider's. */
    webhooks: {
      add: (webhook: WebhookInput) => data<Webhook>('POST', '/sandbox/webhooks', { body: webhook }),
      list: () => data<Webhook[]>('GET', '/sandbox/webhooks'),
      get: (id: string) => data<WebhookDetail>('GET', `/sandbox/webhooks/${encodeURIComponent(id)}`),
      /** Every delivery attempt, newest first (`limit` 1–1000, default 100). */
      attempts: (id: string, attemptOptions: { limit?: number } = {}) => data<WebhookAttempt[]>('GET', `/sandbox/webhooks/${encodeURIComponent(id)}/attempts`, { query: { limit: attemptOptions.limit } }),
      remove: (id: string) => data<null>('DELETE', `/sandbox/webhooks/${encodeURIComponent(id)}`),
    },

    chaos: {
      get: () => data<ChaosSettings>('GET', '/sandbox/chaos'),
      /** Changes the rates and/or the seed; what is omitted stays. */
      set: (settings: { rates?: Partial<ChaosRates>; seed?: number }) => data<ChaosSettings>('PUT', '/sandbox/chaos', { body: settings }),
    },

    teams: () => data<Mailbox[]>('GET', '/sandbox/teams'),

    /** Sends a stored email to real recipients through the server's `--relay` (they must match `--relay-allow`). */
    release: (id: string, to: string | string[]) => data<ReleaseResult>('POST', `/sandbox/emails/${encodeURIComponent(id)}/release`, { body: { to: Array.isArray(to) ? to : [to] } }),
    // ---- Tags, search and bulk actions (issue 14) ----
    /** Emails matching a search-language query, newest first (`GET /sandbox/emails?q=`). */
    search: (q: string, query: Omit<ListOptions, 'q'> = {}) =>
      data<SandboxEmailList>('GET', '/sandbox/emails', { query: { q, page: query.page, limit: query.limit, team_id: query.teamId ?? options.teamId } }),
    tags: {
      /** Replaces an email's tags (`[]` removes them all). */
      set: (id: string, tags: string[]) => data<SandboxEmailSummary>('PUT', `/sandbox/emails/${encodeURIComponent(id)}/tags`, { body: { tags } }),
      /** Each tag in use with its email count. */
      list: (listOptions: { teamId?: string } = {}) => data<TagCount[]>('GET', '/sandbox/tags', { query: { team_id: listOptions.teamId ?? options.teamId } }),
      /** Renames a tag on every email (of `teamId`, or of the client's team when it has one). */
      rename: (tag: string, name: string, tagOptions: { teamId?: string } = {}) => data<{ tag: string; name: string; count: number }>('PUT', `/sandbox/tags/${encodeURIComponent(tag)}`, { body: { name, team_id: tagOptions.teamId ?? options.teamId } }),
      /** Removes a tag from every email (of `teamId`, or of the client's team when it has one). */
      remove: (tag: string, tagOptions: { teamId?: string } = {}) => data<{ tag: string; count: number }>('DELETE', `/sandbox/tags/${encodeURIComponent(tag)}`, { query: { team_id: tagOptions.teamId ?? options.teamId } }),
    },
    /** One action on many emails (by `ids`, or every match of `q`) in one transaction. */
    bulk: (request: BulkRequest) => data<BulkResult>('POST', '/sandbox/emails/bulk', { body: { ...request, team_id: request.team_id ?? (request.q !== undefined ? options.teamId : undefined) } }),
    // The mail-quality lab (CONTRACT §9).
    /** HTML and CSS client compatibility from caniemail's data, worst features first. */
    htmlCheck: (id: string) => data<HtmlCheckResult>('GET', `/sandbox/emails/${encodeURIComponent(id)}/html-check`),
    /** The spam filter's score (`configured: false` when sendbox runs without --spamassassin / --rspamd). */
    spam: (id: string) => data<SpamResult>('GET', `/sandbox/emails/${encodeURIComponent(id)}/spam`),
    /** Fetches the email's links and images now (bounded: `maxLinks`, default 30). */
    linkCheck: (id: string, linkOptions: { maxLinks?: number } = {}) =>
      data<LinkCheckResult>('POST', `/sandbox/emails/${encodeURIComponent(id)}/link-check`, { body: linkOptions.maxLinks === undefined ? {} : { max_links: linkOptions.maxLinks } }),
    /** DKIM, SPF and DMARC as a receiver would see them, plus the bulk-sender unsubscribe checks. */
    auth: (id: string) => data<AuthResult>('GET', `/sandbox/emails/${encodeURIComponent(id)}/auth`),
  };
}

export type SendboxClient = ReturnType<typeof createSendboxClient>;
