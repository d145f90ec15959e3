import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { startServer, type TestServer } from '../harness.js';
import { httpClient } from './lib/http.js';
import { buildContext, fuzzEndpoint, type EndpointReport } from './fuzz/run.js';
import type { EndpointSpec, FuzzContext } from './fuzz/spec.js';
import { v1Endpoints } from './fuzz/v1.js';
import { sandboxEndpoints } from './fuzz/sandbox.js';
import { everydayEndpoints } from './fuzz/everyday.js';

/**
 * Property-based fuzzing of every /v1 and /sandbox endpoint against a real server:
 * valid requests, broken fields and broken transports. Never a 5xx, never a hang, every
 * error in the contract's JSON shape, every valid request answered as the contract says,
 * Object.prototype untouched, and the server still healthy after each endpoint.
 *
 * `npm test` runs a fast subset; `node scripts/fuzz.mjs --runs 10000` runs the long one
 * (FUZZ_RUNS, FUZZ_SEED, FUZZ_ONLY, FUZZ_GROUP, FUZZ_REPORT are how the script drives this file).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 20260101);
const ONLY = process.env.FUZZ_ONLY;
const REPORT = process.env.FUZZ_REPORT;
const LONG = RUNS > 500;
// Domain adds generate an RSA key each: in the fast subset they get fewer runs.
const EXPENSIVE = new Set(['POST /v1/domains', 'DELETE /v1/domains', 'POST /sandbox/domains', 'DELETE /sandbox/domains']);

const reports: EndpointReport[] = [];
const GROUP = process.env.FUZZ_GROUP;
const specs = [...v1Endpoints, ...sandboxEndpoints, ...everydayEndpoints].filter((s) => (!ONLY || ONLY.split(',').some((o) => s.name.includes(o))) && (!GROUP || s.group === GROUP));
const groups = [...new Set(specs.map((s) => s.group))];
if (specs.length === 0) it.skip('no endpoint matches FUZZ_ONLY and FUZZ_GROUP', () => {});

for (const group of groups) {
  describe(`fuzzing the ${group} endpoints`, () => {
    let server: TestServer;
    let ctx: FuzzContext;
    let client: ReturnType<typeof httpClient>;

    beforeAll(async () => {
      // --link-check: the fuzzer's valid link checks are of emails without links, so nothing is fetched.
      server = await startServer(['--link-check']);
      ctx = await buildContext(server, group === 'domains');
      client = httpClient(server.url);
    }, 120_000);

    afterAll(async () => {
      client?.close();
      await server?.close();
    });

    for (const spec of specs.filter((s) => s.group === group)) {
      it(`${spec.name}: no 5xx, contract-shaped errors, valid requests succeed`, async () => {
        const report = await run(spec, ctx, client, spec.name);
        reports.push(report);
        // Written after every endpoint: a long run that is cut short keeps what it measured.
        if (REPORT) writeFileSync(REPORT, JSON.stringify({ runs: RUNS, seed: SEED, reports }, null, 2));
        // Still serving after everything thrown at it.
        const health = await client.send({ method: 'GET', path: '/sandbox/health' });
        expect(health.ok && health.res.status, 'health after fuzzing').toBe(200);
        expect(report.sent, 'requests that reached the server').toBeGreaterThan(0);
        expect(report.problems, `${spec.name} (seed ${SEED})`).toEqual([]);
      }, LONG ? RUNS * 2_000 : 120_000);
    }
  });
}

function run(spec: EndpointSpec, ctx: FuzzContext, client: ReturnType<typeof httpClient>, name: string): Promise<EndpointReport> {
  const expensive = EXPENSIVE.has(name);
  const runs = expensive && !LONG ? Math.min(RUNS, 6) : RUNS;
  const weights = expensive && LONG ? { valid: 4, invalid: 52, transport: 44 } : undefined;
  return fuzzEndpoint(spec, ctx, client, { runs, seed: SEED, weights });
}
