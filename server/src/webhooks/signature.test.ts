import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from './signature.js';
import { isKnownEventPattern, matchesFilter } from './events.js';

describe('X-Sendbox-Signature', () => {
  const body = '{"type":"email.bounced","created_at":"2024-01-01T00:00:00.000Z","data":{}}';
  const now = 1_700_000_000_000;

  it('is t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const expected = createHmac('sha256', 'secret').update(`1700000000.${body}`).digest('hex');
    expect(signatureHeader('secret', body, 1_700_000_000)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('verifies its own signature and rejects a changed body, secret or time', () => {
    const header = signatureHeader('secret', body, 1_700_000_000);
    expect(verifySignature(header, body, 'secret', { now })).toBe(true);
    expect(verifySignature(header, body.replace('bounced', 'delivered'), 'secret', { now })).toBe(false);
    expect(verifySignature(header, body, 'other', { now })).toBe(false);
    expect(verifySignature(header.replace('t=1700000000', 't=1700000001'), body, 'secret', { now })).toBe(false);
  });

  it('rejects an old timestamp unless the tolerance is 0, and malformed headers', () => {
    const header = signatureHeader('secret', body, 1_700_000_000);
    expect(verifySignature(header, body, 'secret', { now: now + 301_000 })).toBe(false);
    expect(verifySignature(header, body, 'secret', { now: now + 301_000, toleranceSeconds: 0 })).toBe(true);
    for (const bad of ['', 'v1=abc', 't=1700000000', 't=x,v1=' + 'a'.repeat(64), 't=1700000000,v1=zz']) {
      expect(verifySignature(bad, body, 'secret', { now })).toBe(false);
    }
  });
});

describe('event filters', () => {
  it('knows the event types and the email.* / domain.* families', () => {
    expect(['email.bounced', 'email.*', 'domain.*', 'domain.temporary_failure'].every(isKnownEventPattern)).toBe(true);
    expect(['email.created', 'email', '*', 'domain.verified', 'email.bounced '].some(isKnownEventPattern)).toBe(false);
  });

  it('matches exact types and families; no filter matches everything', () => {
    expect(matchesFilter('email.bounced', null)).toBe(true);
    expect(matchesFilter('email.bounced', ['email.*'])).toBe(true);
    expect(matchesFilter('domain.failed', ['email.*'])).toBe(false);
    expect(matchesFilter('domain.failed', ['email.delivered', 'domain.failed'])).toBe(true);
  });
});
