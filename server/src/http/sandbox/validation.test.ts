import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.js';

/** Bad input to the sandbox endpoints: a clear 4xx JSON error, never a 500. */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const rule = (json: unknown) => server.api('/sandbox/rules', { method: 'POST', json });

describe('POST /sandbox/rules', () => {
  it.each([
    [{ action: { outcome: 'exploded' } }, 'action.outcome', 'action.outcome must be one of delivered, deferred, bounced, failed, complaint'],
    [{ match: { recipient: '[a-z]@x.test' }, action: { outcome: 'bounced' } }, 'match.recipient', 'match.recipient only * and ? are supported as wildcards ([ ] { } are not)'],
    [{ match: { recipient: '' }, action: { outcome: 'bounced' } }, 'match.recipient', 'match.recipient must not be empty'],
    [{ match: { from: 'a b@x.test' }, action: { outcome: 'bounced' } }, 'match.from', 'match.from must not contain spaces or control characters'],
    [{ action: { outcome: 'bounced' }, times: -1 }, 'times', 'times must be at least 1'],
    [{ action: { outcome: 'bounced' }, times: 1.5 }, 'times', 'times must be a whole number'],
    [{ action: { outcome: 'bounced' }, nth: 0 }, 'nth', 'nth must be at least 1'],
    [{ action: { outcome: 'bounced' }, nth: '2' }, 'nth', 'nth must be a whole number'],
    [{ match: { recipients: 'a@x.test' }, action: { outcome: 'bounced' } }, 'match.recipients', 'unknown field "recipients"; allowed: recipient, from, subject, header, team_id'],
    [{ action: { outcome: 'bounced', code: '250' } }, 'action.code', 'action.code must be a 3-digit SMTP code starting with 5 for outcome bounced'],
    [{ action: { outcome: 'delivered', code: 'abc' } }, 'action.code', 'action.code must be a 3-digit SMTP code starting with 2 for outcome delivered'],
    [{ action: { outcome: 'complaint', code: '550' } }, 'action.code', 'a complaint takes no code: it follows a normal delivery'],
    [{ action: { outcome: 'bounced', response: 'a\r\nb' } }, 'action.response', 'action.response must not contain CR or LF'],
    [{ action: { outcome: 'bounced', delay_ms: -5 } }, 'action.delay_ms', 'action.delay_ms must be at least 0'],
    [{ action: {} }, 'action', 'action needs one of outcome, http_status, smtp_stage or tags'],
    [{ action: { outcome: 'bounced', http_status: 429 } }, 'action', 'action takes only one of outcome, http_status, smtp_stage or tags (got outcome, http_status)'],
    [{ action: { http_status: 200 } }, 'action.http_status', 'action.http_status must be at least 400'],
    [{ action: { http_status: 429, retry_after: -1 } }, 'action.retry_after', 'action.retry_after must be at least 0'],
    [{ action: { smtp_stage: 'helo', code: 550 } }, 'action.smtp_stage', 'action.smtp_stage must be mail, rcpt or data'],
    [{ action: { smtp_stage: 'rcpt', code: 250 } }, 'action.code', 'action.code must be a 3-digit SMTP code starting with 4 or 5'],
    [{ action: { smtp_stage: 'rcpt', code: 550, disconnect: 'yes' } }, 'action.disconnect', 'action.disconnect must be true or false'],
    [{ action: { smtp_stage: 'rcpt' } }, 'action.code', 'action.code is required (a 4xx or 5xx SMTP reply code) unless disconnect is true'],
    [{ match: { subject: 'x' }, action: { smtp_stage: 'rcpt', code: 550 } }, 'match.subject', 'match.subject is unknown before DATA; use smtp_stage data'],
    [{ match: { recipient: 'a@x.test' }, action: { smtp_stage: 'mail', code: 550 } }, 'match.recipient', 'match.recipient is unknown at MAIL FROM; use smtp_stage rcpt or data'],
    [{ match: { header: { name: 'Bad Name' } }, action: { outcome: 'bounced' } }, 'match.header.name', 'match.header.name must be a header field name (printable ASCII, no spaces or colons)'],
    [{ match: { team_id: 'no spaces please' }, action: { outcome: 'bounced' } }, 'match.team_id', 'match.team_id must be a team id such as team_0123456789ab'],
    [{ match: 'everything', action: { outcome: 'bounced' } }, 'match', 'match must be an object'],
    [{}, 'action', 'action is required: an object with outcome, http_status, smtp_stage or tags'],
  ])('answers 422 for %j', async (json, field, message) => {
    const res = await rule(json);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toEqual({ field, message });
    expect(res.body.message).toBe(`Invalid ${field}: ${message}`);
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    expect((await rule([1])).status).toBe(400);
    expect((await server.api('/sandbox/rules', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{oops' })).status).toBe(400);
  });

  it('answers 400 for an empty body: it is not a JSON object (CONTRACT §8)', async () => {
    const res = await server.api('/sandbox/rules', { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: 'Body must be a JSON object' });
  });

  it('accepts codes as numbers or strings and fills a realistic response', async () => {
    const res = await rule({ action: { outcome: 'bounced', code: 552 }, match: { recipient: 'full@x.test' } });
    expect(res.status).toBe(201);
    expect(res.body.data.action).toEqual({ outcome: 'bounced', code: '552' });
  });

  it('answers 404 for an unknown rule and 405 for a wrong method', async () => {
    expect((await server.api('/sandbox/rules/999999')).status).toBe(404);
    expect((await server.api('/sandbox/rules/abc', { method: 'DELETE', json: {} })).status).toBe(404);
    const res = await server.api('/sandbox/rules', { method: 'PUT', json: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, DELETE');
  });
});

describe('PUT /sandbox/chaos', () => {
  it.each([
    [{ rates: { bounced: 2 } }, 'rates.bounced'],
    [{ rates: { bounced: -0.1 } }, 'rates.bounced'],
    [{ rates: { exploded: 0.1 } }, 'rates.exploded'],
    [{ rates: { bounced: 0.6, failed: 0.6 } }, 'rates'],
    [{ seed: -1 }, 'seed'],
    [{ seed: 1.5 }, 'seed'],
    [{ seed: 'abc' }, 'seed'],
    [{ speed: 1 }, 'speed'],
  ])('answers 422 for %j', async (json, field) => {
    const res = await server.api('/sandbox/chaos', { method: 'PUT', json });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe(field);
  });
});

describe('routes', () => {
  it.each([
    ['GET', '/sandbox/delivery/pause', 405],
    ['DELETE', '/sandbox/delivery', 405],
    ['GET', '/sandbox/reset', 405],
    ['POST', '/sandbox/teams', 405],
    ['POST', '/sandbox/emails/wait', 405],
    ['GET', '/sandbox/nothing-here', 404],
    ['GET', '/sandbox/emails/0123456789abcdef/raw', 404],
    ['GET', '/sandbox/emails/zzz/attachments/0', 404],
    ['POST', '/sandbox/emails/zzz/events', 404],
  ])('%s %s → %i', async (method, path, status) => {
    const res = await server.api(path, { method, ...(method === 'GET' ? {} : { json: {} }) });
    expect(res.status).toBe(status);
    expect(res.body.status).toBe(status);
  });
});

describe('OpenAPI', () => {
  it('documents the sandbox paths', async () => {
    const doc = (await server.api('/openapi.json')).body;
    for (const path of ['/sandbox/emails', '/sandbox/emails/wait', '/sandbox/emails/{id}', '/sandbox/emails/{id}/raw', '/sandbox/emails/{id}/attachments/{index}', '/sandbox/emails/{id}/events', '/sandbox/rules', '/sandbox/rules/{id}', '/sandbox/delivery/pause', '/sandbox/chaos', '/sandbox/reset', '/sandbox/teams', '/sandbox/events']) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
