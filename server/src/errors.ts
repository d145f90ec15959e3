import type { ZodError } from 'zod';
import type { FieldError } from '../../shared/errors.js';

/**
 * What domain code throws: plain domain values, no status codes. Only the transports
 * translate them — http/errors.ts to the contract's JSON, smtp/ to reply codes — so a
 * service reads the same whichever way a request arrived (STYLE 9b).
 */
export class DomainError extends Error {
  constructor(
    readonly kind: 'invalid' | 'bad_query' | 'not_found' | 'conflict' | 'too_large',
    message: string,
    /** Dotted paths to the offending elements (`to.1`, `attachments.2.content`). */
    readonly fields?: FieldError[],
  ) {
    super(message);
  }
}

/** A query that cannot be read, e.g. an unparseable search term (HTTP 400). */
export const badQuery = (message: string, fields?: FieldError[]) => new DomainError('bad_query', message, fields);
/** A field or value that is well-formed but wrong (HTTP 422). */
export const invalid = (message: string, fields?: FieldError[]) => new DomainError('invalid', message, fields);
/** A zod failure as `invalid`, each issue at its dotted path (`to.1`, `headers.X-Foo`). */
export function invalidFromZod(error: ZodError, prefix = ''): DomainError {
  const fields = error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    // An unknown key is the offending element itself, not the object holding it.
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: prefix + [...path, key].join('.'), message: issue.message }));
    return [{ field: prefix + path.join('.'), message: issue.message }];
  });
  const first = fields[0];
  return invalid(first ? `Invalid ${first.field || 'request'}: ${first.message}` : 'Invalid request', fields);
}
/** No such thing for this caller (HTTP 404). */
export const notFound = (message: string) => new DomainError('not_found', message);
/** A duplicate or an impossible transition (HTTP 409). */
export const conflict = (message: string) => new DomainError('conflict', message);
/** A message or part over a size limit (HTTP 413, SMTP 552). */
export const tooLarge = (message: string, fields?: FieldError[]) => new DomainError('too_large', message, fields);

/** The SMTP stages a rule can refuse at; `api` is the HTTP send. */
export type RefusalStage = 'api' | 'mail' | 'rcpt' | 'data';

/**
 * Mail that sendbox will not accept, as a value each transport turns into its own answer:
 * a sandbox rule (its code is the HTTP status at `api`, the SMTP reply code otherwise) or
 * strict sender mode (`code` null: 403 over HTTP, 550 5.7.1 over SMTP).
 */
export interface Refusal {
  stage: RefusalStage;
  reason: 'rule' | 'unverified_sender';
  code: number | null;
  message: string;
  /** Seconds a client should wait (HTTP Retry-After). */
  retryAfter: number | null;
  /** Applied before the answer (SMTP rules). */
  delayMs: number;
  /** Close the connection after the reply (SMTP rules). */
  disconnect: boolean;
}

/** Thrown by `submit` and the SMTP stage checks; carries the refusal to the transport. */
export class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}
