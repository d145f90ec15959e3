import { createHash, createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.js';

let server: TestServer;
const KEY = 'domains-test-key-0001';
const OTHER = 'domains-test-key-0002';
const teamOf = (key: string) => `team_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const add = (value: unknown, key = KEY) => server.api('/v1/domains', { method: 'POST', key, json: { value } });
const get = (domain: string, key = KEY) => server.api(`/v1/domains?domain=${encodeURIComponent(domain)}`, { key });
// Verify and delete need no body and no Content-Type (CONTRACT §8).
const verify = (domain: string, key = KEY) => server.api(`/v1/domains/verify?domain=${encodeURIComponent(domain)}`, { method: 'POST', key });
const remove = (domain: string, key = KEY) => server.api(`/v1/domains?domain=${encodeURIComponent(domain)}`, { method: 'DELETE', key });

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /v1/domains', () => {
  it('answers 201 with the new identity, field by field', async () => {
    const res = await add('acme-one.com');
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'status']);
    expect(res.body.status).toBe(201);
    expect(typeof res.body.message).toBe('string');
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(['attributes', 'created_at', 'id', 'identity_type', 'last_status_checked_at', 'status', 'team_id', 'value', 'verified_at'].sort());
    expect(typeof d.id).toBe('string');
    expect(d.id.length).toBeGreaterThan(0);
    expect(d.value).toBe('acme-one.com');
    expect(d.team_id).toBe(teamOf(KEY));
    expect(d.status).toBe('not_started');
    expect(d.identity_type).toBe('domain');
    expect(d.created_at).toMatch(ISO_MS);
    expect(d.verified_at).toBeNull();
    // A new identity was "last checked" when it was created (CONTRACT §8).
    expect(d.last_status_checked_at).toBe(d.created_at);

    const a = d.attributes;
    expect(Object.keys(a).sort()).toEqual(['dkim_attributes', 'dmarc_attributes', 'error_type', 'mail_from_attributes', 'verification_status', 'verified_for_sending_status'].sort());
    expect(a.verification_status).toBe('not_started');
    expect(a.verified_for_sending_status).toBe(false);
    expect(a.error_type).toBe('');

    const dkim = a.dkim_attributes;
    expect(Object.keys(dkim).sort()).toEqual(['name', 'record_type', 'status', 'ttl', 'value']);
    expect(dkim.name).toMatch(/^[a-z0-9]+\._domainkey\.acme-one\.com$/);
    expect(dkim.record_type).toBe('TXT');
    expect(dkim.ttl).toBe('auto');
    expect(dkim.status).toBe('not_started');
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    // p= is a real RSA public key.
    const key = createPublicKey({ key: Buffer.from(dkim.value.split('p=')[1], 'base64'), format: 'der', type: 'spki' });
    expect(key.asymmetricKeyType).toBe('rsa');

    expect(a.mail_from_attributes).toEqual([
      { name: 'send.acme-one.com', record_type: 'TXT', value: 'v=spf1 include:spf.sendbox.local ~all', ttl: '3600', status: 'not_started' },
      { name: 'bounce.acme-one.com', record_type: 'CNAME', value: 'feedback.sendbox.local', ttl: '3600', status: 'not_started' },
    ]);
    expect(a.dmarc_attributes).toEqual({ name: '_dmarc', record_type: 'TXT', value: 'v=DMARC1; p=none;', ttl: 'auto', status: '' });
  });

  it('gives each identity its own DKIM selector and key', async () => {
    const one = (await add('selector-one.com')).body.data.attributes.dkim_attributes;
    const two = (await add('selector-two.com')).body.data.attributes.dkim_attributes;
    const selector = (name: string) => name.split('.')[0];
    expect(selector(one.name)).not.toBe(selector(two.name));
    expect(one.value).not.toBe(two.value);
  });

  it('answers 409 for a domain the team already has, whatever its case or trailing dot', async () => {
    expect((await add('dup.example.com')).status).toBe(201);
    for (const again of ['dup.example.com', 'DUP.Example.COM', 'dup.example.com.']) {
      const res = await add(again);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ status: 409, message: expect.stringContaining('dup.example.com') });
    }
  });

  it('lets two teams each add the same domain', async () => {
    expect((await add('shared-name.com')).status).toBe(201);
    const other = await add('shared-name.com', OTHER);
    expect(other.status).toBe(201);
    expect(other.body.data.team_id).toBe(teamOf(OTHER));
  });

  it('lower-cases the name and drops a trailing dot', async () => {
    const res = await add('  MiXeD-Case.Example.ORG. ');
    expect(res.status).toBe(201);
    expect(res.body.data.value).toBe('mixed-case.example.org');
    expect(res.body.data.attributes.mail_from_attributes[0].name).toBe('send.mixed-case.example.org');
  });

  it('stores an internationalized name as punycode', async () => {
    const res = await add('Bücher.example');
    expect(res.status).toBe(201);
    expect(res.body.data.value).toBe('xn--bcher-kva.example');
    expect(res.body.data.attributes.dkim_attributes.name).toMatch(/\._domainkey\.xn--bcher-kva\.example$/);
    expect((await get('bücher.example')).body.data.value).toBe('xn--bcher-kva.example');
  });

  it.each([
    ['-bad-.com', /label "-bad-"/],
    ['a..b', /empty label/],
    ['x'.repeat(296) + '.com', /longer than 253/],
    ['localhost', /at least one dot/],
    ['', /empty/],
    ['exa mple.com', /spaces/],
    ['under_score.com', /label/],
    [`${'a'.repeat(64)}.com`, /longer than 63/],
    ['example.123', /all digits/],
  ])('answers 422 for the invalid name %j', async (value, reason) => {
    const res = await add(value);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ status: 422, message: expect.stringMatching(/^Invalid domain name: /), errors: [{ field: 'value', message: expect.stringMatching(reason) }] });
  });

  it('answers 422 when value is missing or not a string', async () => {
    for (const json of [{}, { value: 42 }, { value: null }]) {
      const res = await server.api('/v1/domains', { method: 'POST', key: KEY, json });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ field: 'value', message: expect.any(String) }]);
    }
  });

  it('answers 415 for a body that is not JSON and 400 for JSON that is not an object', async () => {
    const text = await server.api('/v1/domains', { method: 'POST', key: KEY, body: 'value=x.com', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(text.status).toBe(415);
    const array = await server.api('/v1/domains', { method: 'POST', key: KEY, json: ['x.com'] });
    expect(array.status).toBe(400);
    const broken = await server.api('/v1/domains', { method: 'POST', key: KEY, body: '{"value":', headers: { 'Content-Type': 'application/json' } });
    expect(broken.status).toBe(400);
  });

  it('answers 401 without a key', async () => {
    const res = await server.api('/v1/domains', { method: 'POST', json: { value: 'nokey.com' } });
    expect(res.status).toBe(401);
  });
});

describe('GET /v1/domains', () => {
  it('answers the identity by ?domain=, case-insensitively and ignoring a trailing dot', async () => {
    const created = (await add('lookup.example.net')).body.data;
    for (const name of ['lookup.example.net', 'LOOKUP.Example.NET', 'lookup.example.net.']) {
      const res = await get(name);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 200, message: expect.any(String), data: created });
    }
  });

  it('lists the team\'s own domains without ?domain=', async () => {
    const key = 'domains-test-list-key';
    await add('list-b.com', key);
    await add('list-a.com', key);
    const res = await server.api('/v1/domains', { key });
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { value: string }) => d.value)).toEqual(['list-a.com', 'list-b.com']);
    expect(res.body.data.every((d: { team_id: string }) => d.team_id === teamOf(key))).toBe(true);
    const empty = await server.api('/v1/domains', { key: 'domains-test-empty-key' });
    expect(empty.body).toEqual({ status: 200, message: expect.any(String), data: [] });
  });

  it('answers 404 for an unknown domain, an invalid name and another team\'s domain', async () => {
    await add('private.example.com', OTHER);
    for (const name of ['nowhere.example.com', 'not a name', 'private.example.com']) {
      const res = await get(name);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, message: expect.any(String) });
    }
  });

  it('answers 400 for an empty ?domain=', async () => {
    const res = await server.api('/v1/domains?domain=', { key: KEY });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'domain', message: expect.any(String) }]);
  });
});

describe('POST /v1/domains/verify', () => {
  it('verifies every record by default, without a body or Content-Type', async () => {
    const created = (await add('verify-me.com')).body.data;
    const res = await verify('VERIFY-ME.com.');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'status']);
    const d = res.body.data;
    expect(d.id).toBe(created.id);
    expect(d.status).toBe('success');
    expect(d.verified_at).toMatch(ISO_MS);
    expect(d.last_status_checked_at).toMatch(ISO_MS);
    expect(Date.parse(d.last_status_checked_at)).toBeGreaterThanOrEqual(Date.parse(created.created_at));
    expect(d.attributes.verification_status).toBe('success');
    expect(d.attributes.verified_for_sending_status).toBe(true);
    expect(d.attributes.error_type).toBe('');
    expect(d.attributes.dkim_attributes).toEqual({ ...created.attributes.dkim_attributes, status: 'success' });
    expect(d.attributes.mail_from_attributes.map((r: { status: string }) => r.status)).toEqual(['success', 'success']);
    // DMARC's status follows the others after the first check.
    expect(d.attributes.dmarc_attributes).toEqual({ ...created.attributes.dmarc_attributes, status: 'success' });
    expect((await get('verify-me.com')).body.data).toEqual(d);
  });

  it('keeps the first verified_at on a later check and moves last_status_checked_at', async () => {
    await add('twice.com');
    const first = (await verify('twice.com')).body.data;
    const second = (await verify('twice.com')).body.data;
    expect(second.verified_at).toBe(first.verified_at);
    expect(Date.parse(second.last_status_checked_at)).toBeGreaterThanOrEqual(Date.parse(first.last_status_checked_at));
  });

  it('answers 400 without ?domain= and 404 for another team\'s domain', async () => {
    const missing = await server.api('/v1/domains/verify', { method: 'POST', key: KEY });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ status: 400, message: expect.stringContaining('domain'), errors: [{ field: 'domain', message: expect.any(String) }] });
    await add('theirs-verify.com', OTHER);
    const theirs = await verify('theirs-verify.com');
    expect(theirs.status).toBe(404);
    expect((await get('theirs-verify.com', OTHER)).body.data.status).toBe('not_started');
  });

  it('answers 405 for GET on /verify', async () => {
    const res = await server.api('/v1/domains/verify?domain=x.com', { key: KEY });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('DELETE /v1/domains', () => {
  it('deletes with data null, without a body, after which the domain is gone', async () => {
    await add('delete-me.com');
    const res = await remove('Delete-Me.com.');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 200, message: expect.any(String), data: null });
    expect((await get('delete-me.com')).status).toBe(404);
    expect((await remove('delete-me.com')).status).toBe(404);
    // The name can be added again, with a new identity.
    expect((await add('delete-me.com')).status).toBe(201);
  });

  it('answers 400 without ?domain= and 404 for another team\'s domain, which stays', async () => {
    expect((await server.api('/v1/domains', { method: 'DELETE', key: KEY })).status).toBe(400);
    await add('theirs-delete.com', OTHER);
    expect((await remove('theirs-delete.com')).status).toBe(404);
    expect((await get('theirs-delete.com', OTHER)).status).toBe(200);
  });
});
