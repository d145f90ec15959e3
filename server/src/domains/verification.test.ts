import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';

/** CONTRACT §5 in simulated mode: scripted outcomes, the magic .test names, the default. */

let server: TestServer;
const KEY = 'verification-test-key-1';
const OTHER = 'verification-test-key-2';
const teamOf = (key: string) => `team_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const add = async (value: string, key = KEY) => {
  const res = await server.api('/v1/domains', { method: 'POST', key, json: { value } });
  expect(res.status).toBe(201);
  return res.body.data;
};
const verify = async (domain: string, key = KEY) => {
  const res = await server.api(`/v1/domains/verify?domain=${encodeURIComponent(domain)}`, { method: 'POST', key });
  expect(res.status).toBe(200);
  return res.body.data;
};
const script = (domain: string, json: unknown) => server.api(`/sandbox/domains/${encodeURIComponent(domain)}/verification`, { method: 'PUT', json });
const statuses = (d: { attributes: { dkim_attributes: { status: string }; mail_from_attributes: { status: string }[]; dmarc_attributes: { status: string } } }) => ({
  dkim: d.attributes.dkim_attributes.status,
  spf: d.attributes.mail_from_attributes[0].status,
  bounce: d.attributes.mail_from_attributes[1].status,
  dmarc: d.attributes.dmarc_attributes.status,
});
const summary = (d: any) => ({ status: d.status, verification_status: d.attributes.verification_status, error_type: d.attributes.error_type, verified_for_sending_status: d.attributes.verified_for_sending_status, records: statuses(d) });
const all = (s: string) => ({ dkim: s, spf: s, bounce: s, dmarc: s });

describe('the magic .test names', () => {
  it('failed.<name>.test fails every record with HOST_NOT_FOUND', async () => {
    await add('failed.acme.test');
    const d = await verify('failed.acme.test');
    expect(summary(d)).toEqual({ status: 'failed', verification_status: 'failed', error_type: 'HOST_NOT_FOUND', verified_for_sending_status: false, records: all('failed') });
    expect(d.verified_at).toBeNull();
  });

  it('pending.<name>.test leaves every record pending, without an error type', async () => {
    await add('pending.acme.test');
    const d = await verify('pending.acme.test');
    expect(summary(d)).toEqual({ status: 'pending', verification_status: 'pending', error_type: '', verified_for_sending_status: false, records: all('pending') });
  });

  it('tempfail.<name>.test is a temporary_failure that keeps the records as they were (DMARC "" included)', async () => {
    const created = await add('tempfail.acme.test');
    const d = await verify('tempfail.acme.test');
    expect(summary(d)).toEqual({
      status: 'temporary_failure',
      verification_status: 'temporary_failure',
      error_type: 'DNS_SERVER_ERROR',
      verified_for_sending_status: false,
      records: { dkim: 'not_started', spf: 'not_started', bounce: 'not_started', dmarc: '' },
    });
    expect(Date.parse(d.last_status_checked_at)).toBeGreaterThanOrEqual(Date.parse(created.last_status_checked_at));
  });

  it('any other .test name verifies, as does a name that only contains a magic word', async () => {
    for (const name of ['ok.acme.test', 'mail.failed.acme.test', 'failed.acme.com']) {
      await add(name);
      expect((await verify(name)).status).toBe('success');
    }
  });
});

describe('scripted outcomes', () => {
  it('an overall status applies to the next check only, then the default returns', async () => {
    await add('overall.com');
    expect((await script('overall.com', { status: 'failed' })).status).toBe(200);
    const failed = await verify('overall.com');
    expect(summary(failed)).toEqual({ status: 'failed', verification_status: 'failed', error_type: 'HOST_NOT_FOUND', verified_for_sending_status: false, records: all('failed') });
    const next = await verify('overall.com');
    expect(summary(next)).toEqual({ status: 'success', verification_status: 'success', error_type: '', verified_for_sending_status: true, records: all('success') });
    expect(next.verified_at).not.toBeNull();
  });

  it('per-record statuses: the overall status follows the worst record', async () => {
    await add('records.com');
    await script('records.com', { records: { dkim: 'success', spf: 'pending', bounce: 'failed', dmarc: 'success' }, error_type: 'INVALID_VALUE' });
    const d = await verify('records.com');
    expect(summary(d)).toEqual({ status: 'failed', verification_status: 'failed', error_type: 'INVALID_VALUE', verified_for_sending_status: false, records: { dkim: 'success', spf: 'pending', bounce: 'failed', dmarc: 'success' } });
  });

  it('records not named succeed', async () => {
    await add('partial.com');
    await script('partial.com', { records: { bounce: 'pending' } });
    const d = await verify('partial.com');
    expect(summary(d)).toEqual({ status: 'pending', verification_status: 'pending', error_type: '', verified_for_sending_status: false, records: { dkim: 'success', spf: 'success', bounce: 'pending', dmarc: 'success' } });
  });

  it('a sequence is consumed one step per check, in order, then the default returns', async () => {
    await add('sequence.com');
    const res = await script('sequence.com', { sequence: ['pending', 'pending', { records: { dkim: 'failed' }, error_type: 'TYPE_NOT_FOUND' }, 'temporary_failure'] });
    expect(res.body.data).toEqual([{ domain: 'sequence.com', team_id: teamOf(KEY), steps: [{ status: 'pending' }, { status: 'pending' }, { records: { dkim: 'failed' }, error_type: 'TYPE_NOT_FOUND' }, { status: 'temporary_failure' }], created_at: expect.any(String) }]);

    expect((await verify('sequence.com')).status).toBe('pending');
    expect((await verify('sequence.com')).status).toBe('pending');
    const third = await verify('sequence.com');
    expect(summary(third)).toEqual({ status: 'failed', verification_status: 'failed', error_type: 'TYPE_NOT_FOUND', verified_for_sending_status: false, records: { dkim: 'failed', spf: 'success', bounce: 'success', dmarc: 'success' } });
    const fourth = await verify('sequence.com');
    // temporary_failure keeps the previous record statuses.
    expect(summary(fourth)).toEqual({ status: 'temporary_failure', verification_status: 'temporary_failure', error_type: 'DNS_SERVER_ERROR', verified_for_sending_status: false, records: statuses(third) });
    expect((await verify('sequence.com')).status).toBe('success');
    expect((await server.api('/sandbox/domains/sequence.com/verification')).body.data).toEqual([]);
  });

  it('a temporary_failure keeps a verified domain verified_for_sending, with its verified_at', async () => {
    await add('verified-then-temp.com');
    const ok = await verify('verified-then-temp.com');
    await script('verified-then-temp.com', { status: 'temporary_failure', error_type: 'SERVICE_ERROR' });
    const d = await verify('verified-then-temp.com');
    expect(summary(d)).toEqual({ status: 'temporary_failure', verification_status: 'temporary_failure', error_type: 'SERVICE_ERROR', verified_for_sending_status: true, records: all('success') });
    expect(d.verified_at).toBe(ok.verified_at);
    // A later failure does lose it.
    await script('verified-then-temp.com', { status: 'failed' });
    expect((await verify('verified-then-temp.com')).attributes.verified_for_sending_status).toBe(false);
  });

  it('a script wins over a magic name', async () => {
    await add('failed.scripted.test');
    await script('failed.scripted.test', { status: 'success' });
    expect((await verify('failed.scripted.test')).status).toBe('success');
    expect((await verify('failed.scripted.test')).status).toBe('failed');
  });

  it('a later script replaces the earlier one', async () => {
    await add('replace.com');
    await script('replace.com', { sequence: ['failed', 'failed'] });
    await script('replace.com', { status: 'pending' });
    expect((await verify('replace.com')).status).toBe('pending');
    expect((await verify('replace.com')).status).toBe('success');
  });

  it('the domain name in the path is case-insensitive and may end in a dot', async () => {
    await add('path-name.com');
    await script('PATH-Name.com.', { status: 'pending' });
    expect((await verify('path-name.com')).status).toBe('pending');
  });
});

describe('scripts and teams', () => {
  it('with team_id, only that team\'s check uses the script', async () => {
    await add('teams-one.com');
    await add('teams-one.com', OTHER);
    await script('teams-one.com', { status: 'failed', team_id: teamOf(OTHER) });
    expect((await verify('teams-one.com')).status).toBe('success');
    expect((await verify('teams-one.com', OTHER)).status).toBe('failed');
  });

  it('without team_id, every team that has the domain gets its own copy', async () => {
    await add('teams-all.com');
    await add('teams-all.com', OTHER);
    const res = await script('teams-all.com', { sequence: ['pending', 'failed'] });
    expect(res.body.data.map((s: { team_id: string }) => s.team_id).sort()).toEqual([teamOf(KEY), teamOf(OTHER)].sort());
    expect((await verify('teams-all.com')).status).toBe('pending');
    expect((await verify('teams-all.com', OTHER)).status).toBe('pending');
    expect((await verify('teams-all.com')).status).toBe('failed');
    expect((await verify('teams-all.com', OTHER)).status).toBe('failed');
    expect((await verify('teams-all.com')).status).toBe('success');
  });

  it('set before any team has the domain, it waits for the first team that checks it', async () => {
    const res = await script('early.com', { status: 'failed' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ domain: 'early.com', team_id: null, steps: [{ status: 'failed' }], created_at: expect.any(String) }]);
    await add('early.com');
    await add('early.com', OTHER);
    expect((await verify('early.com')).status).toBe('failed');
    expect((await verify('early.com', OTHER)).status).toBe('success');
    expect((await verify('early.com')).status).toBe('success');
  });

  it('a team_id script may be set before that team adds the domain', async () => {
    await script('early-team.com', { status: 'pending', team_id: teamOf(KEY) });
    await add('early-team.com');
    expect((await verify('early-team.com')).status).toBe('pending');
  });
});

describe('reading and clearing scripts', () => {
  it('GET lists the pending steps; DELETE clears them (404 when there is none)', async () => {
    await add('clear-me.com');
    await script('clear-me.com', { sequence: ['pending', 'failed'] });
    const listed = await server.api('/sandbox/domains/clear-me.com/verification');
    expect(listed.status).toBe(200);
    expect(listed.body.data[0].steps).toEqual([{ status: 'pending' }, { status: 'failed' }]);
    const cleared = await server.api('/sandbox/domains/clear-me.com/verification', { method: 'DELETE', headers: { 'Content-Type': 'application/json' } });
    expect(cleared.body).toEqual({ status: 200, message: expect.any(String), data: null });
    expect((await verify('clear-me.com')).status).toBe('success');
    const again = await server.api('/sandbox/domains/clear-me.com/verification', { method: 'DELETE', headers: { 'Content-Type': 'application/json' } });
    expect(again.status).toBe(404);
  });
});

describe('POST /sandbox/reset', () => {
  it('drops the scripts of the team it resets, and every script without a team', async () => {
    await add('reset-one.com');
    await add('reset-one.com', OTHER);
    await script('reset-one.com', { status: 'failed' });
    await script('reset-waiting.com', { status: 'failed' });
    const reset = await server.api('/sandbox/reset', { method: 'POST', json: { team_id: teamOf(KEY) } });
    expect(reset.status).toBe(200);
    expect((await server.api('/sandbox/domains/reset-one.com/verification')).body.data.map((s: { team_id: string }) => s.team_id)).toEqual([teamOf(OTHER)]);
    expect((await server.api('/sandbox/domains/reset-waiting.com/verification')).body.data).toHaveLength(1);
    await server.api('/sandbox/reset', { method: 'POST', json: {} });
    expect((await server.api('/sandbox/domains/reset-one.com/verification')).body.data).toEqual([]);
    expect((await server.api('/sandbox/domains/reset-waiting.com/verification')).body.data).toEqual([]);
  });
});

describe('script validation', () => {
  it.each([
    [{ status: 'verified' }, 'status', /status must be one of success, pending, failed, temporary_failure/],
    [{ status: 'not_started' }, 'status', /status must be one of/],
    [{ records: { dkim: 'temporary_failure' } }, 'records.dkim', /record status must be one of success, pending, failed/],
    [{ records: { spf: 'success', mx: 'success' } }, 'records.mx', /records takes only dkim, spf, bounce, dmarc/],
    [{ records: 'failed' }, 'records', /records must be an object/],
    [{ sequence: [] }, 'sequence', /must not be empty/],
    [{ sequence: 'pending' }, 'sequence', /must be an array/],
    [{ sequence: ['pending', 'maybe'] }, 'sequence.1.status', /status must be one of/],
    [{ sequence: Array(101).fill('pending') }, 'sequence', /at most 100/],
    [{ sequence: ['pending'], status: 'failed' }, 'sequence', /either a sequence or one status/],
    [{}, 'status', /give a status or records/],
    [{ team_id: 'team_x' }, 'status', /give a status or records/],
    [{ status: 'temporary_failure', records: { dkim: 'failed' } }, 'records', /takes no records/],
    [{ status: 'failed', error_type: 'NOPE' }, 'error_type', /error_type must be one of/],
    [{ status: 'failed', team_id: '' }, 'team_id', /must be a team id/],
    [{ status: 'failed', team_id: 'team x' }, 'team_id', /must be a team id/],
    [{ status: 'failed', colour: 'red' }, 'colour', /unknown field colour/],
  ])('answers 422 for %j', async (json, field, message) => {
    const res = await script('valid-name.com', json);
    expect(res.status).toBe(422);
    expect(res.body.status).toBe(422);
    expect(res.body.message).toMatch(message);
    expect(res.body.errors).toContainEqual({ field, message: expect.stringMatching(message) });
  });

  it('answers 422 for an invalid domain name, 415 for a body that is not JSON, 400 for JSON that is not an object', async () => {
    const bad = await script('-bad-.com', { status: 'failed' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'domain', message: expect.stringContaining('-bad-') }]);
    const text = await server.api('/sandbox/domains/x.com/verification', { method: 'PUT', body: 'status=failed', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(415);
    const array = await script('x.com', ['failed']);
    expect(array.status).toBe(400);
  });

  it('answers 405 for POST on the script path', async () => {
    const res = await server.api('/sandbox/domains/x.com/verification', { method: 'POST', json: { status: 'failed' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PUT, DELETE');
  });
});
