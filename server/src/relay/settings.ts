import { compileGlob, globProblem, type GlobMatcher } from '../simulation/glob.js';

/** Where a release goes: the parsed `--relay` URL. */
export interface RelayTarget {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte (RFC 8314); smtp:// may upgrade with STARTTLS. */
  secure: boolean;
  auth: { user: string; pass: string } | null;
}

/** `smtp://user:pass@host:port` or `smtps://…`; the port defaults to 587 or 465. Null when unusable. */
export function parseRelayUrl(value: string): RelayTarget | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return null;
  if (!url.hostname || (url.pathname !== '' && url.pathname !== '/') || url.search || url.hash) return null;
  const secure = url.protocol === 'smtps:';
  const user = decodeURIComponent(url.username);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port: url.port ? Number(url.port) : secure ? 465 : 587, secure, auth: user ? { user, pass: decodeURIComponent(url.password) } : null };
}

/** A comma list of recipient globs (`--relay-allow`, `--relay-auto`); null when any is unusable. */
export function parseGlobList(value: string): { patterns: string[]; matchers: GlobMatcher[] } | { problem: string } {
  const patterns = value.split(',').map((p) => p.trim()).filter(Boolean);
  if (patterns.length === 0) return { problem: 'lists no pattern' };
  for (const pattern of patterns) {
    const problem = globProblem(pattern);
    if (problem) return { problem: `"${pattern}" ${problem}` };
  }
  return { patterns, matchers: patterns.map(compileGlob) };
}

/** The plain-language problem with the relay settings, or null (config.ts turns it into a ConfigError). */
export function relaySettingsProblem(config: { relay?: string; relayAllow?: string; relayAuto?: string; relayTls: string }): string | null {
  // Never echo the URL: it may hold the relay's password.
  if (config.relay !== undefined && !parseRelayUrl(config.relay)) return '--relay must be smtp://[user:pass@]host[:port] or smtps://…';
  if (!['auto', 'required', 'off'].includes(config.relayTls)) return `--relay-tls must be auto, required or off, got "${config.relayTls}"`;
  for (const [flag, value] of [['relay-allow', config.relayAllow], ['relay-auto', config.relayAuto]] as const) {
    if (value === undefined) continue;
    const parsed = parseGlobList(value);
    if ('problem' in parsed) return `--${flag}: ${parsed.problem}`;
  }
  if (config.relayAuto !== undefined && (config.relay === undefined || config.relayAllow === undefined)) return '--relay-auto needs --relay and --relay-allow';
  return null;
}
