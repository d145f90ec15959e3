/**
 * Shapes of the /sandbox control API (CONTRACT §6, §8), shared by the server, the web
 * inbox and the typed client. Plain types only (no runtime imports), so the client
 * package stays dependency-free.
 */
import type { Email, EmailLogEntry, Pagination } from './email.js';

export type DeliveryOutcome = 'delivered' | 'deferred' | 'bounced' | 'failed' | 'complaint';
export type RecipientState = 'processing' | 'queued' | 'delivered' | 'bounced' | 'failed' | 'complaint';

/** `rule:<id>`, `header`, `plus-tag`, `simulator`, `invalid-domain`, `chaos`, `default` or `forced`. */
export type DecidedBy = string;

/** A list item of `GET /sandbox/emails`: the /v1 list shape plus inbox fields. */
export interface SandboxEmailSummary extends Email {
  team_id: string;
  is_read: boolean;
  source: 'api' | 'smtp';
  /** e.g. `{ unverified_sender: true }`. */
  flags: Record<string, unknown>;
  /** From `X-Tags`, tagging rules, `PUT /sandbox/emails/{id}/tags` and bulk actions. */
  tags: string[];
}

export interface SandboxHeader {
  name: string;
  /** Unfolded; RFC 2047 encoded words decoded. */
  value: string;
}

export interface SandboxFile {
  /** 0-based; the download is `url`. */
  index: number;
  filename: string;
  content_type: string;
  size: number;
  content_id: string | null;
  inline: boolean;
  /** `/sandbox/emails/{id}/attachments/{index}` */
  url: string;
}

export interface SandboxLink {
  href: string;
  text: string;
}

export interface SandboxCode {
  value: string;
}

export interface RecipientOutcome {
  recipient: string;
  state: RecipientState;
  decided_by: DecidedBy;
}

export type CheckSeverity = 'error' | 'warning' | 'info';

export interface EmailCheck {
  id: string;
  severity: CheckSeverity;
  message: string;
}

export interface EmailActivity {
  type: 'open' | 'click';
  recipient: string;
  url: string | null;
  at: string;
}

/** `GET /sandbox/emails/{id}`: the /v1 full email (logs include complaint entries) plus the sandbox fields. */
export interface SandboxEmail extends SandboxEmailSummary {
  logs: EmailLogEntry[];
  /** The raw message source. */
  raw: string;
  headers: SandboxHeader[];
  files: SandboxFile[];
  links: SandboxLink[];
  codes: SandboxCode[];
  outcomes: RecipientOutcome[];
  checks: EmailCheck[];
  events: EmailActivity[];
}

export interface SandboxEmailList {
  data: SandboxEmailSummary[];
  pagination: Pagination;
}

/** `GET /sandbox/teams`: one mailbox per team with mail or keys. */
export interface Mailbox {
  team_id: string;
  total: number;
  unread: number;
  api_keys: { api_key_id: number; key_hint: string }[];
}

// ---- Rules (CONTRACT §8) ----

export interface RuleMatch {
  /** Glob (`*`, `?`) over a recipient address, case-insensitive. */
  recipient?: string;
  /** Glob over the sender address, case-insensitive. */
  from?: string;
  /** Case-insensitive substring of the subject. */
  subject?: string;
  /** A header by name; `value` (a case-insensitive glob) optional: without it, presence is enough. */
  header?: { name: string; value?: string };
  team_id?: string;
}

/** Decide the delivery outcome of matching recipients. */
export interface OutcomeAction {
  outcome: DeliveryOutcome;
  code?: string;
  response?: string;
  delay_ms?: number;
}

/** Refuse a matching `/v1/send` with this HTTP status. */
export interface HttpAction {
  http_status: 429 | 500 | 503;
  /** Seconds, sent as `Retry-After` (429 and 503). */
  retry_after?: number;
  message?: string;
}

/** Refuse over SMTP at a stage with a reply code. */
export interface SmtpAction {
  smtp_stage: 'mail' | 'rcpt' | 'data';
  /** Required unless `disconnect`. */
  code?: number;
  message?: string;
  delay_ms?: number;
  /** Drop the connection instead of replying (after `delay_ms`). */
  disconnect?: boolean;
}

/** Tag matching emails (a tagging rule); every matching tagging rule adds its tags. */
export interface TagAction {
  tags: string[];
}

export type RuleAction = OutcomeAction | HttpAction | SmtpAction | TagAction;

/** The body of `POST /sandbox/rules`. */
export interface RuleInput {
  match?: RuleMatch;
  action: RuleAction;
  /** Expires after this many uses (null: never). */
  times?: number | null;
  /** Applies only to the Nth matching email (1-based; null: every match). */
  nth?: number | null;
}

export interface Rule {
  id: number;
  match: RuleMatch;
  action: RuleAction;
  times: number | null;
  nth: number | null;
  /** How many times the action was applied. */
  uses: number;
  /** How many times the match held (what `nth` counts). */
  matches: number;
  /** False once `times` is used up or the `nth` match has passed. */
  active: boolean;
  created_at: string;
}

// ---- Driving ----

export type ForcedEventType = 'delivered' | 'bounced' | 'failed' | 'complaint' | 'open' | 'click';

export interface ForceEventInput {
  type: ForcedEventType;
  recipient?: string;
  url?: string;
}

export interface DeliveryState {
  paused: boolean;
}

export interface ChaosRates {
  bounced: number;
  failed: number;
  complaint: number;
  deferred: number;
}

export interface ChaosSettings {
  rates: ChaosRates;
  seed: number;
}

export interface ResetResult {
  team_id: string | null;
  emails: number;
  rules: number;
  domains: number;
}

// ---- Wait ----

export interface WaitQuery {
  /** An address or a `*` glob over any recipient. */
  to?: string;
  /** Case-insensitive substring. */
  subject?: string;
  team_id?: string;
  /** An ISO time or an email id. */
  since?: string;
  count?: number;
  none?: boolean;
  timeout_ms?: number;
}

/** `data` of a 408 from wait: what it searched for and what it saw. */
export interface WaitTimeout {
  searched: { to: string | null; subject: string | null; team_id: string | null; since: string | null; count: number; timeout_ms: number };
  /** Matching emails found (fewer than `count`). */
  matched: number;
  /** Emails in scope (team, since) that it looked at, matching or not. */
  seen: number;
  /** The most recent emails in scope that did not match, to show near misses. */
  recent: { id: string; to: string[]; subject: string }[];
}

// ---- Live events (SSE) ----

export type SandboxEventType = 'email.created' | 'email.updated' | 'email.deleted' | 'emails.cleared' | 'emails.changed' | 'domain.created' | 'domain.updated' | 'domain.deleted';
