import { z } from 'zod';
import type { HttpAction, OutcomeAction, RuleAction, RuleMatch, SmtpAction, TagAction } from '../../../shared/sandbox.js';
import { OUTCOMES } from './outcomes.js';
import { MAX_TAGS_PER_EMAIL, normalizeTag, uniqueTags } from '../../../shared/tags.js';
import { globProblem } from './glob.js';

/**
 * Validation of `POST /sandbox/rules` (CONTRACT §8). Unknown fields are refused so a typo
 * (`recipients`, `outcomes`) is an error instead of a rule that silently matches everything.
 * The action's kind is chosen by its key (`outcome`, `http_status`, `smtp_stage`) so the
 * errors talk about that kind only.
 */

const unknownKeys = (allowed: string[]) => (issue: { code?: string; keys?: string[] }) =>
  issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys?.map((k) => JSON.stringify(k)).join(', ')}; allowed: ${allowed.join(', ')}` : undefined;

const strict = <T extends z.ZodRawShape>(shape: T, what: string) =>
  z.strictObject(shape, { error: (issue) => unknownKeys(Object.keys(shape))(issue as { code?: string; keys?: string[] }) ?? `${what} must be an object` });

const glob = (what: string) =>
  z.string({ error: `${what} must be a string glob such as *@example.com` }).check((ctx) => {
    const problem = globProblem(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', message: `${what} ${problem}`, input: ctx.value });
  });

const noLineBreaks = (value: string) => !/[\r\n]/.test(value);
const text = (what: string, max: number) =>
  z.string({ error: `${what} must be a string` }).max(max, `${what} must be at most ${max} characters`).refine(noLineBreaks, `${what} must not contain CR or LF`);
const wholeNumber = (what: string, min: number, max: number) =>
  z.number({ error: `${what} must be a whole number` }).int(`${what} must be a whole number`).min(min, `${what} must be at least ${min}`).max(max, `${what} must be at most ${max}`);

// RFC 5322 §2.2: a field name is printable ASCII except colon.
const HEADER_NAME = /^[\x21-\x39\x3B-\x7E]{1,200}$/;

const matchSchema = strict({
  recipient: glob('match.recipient').optional(),
  from: glob('match.from').optional(),
  subject: text('match.subject', 500).min(1, 'match.subject must not be empty').optional(),
  header: strict({
    name: z.string({ error: 'match.header.name is required' }).regex(HEADER_NAME, 'match.header.name must be a header field name (printable ASCII, no spaces or colons)'),
    value: glob('match.header.value').optional(),
  }, 'match.header').optional(),
  team_id: z.string({ error: 'match.team_id must be a string' }).regex(/^[A-Za-z0-9_.-]{1,64}$/, 'match.team_id must be a team id such as team_0123456789ab').optional(),
}, 'match');

const smtpCode = (classes: string, what: string) =>
  z.union([z.string(), z.number()], { error: `${what} must be a 3-digit SMTP code` })
    .transform(String)
    .refine((code) => new RegExp(`^[${classes}]\\d\\d$`).test(code), `${what} must be a 3-digit SMTP code starting with ${[...classes].join(' or ')}`);

// Which reply classes make sense for each outcome's final (or first, for deferred) reply.
const CODE_CLASSES: Record<OutcomeAction['outcome'], string | null> = { delivered: '2', deferred: '4', bounced: '5', failed: '45', complaint: null };

const outcomeAction = strict({
  outcome: z.enum(OUTCOMES, { error: `action.outcome must be one of ${OUTCOMES.join(', ')}` }),
  code: z.union([z.string(), z.number()]).optional(),
  response: text('action.response', 500).optional(),
  delay_ms: wholeNumber('action.delay_ms', 0, 3_600_000).optional(),
}, 'action').transform((action, ctx): OutcomeAction => {
  const out: OutcomeAction = { outcome: action.outcome };
  if (action.code !== undefined) {
    const classes = CODE_CLASSES[action.outcome];
    if (classes === null) {
      ctx.issues.push({ code: 'custom', path: ['code'], message: 'a complaint takes no code: it follows a normal delivery', input: action.code });
      return z.NEVER;
    }
    const parsed = smtpCode(classes, 'action.code').safeParse(action.code);
    if (!parsed.success) {
      ctx.issues.push({ code: 'custom', path: ['code'], message: `${parsed.error.issues[0].message} for outcome ${action.outcome}`, input: action.code });
      return z.NEVER;
    }
    out.code = parsed.data;
  }
  if (action.response !== undefined) out.response = action.response;
  if (action.delay_ms !== undefined) out.delay_ms = action.delay_ms;
  return out;
});

const httpAction = strict({
  http_status: wholeNumber('action.http_status', 400, 599),
  retry_after: wholeNumber('action.retry_after', 0, 86_400).optional(),
  message: text('action.message', 500).min(1).optional(),
}, 'action').transform((action): HttpAction => ({ ...action, http_status: action.http_status as HttpAction['http_status'] }));

const smtpAction = strict({
  smtp_stage: z.enum(['mail', 'rcpt', 'data'], { error: 'action.smtp_stage must be mail, rcpt or data' }),
  // A dropped connection sends no reply, so it needs no code.
  code: smtpCode('45', 'action.code').transform(Number).optional(),
  message: text('action.message', 500).min(1).optional(),
  delay_ms: wholeNumber('action.delay_ms', 0, 60_000).optional(),
  disconnect: z.boolean({ error: 'action.disconnect must be true or false' }).optional(),
}, 'action').transform((action, ctx): SmtpAction => {
  if (action.code === undefined && !action.disconnect) {
    ctx.issues.push({ code: 'custom', path: ['code'], message: 'action.code is required (a 4xx or 5xx SMTP reply code) unless disconnect is true', input: action });
    return z.NEVER;
  }
  return action;
});

const tagAction = strict({
  tags: z.array(z.string({ error: 'action.tags must be strings' }), { error: 'action.tags must be an array of tags' })
    .min(1, 'action.tags needs at least one tag').max(MAX_TAGS_PER_EMAIL, `action.tags takes at most ${MAX_TAGS_PER_EMAIL} tags`),
}, 'action').transform((action, ctx): TagAction => {
  const tags = action.tags.map(normalizeTag);
  const bad = tags.findIndex((t) => t === null);
  if (bad !== -1) {
    ctx.issues.push({ code: 'custom', path: ['tags', bad], message: 'a tag must have 1 to 64 characters besides spaces and commas', input: action.tags[bad] });
    return z.NEVER;
  }
  return { tags: uniqueTags(tags as string[]) };
});

const ruleSchema = strict({
  match: matchSchema.optional(),
  action: z.record(z.string(), z.unknown(), { error: 'action is required: an object with outcome, http_status, smtp_stage or tags' }),
  times: wholeNumber('times', 1, 1_000_000).nullable().optional(),
  nth: wholeNumber('nth', 1, 1_000_000).nullable().optional(),
}, 'rule');

/**
 * The body of `POST /sandbox/rules` as the OpenAPI document describes it: the rule schema
 * with its action as one of the four action schemas that parseRule picks between.
 */
export const ruleRequestSchema = ruleSchema.extend({ action: z.union([outcomeAction, httpAction, smtpAction, tagAction]) });

export type ParsedRule = { match: RuleMatch; action: RuleAction; times: number | null; nth: number | null };

/** Validates a rule body; a failure is a zod error with dotted paths (`action.code`). */
export function parseRule(body: unknown): { success: true; data: ParsedRule } | { success: false; error: z.ZodError } {
  const top = ruleSchema.safeParse(body);
  if (!top.success) return top;
  const raw = top.data.action;
  const kinds = (['outcome', 'http_status', 'smtp_stage', 'tags'] as const).filter((k) => k in raw);
  const fail = (message: string, path: (string | number)[] = ['action']) =>
    ({ success: false as const, error: new z.ZodError([{ code: 'custom', path, message, input: raw }]) });
  if (kinds.length !== 1) {
    return fail(kinds.length === 0 ? 'action needs one of outcome, http_status, smtp_stage or tags' : `action takes only one of outcome, http_status, smtp_stage or tags (got ${kinds.join(', ')})`);
  }
  const schema = kinds[0] === 'outcome' ? outcomeAction : kinds[0] === 'http_status' ? httpAction : kinds[0] === 'tags' ? tagAction : smtpAction;
  const action = schema.safeParse(raw);
  if (!action.success) {
    return { success: false, error: new z.ZodError(action.error.issues.map((i) => ({ ...i, path: ['action', ...i.path] }))) };
  }
  const match = top.data.match ?? {};
  const data: ParsedRule = { match, action: action.data, times: top.data.times ?? null, nth: top.data.nth ?? null };
  // An SMTP stage only knows what has been said so far (RFC 5321 §3.3): no recipients at MAIL, no content before DATA.
  if ('smtp_stage' in data.action) {
    const stage = (data.action as SmtpAction).smtp_stage;
    if (stage === 'mail' && match.recipient !== undefined) return fail('match.recipient is unknown at MAIL FROM; use smtp_stage rcpt or data', ['match', 'recipient']);
    if (stage !== 'data' && match.subject !== undefined) return fail(`match.subject is unknown before DATA; use smtp_stage data`, ['match', 'subject']);
    if (stage !== 'data' && match.header !== undefined) return fail(`match.header is unknown before DATA; use smtp_stage data`, ['match', 'header']);
  }
  return { success: true, data };
}
