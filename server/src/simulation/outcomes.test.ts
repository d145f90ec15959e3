import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, eventually, type TestServer } from '../../test/harness.js';

/**
 * The outcome engine end to end (CONTRACT §4, §8): every source, their precedence, the
 * exact statuses, codes and log sequences, rules with times/nth, API refusals, chaos.
 */
let server: TestServer;
const KEY = 'outcomes-key';

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.api('/sandbox/rules', { method: 'DELETE', json: {} });
  await server.api('/sandbox/delivery/resume', { method: 'POST', json: {} });
});

const FINAL = ['delivered', 'bounced', 'failed', 'complaint'];

async function send(json: Record<string, unknown>, key = KEY): Promise<string> {
  const res = await server.api('/v1/send', { method: 'POST', key, json: { subject: 'Hello', body: 'Hi there', ...json } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data[0].email_id;
}

async function view(id: string) {
  const res = await server.api(`/sandbox/emails/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The sandbox view once every recipient reached `states` (default: any final state). */
async function settled(id: string, states?: string[]) {
  return eventually(async () => {
    const email = await view(id);
    const done = email.outcomes.every((o: { state: string }, i: number) => (states ? o.state === states[i] : FINAL.includes(o.state)));
    return done ? email : undefined;
  }, 5000, `email ${id} settled`);
}

type Log = { status: string; code: string; response: string; mx_hostname: string; recipient: string; queued_at: string };
const steps = (logs: Log[]) => logs.map((l) => `${l.status}:${l.code}`);

describe('outcome sources', () => {
  it('delivers by default: processing → queued 250 → delivered 250, with mx_hostname after processing', async () => {
    const id = await send({ to: 'plain@example.com' });
    const email = await settled(id, ['delivered']);
    expect(email.status).toBe('delivered');
    expect(email.outcomes).toEqual([{ recipient: 'plain@example.com', state: 'delivered', decided_by: 'default' }]);
    expect(steps(email.logs)).toEqual(['processing:', 'queued:250', 'delivered:250']);
    expect(email.logs.map((l: Log) => l.mx_hostname)).toEqual(['', 'mx.example.com', 'mx.example.com']);
    expect(email.logs[0].queued_at).toBe('');
    expect(email.logs[1].queued_at).not.toBe('');
    expect(email.logs[2].response).toMatch(new RegExp(`^2\\.0\\.0 OK \\d+ ${id} - accepted for delivery$`));
    expect(email.delivered_at).not.toBeNull();
  });

  it('obeys the X-Sendbox-Outcome header', async () => {
    const id = await send({ to: 'h@example.com', headers: { 'X-Sendbox-Outcome': 'bounced' } });
    const email = await settled(id);
    expect(email.status).toBe('bounced');
    expect(email.outcomes[0].decided_by).toBe('header');
    expect(steps(email.logs)).toEqual(['processing:', 'queued:250', 'bounced:550']);
    expect(email.logs[2].response).toBe('5.1.1 <h@example.com>: Recipient address rejected: User unknown in virtual mailbox table');
    expect(email.delivered_at).toBeNull();
  });

  it('obeys plus-tags: failed is 554, deferred is a 451 then a delivery', async () => {
    const failed = await settled(await send({ to: 'f+failed@example.com' }));
    expect(failed.status).toBe('failed');
    expect(failed.outcomes[0].decided_by).toBe('plus-tag');
    expect(steps(failed.logs)).toEqual(['processing:', 'queued:250', 'failed:554']);

    const deferred = await settled(await send({ to: 'd+deferred@example.org' }), ['delivered']);
    expect(deferred.status).toBe('delivered');
    expect(steps(deferred.logs)).toEqual(['processing:', 'queued:250', 'queued:451', 'delivered:250']);
    expect(deferred.logs[2]).toMatchObject({ mx_hostname: 'mx.example.org', response: '4.7.1 Greylisted: please try again later' });
  });

  it('obeys the SES and Resend simulator addresses', async () => {
    const suppressed = await settled(await send({ to: 'suppressionlist@simulator.amazonses.com' }));
    expect(suppressed.outcomes[0].decided_by).toBe('simulator');
    expect(suppressed.logs.at(-1)).toMatchObject({ status: 'bounced', code: '550', response: '5.1.1 Address is on the suppression list' });
    const bounced = await settled(await send({ to: 'bounced+label@resend.dev' }));
    expect(bounced.status).toBe('bounced');
    expect(bounced.outcomes[0].decided_by).toBe('simulator');
  });

  it('bounces .invalid domains as "no such domain"', async () => {
    const email = await settled(await send({ to: 'who@nowhere.invalid' }));
    expect(email.outcomes[0].decided_by).toBe('invalid-domain');
    expect(email.logs.at(-1)).toMatchObject({ status: 'bounced', code: '550', response: '5.1.2 Host or domain name not found. Name service error for name=nowhere.invalid' });
  });

  it('shows complaint entries in /logs but not in the email record', async () => {
    const id = await send({ to: 'complained@resend.dev' });
    const email = await settled(id, ['complaint']);
    expect(email.status).toBe('complaint');
    expect(email.delivered_at).not.toBeNull();
    const record = (await server.api(`/v1/emails/${id}`, { key: KEY })).body.data;
    expect(steps(record.logs)).toEqual(['processing:', 'queued:250', 'delivered:250']);
    const logs = (await server.api(`/v1/emails/${id}/logs`, { key: KEY })).body.data;
    expect(steps(logs)).toEqual(['processing:', 'queued:250', 'delivered:250', 'complaint:']);
    expect(logs[3].response).toMatch(/spam/);
  });

  it('decides per recipient; the status is the most severe outcome and delivered_at stays set', async () => {
    const id = await send({ to: ['ok@example.com', 'no+bounced@example.com'], cc: 'late+failed@example.com' });
    const email = await settled(id);
    expect(email.outcomes).toEqual([
      { recipient: 'ok@example.com', state: 'delivered', decided_by: 'default' },
      { recipient: 'no+bounced@example.com', state: 'bounced', decided_by: 'plus-tag' },
      { recipient: 'late+failed@example.com', state: 'failed', decided_by: 'plus-tag' },
    ]);
    expect(email.status).toBe('bounced');
    expect(email.delivered_at).not.toBeNull();
  });
});

describe('precedence', () => {
  it('rule > header > plus-tag > simulator > .invalid', async () => {
    const rule = (await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: 'ruled*' }, action: { outcome: 'failed' } } })).body.data;
    const byRule = await settled(await send({ to: 'ruled+bounced@example.com', headers: { 'X-Sendbox-Outcome': 'delivered' } }));
    expect(byRule.outcomes[0]).toMatchObject({ state: 'failed', decided_by: `rule:${rule.id}` });

    const byHeader = await settled(await send({ to: 'x+bounced@example.com', headers: { 'X-Sendbox-Outcome': 'delivered' } }));
    expect(byHeader.outcomes[0]).toMatchObject({ state: 'delivered', decided_by: 'header' });

    const byTag = await settled(await send({ to: 'bounce+delivered@simulator.amazonses.com' }));
    expect(byTag.outcomes[0]).toMatchObject({ state: 'delivered', decided_by: 'plus-tag' });

    const byTagOverInvalid = await settled(await send({ to: 'x+failed@a.invalid' }));
    expect(byTagOverInvalid.outcomes[0]).toMatchObject({ state: 'failed', decided_by: 'plus-tag' });
  });
});

describe('pending status', () => {
  it('stays queued while any recipient waits, observed with the delivery clock paused', async () => {
    expect((await server.api('/sandbox/delivery/pause', { method: 'POST', json: {} })).body.data).toEqual({ paused: true });
    expect((await server.api('/sandbox/delivery')).body.data).toEqual({ paused: true });
    const id = await send({ to: ['p1@example.com', 'p2+bounced@example.com'] });
    const queued = await settled(id, ['queued', 'queued']);
    expect(queued.status).toBe('queued');
    expect(steps(queued.logs)).toEqual(['processing:', 'processing:', 'queued:250', 'queued:250']);

    // One recipient done, one still queued: the email is still queued.
    await server.api(`/sandbox/emails/${id}/events`, { method: 'POST', json: { type: 'delivered', recipient: 'p1@example.com' } });
    const half = await view(id);
    expect(half.outcomes.map((o: { state: string }) => o.state)).toEqual(['delivered', 'queued']);
    expect(half.status).toBe('queued');
    expect(half.delivered_at).not.toBeNull();

    await server.api('/sandbox/delivery/resume', { method: 'POST', json: {} });
    const done = await settled(id);
    expect(done.status).toBe('bounced');
    expect(done.outcomes[1]).toMatchObject({ state: 'bounced', decided_by: 'plus-tag' });
  });
});

describe('rules', () => {
  it('"the next email to X bounces" in one call (times: 1)', async () => {
    const created = await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: 'next@example.com' }, action: { outcome: 'bounced', code: '550', response: '5.1.1 user unknown' }, times: 1 } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ match: { recipient: 'next@example.com' }, action: { outcome: 'bounced', code: '550', response: '5.1.1 user unknown' }, times: 1, nth: null, uses: 0, active: true });
    const first = await settled(await send({ to: 'NEXT@example.com' }));
    expect(first.outcomes[0]).toMatchObject({ state: 'bounced', decided_by: `rule:${created.body.data.id}` });
    expect(first.logs.at(-1)).toMatchObject({ status: 'bounced', code: '550', response: '5.1.1 user unknown' });
    const second = await settled(await send({ to: 'next@example.com' }));
    expect(second.outcomes[0]).toMatchObject({ state: 'delivered', decided_by: 'default' });
    const rule = (await server.api(`/sandbox/rules/${created.body.data.id}`)).body.data;
    expect(rule).toMatchObject({ uses: 1, matches: 1, active: false });
  });

  it('applies only to the Nth matching email (nth)', async () => {
    await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: '*@nth.example' }, action: { outcome: 'failed' }, nth: 2 } });
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push((await settled(await send({ to: `u${i}@nth.example` }))).outcomes[0].state);
    expect(outcomes).toEqual(['delivered', 'failed', 'delivered']);
  });

  it('counts a rule once per email however many recipients it decides', async () => {
    const rule = (await server.api('/sandbox/rules', { method: 'POST', json: { match: { subject: 'team news' }, action: { outcome: 'bounced' }, times: 1 } })).body.data;
    const first = await settled(await send({ to: ['a@example.com', 'b@example.com'], subject: 'Team News today' }));
    expect(first.outcomes.map((o: { state: string }) => o.state)).toEqual(['bounced', 'bounced']);
    expect((await server.api(`/sandbox/rules/${rule.id}`)).body.data.uses).toBe(1);
  });

  it('matches on sender glob, header and team, all AND-ed', async () => {
    const team = 'team_' + (await import('node:crypto')).createHash('sha256').update(KEY).digest('hex').slice(0, 12);
    await server.api('/sandbox/rules', { method: 'POST', json: { match: { from: '*@ACME.test', header: { name: 'x-env', value: 'c?' }, team_id: team }, action: { outcome: 'complaint' } } });
    const hit = await settled(await send({ from: 'app@acme.test', to: 'r@example.com', headers: { 'X-Env': 'ci' } }), ['complaint']);
    expect(hit.outcomes[0].decided_by).toMatch(/^rule:/);
    const wrongHeader = await settled(await send({ from: 'app@acme.test', to: 'r@example.com', headers: { 'X-Env': 'prod' } }));
    expect(wrongHeader.outcomes[0].decided_by).toBe('default');
    const otherTeam = await settled(await send({ from: 'app@acme.test', to: 'r@example.com', headers: { 'X-Env': 'ci' } }, 'another-key'));
    expect(otherTeam.outcomes[0].decided_by).toBe('default');
  });

  it('retries a temporary 4xx failure with backoff, then fails with the last 4xx', async () => {
    await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: 'busy@example.com' }, action: { outcome: 'failed', code: 451 } } });
    const email = await settled(await send({ to: 'busy@example.com' }));
    expect(steps(email.logs)).toEqual(['processing:', 'queued:250', 'queued:451', 'queued:451', 'queued:451', 'failed:451']);
    expect(email.logs.at(-1).response).toBe('4.7.1 Temporary local problem, please try again later');
  });

  it('refuses a send with 429 and Retry-After, then accepts the retry (times: 1)', async () => {
    await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: '*@ratelimited.example' }, action: { http_status: 429, retry_after: 30 }, times: 1 } });
    const refused = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'x@ratelimited.example', subject: 's', body: 'b' } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.body).toMatchObject({ status: 429, success: false });
    expect(refused.body.message).toMatch(/rate limit/i);
    const retried = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'x@ratelimited.example', subject: 's', body: 'b' } });
    expect(retried.status).toBe(200);
  });

  it('answers 500 and 503 from rules, until the rule is deleted', async () => {
    const rule = (await server.api('/sandbox/rules', { method: 'POST', json: { match: { subject: 'outage' }, action: { http_status: 503, retry_after: 5 } } })).body.data;
    const down = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'x@example.com', subject: 'outage test', body: 'b' } });
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect((await server.api(`/sandbox/rules/${rule.id}`, { method: 'DELETE', json: {} })).status).toBe(200);
    expect((await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'x@example.com', subject: 'outage test', body: 'b' } })).status).toBe(200);
    await server.api('/sandbox/rules', { method: 'POST', json: { action: { http_status: 500 }, match: { subject: 'crash' }, times: 1 } });
    const crash = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'x@example.com', subject: 'crash', body: 'b' } });
    expect(crash.status).toBe(500);
    expect(crash.body).toMatchObject({ status: 500, success: false });
  });

  it('lists, deletes and clears rules', async () => {
    const a = (await server.api('/sandbox/rules', { method: 'POST', json: { action: { outcome: 'delivered' }, match: { recipient: 'a@x.example' } } })).body.data;
    const b = (await server.api('/sandbox/rules', { method: 'POST', json: { action: { smtp_stage: 'rcpt', code: 550 }, match: { recipient: 'b@x.example' } } })).body.data;
    expect((await server.api('/sandbox/rules')).body.data.map((r: { id: number }) => r.id)).toEqual([a.id, b.id]);
    expect(b.action).toEqual({ smtp_stage: 'rcpt', code: 550 });
    await server.api(`/sandbox/rules/${a.id}`, { method: 'DELETE', json: {} });
    expect((await server.api(`/sandbox/rules/${a.id}`)).status).toBe(404);
    const cleared = await server.api('/sandbox/rules', { method: 'DELETE', json: {} });
    expect(cleared.body.data).toEqual({ deleted: 1 });
    expect((await server.api('/sandbox/rules')).body.data).toEqual([]);
  });
});

describe('smtp refusals through the seam', () => {
  it('answers the rule\'s reply at RCPT for a matching recipient only, counting times', async () => {
    await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: '*@blocked.example' }, action: { smtp_stage: 'rcpt', code: 550, message: '5.1.1 No such user here' }, times: 1 } });
    const { scenarios } = server.sendbox.services;
    expect(scenarios.smtpRefusal('mail', { teamId: 'team_smtp', from: 'a@b.example', recipients: [] })).toBeNull();
    expect(scenarios.smtpRefusal('rcpt', { teamId: 'team_smtp', from: 'a@b.example', recipients: ['ok@example.com'] })).toBeNull();
    expect(scenarios.smtpRefusal('rcpt', { teamId: 'team_smtp', from: 'a@b.example', recipients: ['x@blocked.example'] })).toEqual({ code: 550, message: '5.1.1 No such user here', delayMs: 0, disconnect: false });
    expect(scenarios.smtpRefusal('rcpt', { teamId: 'team_smtp', from: 'a@b.example', recipients: ['x@blocked.example'] })).toBeNull();
  });
});

describe('chaos', () => {
  async function outcomesFor(prefix: string, n: number): Promise<string[]> {
    const ids = [];
    for (let i = 0; i < n; i++) ids.push(await send({ to: `${prefix}${i}@chaos.example` }));
    const states = [];
    for (const id of ids) states.push((await settled(id)).outcomes[0]);
    return states.map((o) => `${o.state}/${o.decided_by}`);
  }

  it('gives the same outcomes for the same seed, and keeps what a PUT omits', async () => {
    const off = (await server.api('/sandbox/chaos')).body.data;
    expect(off.rates).toEqual({ bounced: 0, failed: 0, complaint: 0, deferred: 0 });
    const on = await server.api('/sandbox/chaos', { method: 'PUT', json: { rates: { bounced: 0.3, failed: 0.2 }, seed: 1234 } });
    expect(on.body.data).toEqual({ rates: { bounced: 0.3, failed: 0.2, complaint: 0, deferred: 0 }, seed: 1234 });
    const first = await outcomesFor('a', 12);
    await server.api('/sandbox/chaos', { method: 'PUT', json: { seed: 1234 } });
    const second = await outcomesFor('b', 12);
    expect(second).toEqual(first);
    expect(first.some((o) => o.endsWith('/chaos'))).toBe(true);
    expect(first.some((o) => o === 'delivered/default')).toBe(true);
    // A rates-only PUT keeps the seed.
    const kept = await server.api('/sandbox/chaos', { method: 'PUT', json: { rates: { failed: 0 } } });
    expect(kept.body.data).toEqual({ rates: { bounced: 0.3, failed: 0, complaint: 0, deferred: 0 }, seed: 1234 });
    await server.api('/sandbox/chaos', { method: 'PUT', json: { rates: { bounced: 0 } } });
    expect((await outcomesFor('c', 2))).toEqual(['delivered/default', 'delivered/default']);
  });

  it('--chaos and --seed give two servers the same outcomes', async () => {
    const runs: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const chaotic = await startServer(['--chaos', 'bounced=0.25,complaint=0.25,deferred=0.25', '--seed', '99']);
      try {
        const ids = [];
        for (let i = 0; i < 10; i++) ids.push((await chaotic.api('/v1/send', { method: 'POST', key: 'k', json: { to: `r${i}@example.com`, subject: 's', body: 'b' } })).body.data[0].email_id);
        const states = [];
        for (const id of ids) {
          const email = await eventually(async () => {
            const e = (await chaotic.api(`/sandbox/emails/${id}`)).body.data;
            return e.logs.some((l: Log) => l.status !== 'processing' && l.status !== 'queued') && e.outcomes.every((o: { state: string }) => FINAL.includes(o.state)) ? e : undefined;
          }, 5000, 'chaos email settled');
          states.push(`${email.outcomes[0].decided_by}:${email.logs.filter((l: Log) => l.status === 'queued').length}`);
        }
        runs.push(states);
        expect((await chaotic.api('/sandbox/chaos')).body.data).toEqual({ rates: { bounced: 0.25, failed: 0, complaint: 0.25, deferred: 0.25 }, seed: 99 });
      } finally {
        await chaotic.close();
      }
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[0].filter((s) => s.startsWith('chaos')).length).toBeGreaterThan(0);
  });
});

describe('restart', () => {
  it('resumes a paused email mid-lifecycle with its planned outcome, and keeps rules and their uses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sendbox-scenario-restart-'));
    try {
      const first = await startServer([], {}, dir);
      const rule = (await first.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: 'r@restart.example' }, action: { outcome: 'bounced' }, times: 2 } })).body.data;
      await first.api('/sandbox/delivery/pause', { method: 'POST', json: {} });
      const id = (await first.api('/v1/send', { method: 'POST', key: 'k', json: { to: 'r@restart.example', subject: 's', body: 'b' } })).body.data[0].email_id;
      await eventually(async () => (await first.api(`/sandbox/emails/${id}`)).body.data.status === 'queued', 5000, 'queued');
      await first.close();

      const second = await startServer([], {}, dir);
      try {
        const email = await eventually(async () => {
          const e = (await second.api(`/sandbox/emails/${id}`)).body.data;
          return e.status === 'bounced' ? e : undefined;
        }, 5000, 'bounced after restart');
        expect(email.outcomes[0]).toEqual({ recipient: 'r@restart.example', state: 'bounced', decided_by: `rule:${rule.id}` });
        expect(email.logs.map((l: Log) => l.status)).toEqual(['processing', 'queued', 'bounced']);
        expect((await second.api(`/sandbox/rules/${rule.id}`)).body.data).toMatchObject({ uses: 1, active: true });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
