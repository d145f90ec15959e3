import { describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/openapi.js';
import { v1Endpoints } from './fuzz/v1.js';
import { sandboxEndpoints } from './fuzz/sandbox.js';
import { everydayEndpoints } from './fuzz/everyday.js';

/**
 * Every route the OpenAPI document publishes is fuzzed: a new route without a fuzz spec
 * fails here. Spec names read `GET|DELETE /sandbox/rules/{id}`, with `{a,b}` alternatives
 * (`/sandbox/delivery{,/pause,/resume}`) and sometimes a query (`GET /sandbox/emails?q=`).
 */
const placeholder = (path: string) => path.replace(/\{[a-z_]+\}/g, '{}');

function covered(): Set<string> {
  const routes = new Set<string>();
  for (const { name } of [...v1Endpoints, ...sandboxEndpoints, ...everydayEndpoints]) {
    const [methods, rawPath] = name.split(' ');
    const path = rawPath.split('?')[0];
    const alternatives = /\{([^}]*,[^}]*)\}/.exec(path);
    const paths = alternatives ? alternatives[1].split(',').map((alt) => path.replace(alternatives[0], alt)) : [path];
    for (const method of methods.split('|')) for (const p of paths) routes.add(`${method} ${placeholder(p)}`);
  }
  return routes;
}

describe('the fuzz harness', () => {
  it('covers every route of the OpenAPI document, the lab, tag, bulk, release, metrics and docs routes included', () => {
    const fuzzed = covered();
    const paths = openapiDocument().paths as Record<string, Record<string, unknown>>;
    const published = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${placeholder(path)}`));
    expect(published.length).toBeGreaterThan(40);
    expect(published.filter((route) => !fuzzed.has(route))).toEqual([]);
  });
});
