import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types; npm test also runs it on its own.
import { importGraph, layeringProblems } from '../../scripts/check-layers.mjs';

type Graph = Map<string, string[]>;
const check = layeringProblems as (graph: Graph) => string[];

describe('the layering of server/src (ARCHITECTURE.md)', () => {
  it('holds: HTTP errors only in http/ and smtp/, storage/ imports no domain or transport module, no cycles', () => {
    expect(check((importGraph as () => Graph)())).toEqual([]);
  });

  it('names a domain module that imports HTTP errors, a storage module that imports a domain module, and a cycle', () => {
    const graph: Graph = new Map([
      ['server/src/domains/service.ts', ['server/src/http/errors.ts']],
      ['server/src/http/errors.ts', []],
      ['server/src/storage/emails.ts', ['server/src/simulation/outcomes.ts']],
      ['server/src/simulation/outcomes.ts', []],
      ['server/src/sendbox.ts', ['server/src/smtp/server.ts']],
      ['server/src/smtp/server.ts', ['server/src/smtp/tls.ts']],
      ['server/src/smtp/tls.ts', ['server/src/sendbox.ts']],
    ]);
    const problems = check(graph);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^server\/src\/domains\/service\.ts imports HTTP errors/);
    expect(problems[1]).toMatch(/^server\/src\/storage\/emails\.ts imports server\/src\/simulation\/outcomes\.ts/);
    expect(problems[2]).toMatch(/^import cycle: .*sendbox\.ts.*smtp\/server\.ts.*smtp\/tls\.ts/);
  });
});
