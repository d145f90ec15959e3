/**
 * Case-insensitive globs for rule matching and wait's `to`: `*` is any run of characters,
 * `?` exactly one. Bracket and brace syntax is refused rather than silently taken literally.
 */

const MAX_GLOB = 320;

/** A plain-language reason the pattern is not a usable glob, or null when it is fine. */
export function globProblem(pattern: string): string | null {
  if (pattern.length === 0) return 'must not be empty';
  if (pattern.length > MAX_GLOB) return `must be at most ${MAX_GLOB} characters`;
  if (/[\s\x00-\x1f\x7f]/.test(pattern)) return 'must not contain spaces or control characters';
  if (/[[\]{}]/.test(pattern)) return 'only * and ? are supported as wildcards ([ ] { } are not)';
  return null;
}

/** Compiles a glob (validate with `globProblem` first) to an anchored, case-insensitive RegExp. */
export function compileGlob(pattern: string): RegExp {
  const source = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^$()|\\/]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, 'is');
}

/** The longest run without wildcards: a cheap substring prefilter for storage queries. */
export function longestLiteral(pattern: string): string {
  return pattern.split(/[*?]+/).reduce((best, part) => (part.length > best.length ? part : best), '');
}
