import type fc from 'fast-check';
import type { RawResponse } from '../lib/http.js';

/**
 * What the fuzzers know about an endpoint: how to build a valid request, how to break
 * its fields, and what the contract says the answer must be. Transport-level breakage
 * (auth, Host, Content-Type, malformed JSON, odd methods, odd headers) is generic and
 * lives in `cases.ts`.
 */
export interface FuzzContext {
  url: string;
  /** The API key of the fuzzing team, and one of another team. */
  key: string;
  otherKey: string;
  teamId: string;
  /** Emails of the fuzzing team, of the other team, and one with two attachments. */
  ownIds: string[];
  otherIds: string[];
  attachmentEmailId: string;
  /** Domains the fuzzing team has. */
  domains: string[];
  /** Creates an email for `key` and returns its id. */
  sendEmail(fields?: Record<string, unknown>): Promise<string>;
  /** Adds a domain for a team (the fuzzing team by default). */
  addDomain(name: string, key?: string): Promise<void>;
  /** JSON against the server with the fuzzing key (for preparation and checks). */
  api(path: string, init?: { method?: string; json?: unknown; key?: string }): Promise<{ status: number; body: any }>;
}

/** A request an endpoint's generator builds, before transport mutations. */
export interface Base {
  method: string;
  path: string;
  /** A JSON body (serialized with toJsonText), or raw text. */
  json?: unknown;
  raw?: string;
  /** Allowed statuses; undefined means any non-5xx (still checked for the contract shape). */
  expect?: number[];
  /** A short label for the outcome histogram: valid, bad-field:<name>, … */
  kind: string;
  /** Runs before the request; may replace the path (e.g. with a fresh email's id). */
  prepare?: (ctx: FuzzContext) => Promise<{ path?: string } | void>;
  /** Extra checks on the answer; returns problems. */
  check?: (res: RawResponse, ctx: FuzzContext) => Promise<string[]>;
}

export interface EndpointSpec {
  name: string;
  api: 'v1' | 'sandbox';
  /** Servers are shared by endpoints whose side effects do not disturb each other. */
  group: 'mail' | 'domains' | 'control' | 'destructive';
  /** Whether the route reads a JSON body (Content-Type and malformed-JSON mutations apply). */
  body: 'required' | 'optional' | 'none';
  valid(ctx: FuzzContext): fc.Arbitrary<Base>;
  invalid?(ctx: FuzzContext): fc.Arbitrary<Base>;
  /** Runs every few hundred requests: clears what the valid requests pile up (rules, webhooks). */
  housekeeping?(ctx: FuzzContext): Promise<void>;
}

/** Percent-encoding that survives lone surrogates (a URL carries bytes: they become U+FFFD). */
export function encode(value: string): string {
  return encodeURIComponent(value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

/** `?a=1&b=2` from pairs, percent-encoded (repeats allowed: that is a case too). */
export function queryString(pairs: [string, string][]): string {
  if (pairs.length === 0) return '';
  return '?' + pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
}
