import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server.js';
import { parseDnsServer } from './real-dns.js';

/** CONTRACT §5 step 3, `--dns real`, against a DNS server this test runs on 127.0.0.1. */

let dns: TestDnsServer;
let server: TestServer;
const KEY = 'real-dns-test-key';

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startServer(['--dns', 'real', '--dns-server', dns.address, '--dns-timeout-ms', '150']);
});
afterAll(async () => {
  await server?.close();
  await dns?.close();
});
afterEach(() => {
  dns.mode = 'answer';
});

interface Identity {
  value: string;
  status: string;
  verified_at: string | null;
  attributes: {
    dkim_attributes: { name: string; value: string; status: string };
    mail_from_attributes: { name: string; value: string; status: string }[];
    dmarc_attributes: { name: string; value: string; status: string };
    verification_status: string;
    verified_for_sending_status: boolean;
    error_type: string;
  };
}

const add = async (value: string): Promise<Identity> => (await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value } })).body.data;
const verify = async (domain: string): Promise<Identity> => {
  const res = await server.api(`/v1/domains/verify?domain=${domain}`, { method: 'POST', key: KEY });
  expect(res.status).toBe(200);
  return res.body.data;
};
const records = (d: Identity) => ({ dkim: d.attributes.dkim_attributes.status, spf: d.attributes.mail_from_attributes[0].status, bounce: d.attributes.mail_from_attributes[1].status, dmarc: d.attributes.dmarc_attributes.status });

/** Publishes the records sendbox asked for, as a team would; `change` alters them. */
function publish(d: Identity, change: Partial<{ dkim: string | null; spf: string | null; bounce: string | null; dmarc: string | null }> = {}): void {
  const a = d.attributes;
  const set = (name: string, type: 'TXT' | 'CNAME', value: string | null | undefined, fallback: string) => {
    const v = value === undefined ? fallback : value;
    if (v === null) return;
    const entry = dns.zone.get(name) ?? {};
    if (type === 'TXT') entry.TXT = [...(entry.TXT ?? []), v];
    else entry.CNAME = v;
    dns.zone.set(name, entry);
  };
  set(a.dkim_attributes.name, 'TXT', change.dkim, a.dkim_attributes.value);
  set(a.mail_from_attributes[0].name, 'TXT', change.spf, a.mail_from_attributes[0].value);
  set(a.mail_from_attributes[1].name, 'CNAME', change.bounce, a.mail_from_attributes[1].value);
  set(`_dmarc.${d.value}`, 'TXT', change.dmarc, a.dmarc_attributes.value);
}

describe('--dns real', () => {
  it('matching records → success, looked up at the names sendbox gave', async () => {
    const d = await add('published.example');
    publish(d);
    dns.queries.length = 0;
    const v = await verify('published.example');
    expect(v.status).toBe('success');
    expect(records(v)).toEqual({ dkim: 'success', spf: 'success', bounce: 'success', dmarc: 'success' });
    expect(v.attributes.verified_for_sending_status).toBe(true);
    expect(v.attributes.error_type).toBe('');
    expect(v.verified_at).not.toBeNull();
    const asked = dns.queries.map((q) => `${q.type} ${q.name.toLowerCase()}`).sort();
    expect(asked).toEqual([
      `CNAME bounce.published.example`,
      `TXT ${d.attributes.dkim_attributes.name}`,
      `TXT _dmarc.published.example`,
      `TXT send.published.example`,
    ].sort());
  });

  it('accepts what real zones hold: a wrapped DKIM key, SPF with other mechanisms, a stricter DMARC, other TXT records beside', async () => {
    const d = await add('realistic.example');
    const key = d.attributes.dkim_attributes.value.split('p=')[1];
    publish(d, {
      dkim: `v=DKIM1; k=rsa;\tp=${key.slice(0, 100)} ${key.slice(100)}`,
      spf: 'v=spf1 include:_spf.google.com INCLUDE:spf.sendbox.local -all',
      dmarc: 'v=DMARC1; p=reject; rua=mailto:dmarc@realistic.example',
      bounce: 'FEEDBACK.sendbox.local.',
    });
    dns.zone.get('send.realistic.example')!.TXT!.unshift('google-site-verification=abc');
    const v = await verify('realistic.example');
    expect(records(v)).toEqual({ dkim: 'success', spf: 'success', bounce: 'success', dmarc: 'success' });
  });

  it('a record with a different value → failed with INVALID_VALUE, the others succeed', async () => {
    const d = await add('wrong-value.example');
    publish(d, { dkim: 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwrong' });
    const v = await verify('wrong-value.example');
    expect(v.status).toBe('failed');
    expect(records(v)).toEqual({ dkim: 'failed', spf: 'success', bounce: 'success', dmarc: 'success' });
    expect(v.attributes.error_type).toBe('INVALID_VALUE');
    expect(v.attributes.verified_for_sending_status).toBe(false);
  });

  it('an SPF policy without our include and a CNAME elsewhere are INVALID_VALUE', async () => {
    const d = await add('wrong-target.example');
    publish(d, { spf: 'v=spf1 include:spf.other.example ~all', bounce: 'bounces.other.example' });
    const v = await verify('wrong-target.example');
    expect(records(v)).toEqual({ dkim: 'success', spf: 'failed', bounce: 'failed', dmarc: 'success' });
    expect(v.attributes.error_type).toBe('INVALID_VALUE');
  });

  it('nothing published (NXDOMAIN) → every record failed with HOST_NOT_FOUND', async () => {
    await add('unpublished.example');
    const v = await verify('unpublished.example');
    expect(v.status).toBe('failed');
    expect(records(v)).toEqual({ dkim: 'failed', spf: 'failed', bounce: 'failed', dmarc: 'failed' });
    expect(v.attributes.error_type).toBe('HOST_NOT_FOUND');
  });

  it('a name that exists without the asked type (NODATA) → TYPE_NOT_FOUND', async () => {
    const d = await add('nodata.example');
    // bounce.<domain> published as TXT instead of CNAME.
    publish(d, { bounce: null });
    dns.zone.set('bounce.nodata.example', { TXT: ['feedback.sendbox.local'] });
    const v = await verify('nodata.example');
    expect(records(v)).toEqual({ dkim: 'success', spf: 'success', bounce: 'failed', dmarc: 'success' });
    expect(v.attributes.error_type).toBe('TYPE_NOT_FOUND');
  });

  it('the first failing record, in the order listed, names the error', async () => {
    const d = await add('mixed-errors.example');
    publish(d, { spf: 'v=spf1 -all', dmarc: null });
    const v = await verify('mixed-errors.example');
    expect(records(v)).toEqual({ dkim: 'success', spf: 'failed', bounce: 'success', dmarc: 'failed' });
    expect(v.attributes.error_type).toBe('INVALID_VALUE');
  });

  it('a resolver error (SERVFAIL) → temporary_failure; records and verified_for_sending keep their previous values', async () => {
    const d = await add('servfail.example');
    publish(d, { dmarc: 'v=spf1 nonsense' });
    const before = await verify('servfail.example');
    expect(records(before)).toEqual({ dkim: 'success', spf: 'success', bounce: 'success', dmarc: 'failed' });

    dns.mode = 'servfail';
    const v = await verify('servfail.example');
    expect(v.status).toBe('temporary_failure');
    expect(v.attributes.verification_status).toBe('temporary_failure');
    expect(v.attributes.error_type).toBe('DNS_SERVER_ERROR');
    expect(records(v)).toEqual(records(before));
    expect(v.attributes.verified_for_sending_status).toBe(false);
  });

  it('no answer at all (timeout) → temporary_failure; a verified domain stays verified_for_sending', async () => {
    const d = await add('silent.example');
    publish(d);
    const ok = await verify('silent.example');
    expect(ok.status).toBe('success');

    dns.mode = 'silent';
    const v = await verify('silent.example');
    expect(v.status).toBe('temporary_failure');
    expect(v.attributes.error_type).toBe('DNS_SERVER_ERROR');
    expect(records(v)).toEqual({ dkim: 'success', spf: 'success', bounce: 'success', dmarc: 'success' });
    expect(v.attributes.verified_for_sending_status).toBe(true);
    expect(v.verified_at).toBe(ok.verified_at);

    // When the server answers again, the check goes through.
    dns.mode = 'answer';
    expect((await verify('silent.example')).status).toBe('success');
  });

  it('a temporary_failure on a never-checked domain keeps DMARC ""', async () => {
    await add('first-check-fails.example');
    dns.mode = 'servfail';
    const v = await verify('first-check-fails.example');
    expect(records(v)).toEqual({ dkim: 'not_started', spf: 'not_started', bounce: 'not_started', dmarc: '' });
  });

  it('scripts and the magic .test names still come first', async () => {
    await add('scripted.example');
    await server.api('/sandbox/domains/scripted.example/verification', { method: 'PUT', json: { status: 'pending' } });
    expect((await verify('scripted.example')).status).toBe('pending');
    // Then real DNS again: nothing is published.
    expect((await verify('scripted.example')).attributes.error_type).toBe('HOST_NOT_FOUND');

    await add('tempfail.magic.test');
    dns.queries.length = 0;
    expect((await verify('tempfail.magic.test')).status).toBe('temporary_failure');
    expect(dns.queries).toEqual([]);
  });
});

describe('--dns-server', () => {
  it.each([
    ['127.0.0.1', { host: '127.0.0.1', port: 53 }],
    ['127.0.0.1:5353', { host: '127.0.0.1', port: 5353 }],
    ['dns.internal:53', { host: 'dns.internal', port: 53 }],
    ['[::1]:5353', { host: '::1', port: 5353 }],
    ['::1', { host: '::1', port: 53 }],
    ['127.0.0.1:0', null],
    ['127.0.0.1:70000', null],
    ['host:port', null],
    ['[nothost]:53', null],
    ['a b', null],
  ])('parses %j', (value, expected) => {
    expect(parseDnsServer(value)).toEqual(expected);
  });

  it('refuses a bad value at start with one clear line', async () => {
    await expect(startServer(['--dns', 'real', '--dns-server', 'host:port'])).rejects.toThrow(/--dns-server must be host\[:port\]/);
  });
});
