import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, eventually, type TestServer } from '../server/test/harness.js';
import { createSendboxClient, latestLink, code, teamIdForKey, SendboxError, type SendboxClient } from './index.js';

/** The typed client against a real sendbox. */
const fixture = (name: string) => readFileSync(new URL(`../server/src/emails/fixtures/${name}`, import.meta.url), 'utf8');
const RESET_URL = 'https://app.acme.test/account/reset-password?token=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08&email=jane.doe%40example.com';

let server: TestServer;
let sendbox: SendboxClient;

beforeAll(async () => {
  server = await startServer();
  sendbox = createSendboxClient({ baseUrl: server.url + '/', apiKey: 'client-key' });
});
afterAll(async () => {
  await server.close();
});

describe('waiting and reading', () => {
  it('follows the reset link of a password-reset email in one line', async () => {
    const since = new Date();
    await sendbox.send({ from: 'Acme <no-reply@acme.test>', to: 'jane.doe@example.com', subject: 'Reset your Acme password', body: fixture('reset.html') });
    const email = await sendbox.waitForEmail({ to: 'jane.doe@example.com', subject: 'reset your', since });
    expect(email.subject).toBe('Reset your Acme password');
    expect(latestLink(email, /reset-password/)).toBe(RESET_URL);
    expect(sendbox.latestLink(email)).toBe(RESET_URL);
    expect(latestLink(email, 'help center')).toBe('https://help.acme.test/articles/4412-resetting-your-password');
    expect(() => latestLink(email, /nowhere/)).toThrow(/No link matching \/nowhere\/ in "Reset your Acme password"/);
    expect(() => code(email)).toThrow(/No verification code/);
  });

  it('reads the code of an OTP email', async () => {
    await sendbox.send({ to: 'otp@example.com', subject: 'Your sign-in code', body: fixture('otp.html') });
    expect(sendbox.code(await sendbox.waitForEmail({ to: 'otp@example.com' }))).toBe('482913');
  });

  it('waits for several emails, oldest first, and takes an email as since', async () => {
    const first = await sendbox.send({ to: 'batch@example.com', subject: 'one', body: 'x' });
    const waiting = sendbox.waitForEmail({ to: 'batch@example.com', since: first.id, count: 2, timeoutMs: 20_000 });
    const second = await sendbox.send({ to: 'batch@example.com', subject: 'two', body: 'x' });
    const third = await sendbox.send({ to: 'batch@example.com', subject: 'three', body: 'x' });
    const emails = await waiting;
    expect(emails.map((e) => e.id)).toEqual([second.id, third.id]);
  });

  it('rejects a wait that times out with the server\'s explanation', async () => {
    const error = await sendbox.waitForEmail({ to: 'nobody@example.com', timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendboxError);
    expect((error as SendboxError).status).toBe(408);
    expect((error as SendboxError).message).toMatch(/Waited 50 ms for 1 email to nobody@example\.com: 0 matched among \d+ emails seen/);
  });

  it('expects no email: resolves when none arrives, rejects naming the one that did', async () => {
    await expect(sendbox.expectNoEmail({ to: 'silent@example.com', timeoutMs: 50 })).resolves.toBeUndefined();
    const before = server.sendbox.services.events.listenerCount;
    const expectation = sendbox.expectNoEmail({ to: 'noisy@example.com', timeoutMs: 20_000 });
    await eventually(() => server.sendbox.services.events.listenerCount > before, 5000, 'wait subscribed');
    await sendbox.send({ to: 'noisy@example.com', subject: 'Surprise', body: 'x' });
    await expect(expectation).rejects.toThrow(/Expected no email, but: An email to noisy@example\.com arrived: "Surprise"/);
  });

  it('scopes to a team computed from an open-mode key', async () => {
    const teamId = await teamIdForKey('client-team-key');
    const scoped = createSendboxClient({ baseUrl: server.url, apiKey: 'client-team-key', teamId });
    await sendbox.send({ to: 'scoped@example.com', subject: 'other team', body: 'x' });
    await scoped.send({ to: 'scoped@example.com', subject: 'my team', body: 'x' });
    expect((await scoped.waitForEmail({ to: 'scoped@example.com' })).subject).toBe('my team');
    expect((await scoped.emails.list()).data.map((e) => e.subject)).toEqual(['my team']);
  });
});

describe('scripting', () => {
  it('makes the next email to an address bounce, once', async () => {
    const rule = await sendbox.rules.add({ match: { recipient: 'flaky@example.com' }, action: { outcome: 'bounced' }, times: 1 });
    expect(rule).toMatchObject({ uses: 0, times: 1, active: true });
    const bounced = await sendbox.send({ to: 'flaky@example.com', subject: 'a', body: 'x' });
    const ok = await sendbox.send({ to: 'flaky@example.com', subject: 'b', body: 'x' });
    await eventually(async () => (await sendbox.emails.get(bounced.id)).status === 'bounced', 5000, 'bounced');
    await eventually(async () => (await sendbox.emails.get(ok.id)).status === 'delivered', 5000, 'delivered');
    expect((await sendbox.rules.list()).find((r) => r.id === rule.id)).toMatchObject({ uses: 1, active: false });
    await sendbox.rules.remove(rule.id);
    expect((await sendbox.rules.list()).map((r) => r.id)).not.toContain(rule.id);
  });

  it('surfaces an API refusal as a SendboxError with the status', async () => {
    await sendbox.rules.add({ match: { subject: 'throttle me' }, action: { http_status: 429, retry_after: 1 }, times: 1 });
    const error = await sendbox.send({ to: 'x@example.com', subject: 'throttle me', body: 'x' }).catch((e: unknown) => e);
    expect((error as SendboxError).status).toBe(429);
    await expect(sendbox.send({ to: 'x@example.com', subject: 'throttle me', body: 'x' })).resolves.toMatchObject({ id: expect.any(String) });
    expect(await sendbox.rules.clear()).toEqual({ deleted: 1 });
  });

  it('pauses, forces and resumes delivery', async () => {
    expect(await sendbox.pause()).toEqual({ paused: true });
    const { id } = await sendbox.send({ to: ['p1@example.com', 'p2@example.com'], subject: 'held', body: 'x' });
    await eventually(async () => (await sendbox.emails.get(id)).status === 'queued', 5000, 'queued');
    const forced = await sendbox.forceEvent(id, { type: 'failed', recipient: 'p1@example.com' });
    expect(forced.outcomes[0]).toEqual({ recipient: 'p1@example.com', state: 'failed', decided_by: 'forced' });
    await expect(sendbox.forceEvent(id, { type: 'open', recipient: 'p1@example.com' })).rejects.toMatchObject({ status: 409 });
    expect(await sendbox.delivery()).toEqual({ paused: true });
    expect(await sendbox.resume()).toEqual({ paused: false });
    await eventually(async () => (await sendbox.emails.get(id)).status === 'failed', 5000, 'settled');
  });

  it('sets chaos and keeps what it omits', async () => {
    expect(await sendbox.chaos.set({ rates: { deferred: 0.5 }, seed: 7 })).toEqual({ rates: { bounced: 0, failed: 0, complaint: 0, deferred: 0.5 }, seed: 7 });
    expect(await sendbox.chaos.set({ rates: { deferred: 0 } })).toMatchObject({ seed: 7 });
  });

  it('scripts a domain verification', async () => {
    await server.api('/v1/domains', { method: 'POST', key: 'client-key', json: { value: 'scripted.example' } });
    await sendbox.domains.scriptVerification('scripted.example', { status: 'failed' });
    const verified = await server.api('/v1/domains/verify?domain=scripted.example', { method: 'POST', key: 'client-key' });
    expect(verified.body.data.status).toBe('failed');
  });

  it('lists, reads raw, marks read, deletes and resets', async () => {
    const { id } = await sendbox.send({ to: 'manage@example.com', subject: 'manage', body: 'x' });
    expect((await sendbox.emails.list({ to: 'manage@example.com' })).data.map((e) => e.id)).toEqual([id]);
    expect(await sendbox.emails.raw(id)).toContain('Subject: manage');
    expect((await sendbox.emails.markRead(id)).is_read).toBe(true);
    expect(await sendbox.emails.delete(id)).toMatchObject({ id });
    await expect(sendbox.emails.get(id)).rejects.toMatchObject({ status: 404 });
    const teams = await sendbox.teams();
    expect(teams.length).toBeGreaterThan(0);
    const reset = await sendbox.reset();
    expect(reset.team_id).toBeNull();
    expect((await sendbox.emails.list()).pagination.total_records).toBe(0);
  });
});

describe('with --ui-auth', () => {
  it('sends basic auth on sandbox calls and the bearer key on sends', async () => {
    const guarded = await startServer(['--ui-auth', 'me:pw']);
    try {
      const client = createSendboxClient({ baseUrl: guarded.url, apiKey: 'k', auth: { username: 'me', password: 'pw' } });
      const { id } = await client.send({ to: 'a@example.com', subject: 's', body: 'b' });
      expect((await client.waitForEmail({ to: 'a@example.com' })).id).toBe(id);
      await expect(createSendboxClient({ baseUrl: guarded.url }).emails.list()).rejects.toMatchObject({ status: 401 });
    } finally {
      await guarded.close();
    }
  });
});
