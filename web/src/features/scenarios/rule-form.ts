import type { DeliveryOutcome, Rule, RuleAction, RuleInput } from '../../../../shared/sandbox';

export type RuleKind = 'outcome' | 'http' | 'smtp' | 'tags';

/** The create-rule form as typed: every field a string, so half-typed numbers are representable. */
export interface RuleFormState {
  recipient: string;
  from: string;
  subject: string;
  headerName: string;
  headerValue: string;
  teamId: string;
  kind: RuleKind;
  outcome: DeliveryOutcome;
  code: string;
  response: string;
  delayMs: string;
  httpStatus: '429' | '500' | '503';
  retryAfter: string;
  smtpStage: 'mail' | 'rcpt' | 'data';
  smtpCode: string;
  smtpMessage: string;
  disconnect: boolean;
  /** Tagging rule: a comma list. */
  tags: string;
  times: string;
  nth: string;
}

export type RuleFormErrors = Partial<Record<keyof RuleFormState, string>>;

export const emptyRuleForm = (): RuleFormState => ({
  recipient: '',
  from: '',
  subject: '',
  headerName: '',
  headerValue: '',
  teamId: '',
  kind: 'outcome',
  outcome: 'bounced',
  code: '',
  response: '',
  delayMs: '',
  httpStatus: '429',
  retryAfter: '',
  smtpStage: 'rcpt',
  smtpCode: '550',
  smtpMessage: '',
  disconnect: false,
  tags: '',
  times: '',
  nth: '',
});

// The SMTP reply class each outcome is logged with (CONTRACT §4, §8).
const CODE_CLASS: Record<DeliveryOutcome, RegExp | null> = {
  delivered: /^2\d\d$/,
  deferred: /^4\d\d$/,
  bounced: /^5\d\d$/,
  failed: /^[45]\d\d$/,
  complaint: null,
};
const CODE_HINT: Record<DeliveryOutcome, string> = {
  delivered: 'a 2xx code such as 250',
  deferred: 'a 4xx code such as 451',
  bounced: 'a 5xx code such as 550',
  failed: 'a 4xx or 5xx code such as 554',
  complaint: 'no code (complaints have none)',
};

const WHOLE = /^\d+$/;

/** Validates the form and builds the `POST /sandbox/rules` body; errors are keyed by form field, in plain words. */
export function toRuleInput(form: RuleFormState): { input: RuleInput | null; errors: RuleFormErrors } {
  const errors: RuleFormErrors = {};
  const t = (v: string) => v.trim();
  const optionalWhole = (field: keyof RuleFormState, value: string, min: number, max: number, what: string): number | undefined => {
    if (t(value) === '') return undefined;
    if (!WHOLE.test(t(value)) || Number(value) < min || Number(value) > max) {
      errors[field] = `${what} must be a whole number from ${min} to ${max}.`;
      return undefined;
    }
    return Number(value);
  };

  const match: RuleInput['match'] = {};
  if (t(form.recipient)) {
    if (/\s/.test(t(form.recipient))) errors.recipient = 'A recipient pattern has no spaces (use * and ? as wildcards).';
    match.recipient = t(form.recipient);
  }
  if (t(form.from)) {
    if (/\s/.test(t(form.from))) errors.from = 'A sender pattern has no spaces (use * and ? as wildcards).';
    match.from = t(form.from);
  }
  if (t(form.subject)) match.subject = t(form.subject);
  if (t(form.headerName)) {
    if (!/^[\x21-\x39\x3B-\x7E]+$/.test(t(form.headerName))) errors.headerName = 'A header name is printable ASCII without spaces or colons.';
    match.header = t(form.headerValue) ? { name: t(form.headerName), value: t(form.headerValue) } : { name: t(form.headerName) };
  } else if (t(form.headerValue)) {
    errors.headerName = 'Name the header whose value should match.';
  }
  if (t(form.teamId)) match.team_id = t(form.teamId);

  let action: RuleAction;
  if (form.kind === 'outcome') {
    const code = t(form.code);
    const expected = CODE_CLASS[form.outcome];
    if (code && (expected === null || !expected.test(code))) errors.code = `For ${form.outcome}, use ${CODE_HINT[form.outcome]}.`;
    const delay = optionalWhole('delayMs', form.delayMs, 0, 600_000, 'Delay');
    action = { outcome: form.outcome, ...(code ? { code } : {}), ...(t(form.response) ? { response: t(form.response) } : {}), ...(delay !== undefined ? { delay_ms: delay } : {}) };
  } else if (form.kind === 'http') {
    const retry = optionalWhole('retryAfter', form.retryAfter, 0, 86_400, 'Retry-After');
    if (retry !== undefined && form.httpStatus === '500') errors.retryAfter = 'Retry-After goes with 429 or 503.';
    action = { http_status: Number(form.httpStatus) as 429 | 500 | 503, ...(retry !== undefined ? { retry_after: retry } : {}) };
  } else if (form.kind === 'tags') {
    const tags = form.tags.split(',').map(t).filter(Boolean);
    if (tags.length === 0) errors.tags = 'Name at least one tag (a comma list for several).';
    action = { tags };
  } else {
    if (!/^[45]\d\d$/.test(t(form.smtpCode))) errors.smtpCode = 'An SMTP refusal is a 4xx or 5xx code, such as 451 or 550.';
    const delay = optionalWhole('delayMs', form.delayMs, 0, 600_000, 'Delay');
    action = {
      smtp_stage: form.smtpStage,
      code: Number(t(form.smtpCode)),
      ...(t(form.smtpMessage) ? { message: t(form.smtpMessage) } : {}),
      ...(delay !== undefined ? { delay_ms: delay } : {}),
      ...(form.disconnect ? { disconnect: true } : {}),
    };
  }

  const times = optionalWhole('times', form.times, 1, 1_000_000, 'Times');
  const nth = optionalWhole('nth', form.nth, 1, 1_000_000, 'Nth');
  if (Object.keys(errors).length > 0) return { input: null, errors };
  return { input: { match, action, times: times ?? null, nth: nth ?? null }, errors };
}

const SERVER_FIELDS: Record<string, keyof RuleFormState> = {
  'match.recipient': 'recipient',
  'match.from': 'from',
  'match.subject': 'subject',
  'match.header': 'headerName',
  'match.header.name': 'headerName',
  'match.header.value': 'headerValue',
  'match.team_id': 'teamId',
  'action.outcome': 'outcome',
  'action.code': 'code',
  'action.response': 'response',
  'action.delay_ms': 'delayMs',
  'action.http_status': 'httpStatus',
  'action.retry_after': 'retryAfter',
  'action.smtp_stage': 'smtpStage',
  'action.message': 'smtpMessage',
  'action.tags': 'tags',
  times: 'times',
  nth: 'nth',
};

/** The server's 422 `errors[]` placed on the form's fields (what has no field stays in the general message). */
export function serverErrorsToForm(errors: { field: string; message: string }[], kind: RuleKind): RuleFormErrors {
  const out: RuleFormErrors = {};
  for (const { field, message } of errors) {
    const key = field === 'action.code' && kind === 'smtp' ? 'smtpCode' : SERVER_FIELDS[field];
    if (key && !out[key]) out[key] = message;
  }
  return out;
}

/** "to *+late@* · subject "reset"" — the match in one line. */
export function describeMatch(rule: Pick<Rule, 'match'>): string {
  const m = rule.match ?? {};
  const parts: string[] = [];
  if (m.recipient) parts.push(`to ${m.recipient}`);
  if (m.from) parts.push(`from ${m.from}`);
  if (m.subject) parts.push(`subject contains "${m.subject}"`);
  if (m.header) parts.push(m.header.value ? `${m.header.name}: ${m.header.value}` : `has ${m.header.name}`);
  if (m.team_id) parts.push(`team ${m.team_id}`);
  return parts.length ? parts.join(' · ') : 'every email';
}

/** "bounced 550 5.1.1 user unknown", "API answers 429 (Retry-After 30 s)", "SMTP RCPT TO → 451". */
export function describeAction(action: RuleAction): string {
  if ('outcome' in action) {
    const extra = [action.code, action.response].filter(Boolean).join(' ');
    return `${action.outcome}${extra ? ` ${extra}` : ''}${action.delay_ms ? ` after ${action.delay_ms} ms` : ''}`;
  }
  if ('http_status' in action) return `API answers ${action.http_status}${action.retry_after !== undefined ? ` (Retry-After ${action.retry_after} s)` : ''}`;
  if ('tags' in action) return `tag ${action.tags.join(', ')}`;
  const stage = { mail: 'MAIL FROM', rcpt: 'RCPT TO', data: 'DATA' }[action.smtp_stage];
  return `SMTP ${stage} → ${action.code}${action.message ? ` ${action.message}` : ''}${action.disconnect ? ', then disconnect' : ''}`;
}
