import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { TestServer } from '../../harness.js';
import { contractProblems, envelopeProblems, isSendPath } from '../lib/contract.js';
import type { httpClient } from '../lib/http.js';
import { caseArbitrary, type FuzzCase } from './cases.js';
import type { EndpointSpec, FuzzContext } from './spec.js';

/** Runs an endpoint's generated requests against a live server and tallies what came back. */

export interface EndpointReport {
  endpoint: string;
  /** Requests generated, and how many of them reached the server. */
  runs: number;
  sent: number;
  /** Requests node:http itself refused to build (invalid tokens): never sent. */
  refusedByClient: number;
  statuses: Record<string, number>;
  /** Input class (valid, bad-field, auth, host, ctype, malformed-json, method, …) → status → count. */
  kinds: Record<string, Record<string, number>>;
  problems: { problem: string; count: number; example: string }[];
  ms: number;
}

type Client = ReturnType<typeof httpClient>;

export const teamOf = (key: string) => `team_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

/** Seeds a server with what the generators pick from: emails of two teams, one with attachments, domains. */
export async function buildContext(server: TestServer, withDomains: boolean): Promise<FuzzContext> {
  const key = 'fuzz-key-0001';
  const otherKey = 'fuzz-key-other';
  const api = async (path: string, init: { method?: string; json?: unknown; key?: string } = {}) => {
    const res = await server.api(path, { method: init.method ?? (init.json === undefined ? 'GET' : 'POST'), key: init.key ?? (path.startsWith('/v1') ? key : undefined), json: init.json });
    return { status: res.status, body: res.body };
  };
  const sendEmail = async (fields: Record<string, unknown> = {}, as = key): Promise<string> => {
    const res = await api('/v1/send', { method: 'POST', key: as, json: { to: 'seed@fuzz.test', subject: 'seed', body: 'Your code is 123456 <a href="https://x.test/r">reset</a>', ...fields } });
    if (res.status !== 200) throw new Error(`seed send failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data[0].email_id;
  };
  const addDomain = async (name: string, as = key) => {
    const res = await api('/v1/domains', { method: 'POST', key: as, json: { value: name } });
    if (res.status !== 201) throw new Error(`seed domain ${name} failed: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const ownIds: string[] = [];
  for (let i = 0; i < 4; i++) ownIds.push(await sendEmail({ subject: `seed ${i}`, to: [`r${i}@fuzz.test`, 'other@x.test'] }));
  const attachmentEmailId = await sendEmail({
    subject: 'with files',
    attachments: [
      { filename: 'a.txt', content: Buffer.from('hello').toString('base64'), contentType: 'text/plain' },
      { filename: '<b>evil</b>.html', content: Buffer.from('<script>alert(1)</script>').toString('base64'), contentType: 'text/html' },
    ],
  });
  ownIds.push(attachmentEmailId);
  // A long run of one letter: what star-chain globs backtrack on.
  ownIds.push(await sendEmail({ subject: 'long address', to: `${'a'.repeat(64)}@${'a'.repeat(60)}.aa` }));
  const otherIds = [await sendEmail({ subject: 'other team' }, otherKey), await sendEmail({ subject: 'other team 2' }, otherKey)];
  const domains: string[] = [];
  if (withDomains) {
    // The .test names script their verification outcome (CONTRACT §5).
    for (const name of ['fuzz-one.example', 'pending.fuzz.test', 'failed.fuzz.test']) {
      await addDomain(name);
      domains.push(name);
    }
  }
  return { url: server.url, key, otherKey, teamId: teamOf(key), ownIds, otherIds, attachmentEmailId, domains, sendEmail: (f) => sendEmail(f), addDomain: (n, k) => addDomain(n, k), api };
}

const prototypeSnapshot = () => Object.getOwnPropertyNames(Object.prototype).sort().join(',');

function describeCase(c: FuzzCase): string {
  const headers = Object.entries(c.headers).map(([k, v]) => `${k}: ${v.length > 60 ? `${v.slice(0, 60)}…(${v.length})` : v}`).join(' | ');
  const body = c.body === undefined ? '' : ` body(${c.body.length}) ${JSON.stringify(c.body.slice(0, 300))}`;
  return `${c.method} ${c.path.length > 200 ? `${c.path.slice(0, 200)}…(${c.path.length})` : c.path} [${headers}]${body}`;
}

/** The answer's problems against the contract and the endpoint's own expectation. */
async function judge(c: FuzzCase, res: Awaited<ReturnType<Client['send']>>, ctx: FuzzContext): Promise<{ status?: number; problems: string[] }> {
  if (!res.ok) return { problems: [`no answer: ${res.code ?? ''} ${res.error}`] };
  const r = res.res;
  const problems = contractProblems(c.method, c.path, r);
  // Node refuses a request line and headers over 16 KiB before any route: 431.
  const headBytes = c.path.length + Object.entries(c.headers).reduce((n, [k, v]) => n + k.length + Buffer.byteLength(v) + 4, 0);
  const expect = headBytes > 16_384 ? [431] : headBytes > 15_800 && c.expect ? [...c.expect, 431] : c.expect;
  if (expect && !expect.includes(r.status)) {
    const message = (r.json as { message?: string } | undefined)?.message ?? r.text.slice(0, 120);
    problems.push(`expected ${expect.join('|')}, got ${r.status}: ${message}`);
  }
  const type = String(r.headers['content-type'] ?? '');
  if (r.status < 300 && c.method !== 'HEAD' && type.startsWith('application/json') && !isSendPath(c.path)) problems.push(...envelopeProblems(r));
  if (r.status < 300 && c.check) problems.push(...(await c.check(r, ctx)));
  return { status: r.status, problems };
}

export async function fuzzEndpoint(spec: EndpointSpec, ctx: FuzzContext, client: Client, options: { runs: number; seed: number; weights?: { valid: number; invalid: number; transport: number } }): Promise<EndpointReport> {
  const started = Date.now();
  const report: EndpointReport = { endpoint: spec.name, runs: 0, sent: 0, refusedByClient: 0, statuses: {}, kinds: {}, problems: [], ms: 0 };
  const problems = new Map<string, { count: number; example: string }>();
  const before = prototypeSnapshot();
  const note = (problem: string, c: FuzzCase) => {
    const key = `${c.kind.split(':')[0]}: ${problem.slice(0, 160)}`;
    const entry = problems.get(key);
    if (entry) entry.count++;
    else problems.set(key, { count: 1, example: describeCase(c) });
  };

  await fc.assert(
    fc.asyncProperty(caseArbitrary(spec, ctx, options.weights), async (c) => {
      report.runs++;
      if (spec.housekeeping && report.runs % 250 === 0) await spec.housekeeping(ctx);
      let request = c;
      if (c.prepare) {
        const prepared = await c.prepare(ctx);
        if (prepared && prepared.path) request = { ...c, path: prepared.path };
      }
      const res = await client.send({ method: request.method, path: request.path, headers: request.headers, body: request.body });
      if (!res.ok && res.code === 'CLIENT_REFUSED') {
        report.refusedByClient++;
        return;
      }
      report.sent++;
      const { status, problems: found } = await judge(request, res, ctx);
      const label = status === undefined ? 'no-answer' : String(status);
      report.statuses[label] = (report.statuses[label] ?? 0) + 1;
      const kind = request.kind.split(':')[0];
      (report.kinds[kind] ??= {})[label] = (report.kinds[kind][label] ?? 0) + 1;
      for (const p of found) note(p, request);
      // Nothing a client sends may reach Object.prototype (the server runs in this process).
      if (prototypeSnapshot() !== before || ({} as Record<string, unknown>).polluted !== undefined) note('Object.prototype was polluted', request);
    }),
    { numRuns: options.runs, seed: options.seed, endOnFailure: true },
  );
  report.problems = [...problems].map(([problem, v]) => ({ problem, ...v })).sort((a, b) => b.count - a.count);
  report.ms = Date.now() - started;
  return report;
}
