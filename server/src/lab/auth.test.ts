import { createHash } from 'node:crypto';
import { authenticate } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server.js';
import { queuedId, sendWithNodemailer } from '../../test/smtp/client.js';

/**
 * DKIM signing as the provider does it, verified by mailauth as a receiver would: a
 * message sendbox signed passes, the same message with its body altered fails.
 */

let server: TestServer;
const KEY = 'auth-lab-key';
const TEAM = `team_${createHash('sha256').update(KEY).digest('hex').slice(0, 12)}`;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function addDomain(value: string, verify: boolean): Promise<{ selector: string; publicRecord: string }> {
  const added = await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value } });
  expect(added.status).toBe(201);
  if (verify) expect((await server.api(`/v1/domains/verify?domain=${value}`, { method: 'POST', key: KEY })).body.data.status).toBe('success');
  const dkim = added.body.data.attributes.dkim_attributes;
  return { selector: dkim.name.split('.')[0], publicRecord: dkim.value };
}

async function send(json: Record<string, unknown>): Promise<string> {
  const res = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'jane@example.com', subject: 'Welcome', body: '<p>Hello Jane</p>', ...json } });
  expect(res.status).toBe(200);
  return res.body.data[0].email_id;
}

const raw = async (id: string) => (await fetch(`${server.url}/sandbox/emails/${id}/raw`)).text();

/** A receiver that finds only the published DKIM key. */
const receiver = (name: string, record: string) => async (query: string, type: string) => {
  if (query === name && type === 'TXT') return [[record]];
  throw Object.assign(new Error(`ENOTFOUND ${query}`), { code: 'ENOTFOUND' });
};

describe('DKIM signing and GET /sandbox/emails/{id}/auth', () => {
  it('signs mail from a team domain with its key: the .eml verifies with mailauth, and fails once its body is altered', async () => {
    const { selector, publicRecord } = await addDomain('signed.example', true);
    const id = await send({ from: 'Acme <hello@signed.example>' });
    const eml = await raw(id);
    const signature = /^DKIM-Signature:[^]*?(?=\r\n\S)/m.exec(eml)?.[0] ?? '';
    expect(signature).toContain('d=signed.example');
    expect(signature).toContain(`s=${selector}`);
    const view = await server.api(`/sandbox/emails/${id}`);
    expect(signature).toContain(`t=${Math.floor(Date.parse(view.body.data.created_at) / 1000)}`);

    // A receiver of its own, with only the published key.
    const resolver = receiver(`${selector}._domainkey.signed.example`, publicRecord);
    const good = await authenticate(eml, { resolver, sender: 'x@send.signed.example', ip: '192.0.2.25', helo: 'x', mta: 'mx.test', disableArc: true, disableBimi: true, disableDmarc: true } as never);
    expect(good.dkim.results[0].status.result).toBe('pass');
    const altered = eml.replace('Hello Jane', 'Hello Mallory');
    expect(altered).not.toBe(eml);
    const bad = await authenticate(altered, { resolver, sender: 'x@send.signed.example', ip: '192.0.2.25', helo: 'x', mta: 'mx.test', disableArc: true, disableBimi: true, disableDmarc: true } as never);
    expect(bad.dkim.results[0].status.comment).toBe('body hash did not verify');

    // The altered copy, submitted over SMTP from outside the team: sendbox does not sign it
    // again, and /auth reports its signature as a receiver must (RFC 6376 §6.1.3: PERMFAIL).
    const resent = await sendWithNodemailer(server.smtpPort, { envelope: { from: 'hello@signed.example', to: ['jane@example.com'] }, raw: altered });
    const data = (await server.api(`/sandbox/emails/${queuedId(resent.info.response)}/auth`)).body.data;
    expect(data.signed_by_sendbox).toBe(false);
    expect(data.dkim).toEqual([expect.objectContaining({ result: 'fail', domain: 'signed.example', selector, body_hash_matches: false, comment: 'body hash did not verify' })]);
    expect(data.authentication_results).toContain('dkim=fail (body hash did not verify)');
    expect(data.dmarc.result).not.toBe('pass');
    expect(data.summary).toContain('dkim=fail for signed.example (body hash did not verify)');
  });

  it('signs deterministically: every download is the same bytes', async () => {
    await addDomain('stable.example', true);
    const id = await send({ from: 'news@stable.example' });
    expect(await raw(id)).toBe(await raw(id));
  });

  it('answers pass for DKIM, SPF and DMARC of a verified domain, against the records sendbox generated', async () => {
    const { selector } = await addDomain('verified.example', true);
    const id = await send({ from: 'hello@verified.example' });
    const res = await server.api(`/sandbox/emails/${id}/auth`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ from_domain: 'verified.example', team_domain: { value: 'verified.example', verified: true }, dns: 'simulated', signed_by_sendbox: true });
    expect(data.dkim).toEqual([expect.objectContaining({ result: 'pass', domain: 'verified.example', selector, algorithm: 'rsa-sha256', body_hash_matches: true, aligned: true })]);
    const eml = await raw(id);
    expect(eml).toContain(`bh=${data.dkim[0].body_hash};`);
    expect(data.dkim[0].computed_body_hash).toBe(data.dkim[0].body_hash);
    expect(eml.replace(/\r\n\s+/g, '')).toContain(`b=${data.dkim[0].signature}`);
    expect(data.spf).toMatchObject({ result: 'pass', domain: 'send.verified.example', mail_from: `${id}@send.verified.example` });
    expect(data.dmarc).toMatchObject({ result: 'pass', policy: 'none', aligned_dkim: true });
    expect(data.summary).toMatch(/^Authenticates: DKIM passes for verified\.example/);
    expect(data.authentication_results).toContain('dkim=pass');
  });

  it('gives an unverified domain the receiver\'s verdict: no key published, with the reason in one sentence', async () => {
    await addDomain('pending.example', false);
    const id = await send({ from: 'hello@pending.example' });
    const data = (await server.api(`/sandbox/emails/${id}/auth`)).body.data;
    expect(data.signed_by_sendbox).toBe(true);
    expect(data.dkim[0].result).not.toBe('pass');
    expect(data.dmarc.result).toBe('none');
    expect(data.summary).toMatch(/^pending\.example is not verified, so its DKIM, SPF and DMARC records count as unpublished/);
  });

  it('does not sign for a domain that is not the team\'s, and says why', async () => {
    const id = await send({ from: 'someone@elsewhere.example' });
    expect(await raw(id)).not.toMatch(/^DKIM-Signature:/m);
    const data = (await server.api(`/sandbox/emails/${id}/auth`)).body.data;
    expect(data).toMatchObject({ signed_by_sendbox: false, team_domain: null, dkim: [], dmarc: { result: 'none', aligned_dkim: false, aligned_spf: false } });
    expect(data.spf).toMatchObject({ result: 'pass', domain: 'sendbox.local' });
    expect(data.summary).toMatch(/^elsewhere\.example is not a domain of this team, so sendbox does not sign for it/);
  });

  it('checks the bulk-sender rules: https List-Unsubscribe, one-click Post, both signed', async () => {
    await addDomain('bulk.example', true);
    const good = await send({ from: 'news@bulk.example', headers: { 'List-Unsubscribe': '<https://bulk.example/u/1>, <mailto:u@bulk.example>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } });
    expect((await server.api(`/sandbox/emails/${good}/auth`)).body.data.bulk_sender.map((c: { id: string; ok: boolean }) => [c.id, c.ok])).toEqual([
      ['list-unsubscribe-https', true],
      ['list-unsubscribe-one-click', true],
      ['list-unsubscribe-signed', true],
      ['visible-unsubscribe', false],
    ]);
    const bad = await send({ from: 'news@bulk.example', headers: { 'List-Unsubscribe': '<mailto:u@bulk.example>' } });
    const checks = (await server.api(`/sandbox/emails/${bad}/auth`)).body.data.bulk_sender;
    expect(checks.map((c: { ok: boolean }) => c.ok)).toEqual([false, false, false, false]);
    const visible = await send({ from: 'news@bulk.example', body: '<p>News</p><p><a href="https://bulk.example/u">Abbestellen</a></p>', headers: { 'List-Unsubscribe': '<https://bulk.example/u>' } });
    expect((await server.api(`/sandbox/emails/${visible}/auth`)).body.data.bulk_sender[3]).toEqual({ id: 'visible-unsubscribe', ok: true, message: 'The body shows an unsubscribe link or instruction.' });
    const transactional = await send({ from: 'news@bulk.example' });
    expect((await server.api(`/sandbox/emails/${transactional}/auth`)).body.data.bulk_sender).toHaveLength(3);
    expect(checks[0].message).toContain('no https URI');
  });

  it('answers 404 for an unknown email and 405 for another method', async () => {
    expect((await server.api('/sandbox/emails/nope/auth')).status).toBe(404);
    expect((await server.api('/sandbox/emails/nope/auth', { method: 'DELETE', headers: { 'Content-Type': 'application/json' } })).status).toBe(405);
  });
});

describe('SMTP', () => {
  it('signs mail that arrives over SMTP from a team domain too, and it authenticates', async () => {
    await addDomain('smtp-signed.example', true);
    const sent = await sendWithNodemailer(server.smtpPort, { from: 'Acme <app@smtp-signed.example>', to: 'jane@example.com', subject: 'Over SMTP', text: 'Hello over SMTP' }, { auth: { user: 'apikey', pass: KEY } });
    const id = queuedId(sent.info.response);
    const eml = await raw(id);
    expect(eml).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed;/);
    expect(eml).toContain('d=smtp-signed.example;');
    const data = (await server.api(`/sandbox/emails/${id}/auth`)).body.data;
    expect(data).toMatchObject({ signed_by_sendbox: true, dkim: [{ result: 'pass', domain: 'smtp-signed.example' }], dmarc: { result: 'pass' } });
  });
});

describe('team scoping of the signing key', () => {
  it('does not sign for a domain another team owns', async () => {
    await server.api('/sandbox/domains', { method: 'POST', json: { team_id: 'team_other', value: 'theirs.example' } });
    const id = await send({ from: 'x@theirs.example' });
    expect(await raw(id)).not.toMatch(/^DKIM-Signature:/m);
    expect(TEAM).toMatch(/^team_/);
  });
});

describe('with --dns real', () => {
  let dns: TestDnsServer;
  let real: TestServer;
  beforeAll(async () => {
    dns = await startDnsServer();
    real = await startServer(['--dns', 'real', '--dns-server', dns.address, '--dns-timeout-ms', '300']);
  });
  afterAll(async () => {
    await real.close();
    await dns.close();
  });

  it('verifies against what the domain really publishes: all records pass, then DMARC passes on SPF alone once the DKIM key is gone', async () => {
    const added = (await real.api('/v1/domains', { method: 'POST', key: KEY, json: { value: 'published.example' } })).body.data;
    const dkim = added.attributes.dkim_attributes;
    dns.zone.set(dkim.name, { TXT: [dkim.value] });
    dns.zone.set('send.published.example', { TXT: [added.attributes.mail_from_attributes[0].value] });
    dns.zone.set('_dmarc.published.example', { TXT: ['v=DMARC1; p=reject;'] });
    const sent = await real.api('/v1/send', { method: 'POST', key: KEY, json: { from: 'hi@published.example', to: 'jane@example.com', subject: 'Real', body: 'Hello' } });
    const id = sent.body.data[0].email_id;
    const all = (await real.api(`/sandbox/emails/${id}/auth`)).body.data;
    expect(all).toMatchObject({ dns: 'real', dkim: [{ result: 'pass' }], spf: { result: 'pass' }, dmarc: { result: 'pass', policy: 'reject' } });

    dns.zone.delete(dkim.name);
    const noKey = (await real.api(`/sandbox/emails/${id}/auth`)).body.data;
    expect(noKey.dkim[0].result).not.toBe('pass');
    expect(noKey.dmarc).toMatchObject({ result: 'pass', aligned_dkim: false, aligned_spf: true });
  });
});
