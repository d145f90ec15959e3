import { describe, expect, it } from 'vitest';
import { describeAction, describeMatch, emptyRuleForm, serverErrorsToForm, toRuleInput, type RuleFormState } from './rule-form';

const form = (overrides: Partial<RuleFormState>): RuleFormState => ({ ...emptyRuleForm(), ...overrides });

describe('toRuleInput', () => {
  it('builds "the next email to X bounces" as one rule', () => {
    expect(toRuleInput(form({ recipient: ' *+late@* ', outcome: 'bounced', code: '550', response: '5.1.1 user unknown', times: '1' }))).toEqual({
      input: { match: { recipient: '*+late@*' }, action: { outcome: 'bounced', code: '550', response: '5.1.1 user unknown' }, times: 1, nth: null },
      errors: {},
    });
  });

  it('accepts an empty match (every email) and leaves out empty options', () => {
    expect(toRuleInput(form({ outcome: 'delivered' })).input).toEqual({ match: {}, action: { outcome: 'delivered' }, times: null, nth: null });
  });

  it('checks the SMTP code class against the outcome', () => {
    expect(toRuleInput(form({ outcome: 'bounced', code: '451' })).errors.code).toBe('For bounced, use a 5xx code such as 550.');
    expect(toRuleInput(form({ outcome: 'deferred', code: '451' })).errors).toEqual({});
    expect(toRuleInput(form({ outcome: 'complaint', code: '550' })).errors.code).toBe('For complaint, use no code (complaints have none).');
  });

  it('rejects numbers that are not whole or out of range', () => {
    const { input, errors } = toRuleInput(form({ times: '0', nth: '1.5', delayMs: '-3' }));
    expect(input).toBeNull();
    expect(errors).toEqual({
      times: 'Times must be a whole number from 1 to 1000000.',
      nth: 'Nth must be a whole number from 1 to 1000000.',
      delayMs: 'Delay must be a whole number from 0 to 600000.',
    });
  });

  it('needs a header name when a header value is given', () => {
    expect(toRuleInput(form({ headerValue: 'ci' })).errors.headerName).toBe('Name the header whose value should match.');
    expect(toRuleInput(form({ headerName: 'X-Env', headerValue: 'ci' })).input?.match).toEqual({ header: { name: 'X-Env', value: 'ci' } });
  });

  it('builds an API refusal and an SMTP refusal', () => {
    expect(toRuleInput(form({ kind: 'http', httpStatus: '429', retryAfter: '30' })).input?.action).toEqual({ http_status: 429, retry_after: 30 });
    expect(toRuleInput(form({ kind: 'http', httpStatus: '500', retryAfter: '30' })).errors.retryAfter).toBe('Retry-After goes with 429 or 503.');
    expect(toRuleInput(form({ kind: 'smtp', smtpStage: 'data', smtpCode: '452', disconnect: true })).input?.action).toEqual({ smtp_stage: 'data', code: 452, disconnect: true });
    expect(toRuleInput(form({ kind: 'smtp', smtpCode: '250' })).errors.smtpCode).toBe('An SMTP refusal is a 4xx or 5xx code, such as 451 or 550.');
  });
});

describe('serverErrorsToForm', () => {
  it('places 422 field errors on the matching inputs', () => {
    expect(serverErrorsToForm([{ field: 'match.recipient', message: 'bad glob' }, { field: 'action.code', message: 'bad code' }], 'smtp')).toEqual({ recipient: 'bad glob', smtpCode: 'bad code' });
  });
});

describe('describing rules', () => {
  it('reads the match and the action in one line each', () => {
    expect(describeMatch({ match: { recipient: '*@x.test', subject: 'reset' } })).toBe('to *@x.test · subject contains "reset"');
    expect(describeMatch({ match: {} })).toBe('every email');
    expect(describeAction({ outcome: 'bounced', code: '550', response: '5.1.1 user unknown' })).toBe('bounced 550 5.1.1 user unknown');
    expect(describeAction({ http_status: 503, retry_after: 10 })).toBe('API answers 503 (Retry-After 10 s)');
    expect(describeAction({ smtp_stage: 'rcpt', code: 451, disconnect: true })).toBe('SMTP RCPT TO → 451, then disconnect');
  });
});

describe('tagging rules', () => {
  it('builds a tags action from a comma list, and asks for at least one tag', () => {
    expect(toRuleInput(form({ kind: 'tags', subject: 'order', tags: ' vip, orders ,' })).input).toEqual({ match: { subject: 'order' }, action: { tags: ['vip', 'orders'] }, times: null, nth: null });
    expect(toRuleInput(form({ kind: 'tags', tags: ' , ' })).errors.tags).toBe('Name at least one tag (a comma list for several).');
    expect(describeAction({ tags: ['vip', 'orders'] })).toBe('tag vip, orders');
  });
});
