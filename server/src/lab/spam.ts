import { connect } from 'node:net';
import type { SpamResult, SpamRule } from '../../../shared/lab.js';
import { describeFetchError } from './fetch-error.js';

/**
 * Spam scores from a real filter: SpamAssassin's spamd (the SPAMC/SPAMD protocol over
 * TCP, `REPORT` command) or rspamd's HTTP API (`POST /checkv2`). Nothing here decides
 * what is spam: the filter does, with the rules it ships.
 */

export interface SpamBackend {
  kind: 'spamassassin' | 'rspamd';
  server: string;
  check(raw: Buffer, signal: AbortSignal): Promise<FilterAnswer>;
}

export type FilterAnswer = Omit<Extract<SpamResult, { configured: true }>, 'checked_at' | 'cached'>;

export const NOT_CONFIGURED: SpamResult = {
  configured: false,
  message: 'No spam filter is configured: start sendbox with --spamassassin host:port (a running spamd) or --rspamd URL to score emails.',
};

/** spamc's own default: messages over 500 KB are not scanned (and would only be slow). */
export const MAX_SCAN_BYTES = 512 * 1024;

/** `host:port` of `--spamassassin` (port 783 when omitted); null when malformed. */
export function parseHostPort(value: string, defaultPort: number): { host: string; port: number } | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]+))(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return null;
  const port = match[3] ? Number(match[3]) : defaultPort;
  if (port < 1 || port > 65535) return null;
  return { host: match[1] ?? match[2], port };
}

export class FilterError extends Error {}

/** The SPAMD protocol (spamd(1), "PROTOCOL"): one request per connection; the report ends the answer. */
export function spamassassin(host: string, port: number): SpamBackend {
  const server = `${host}:${port}`;
  return {
    kind: 'spamassassin',
    server,
    check: (raw, signal) =>
      new Promise<FilterAnswer>((resolve, reject) => {
        const socket = connect({ host, port });
        const chunks: Buffer[] = [];
        const fail = (message: string) => {
          socket.destroy();
          reject(new FilterError(message));
        };
        const onAbort = () => fail(`SpamAssassin at ${server} did not answer in time`);
        signal.addEventListener('abort', onAbort, { once: true });
        socket.on('connect', () => {
          socket.write(`REPORT SPAMC/1.5\r\nContent-length: ${raw.length}\r\nUser: sendbox\r\n\r\n`);
          socket.end(raw);
        });
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', (error: NodeJS.ErrnoException) => fail(`SpamAssassin at ${server} could not be reached (${error.code ?? error.message})`));
        socket.on('close', () => {
          signal.removeEventListener('abort', onAbort);
          try {
            resolve({ configured: true, backend: 'spamassassin', server, action: null, ...parseSpamdReply(Buffer.concat(chunks).toString('utf8')) });
          } catch (error) {
            reject(error);
          }
        });
      }),
  };
}

/**
 * `SPAMD/1.1 0 EX_OK`, headers (`Spam: True ; 1003.3 / 5.0`), a blank line, then the
 * report, whose table lists each rule hit: points, name, description (wrapped lines
 * continue indented).
 */
export function parseSpamdReply(reply: string): { score: number; threshold: number; verdict: 'spam' | 'not-spam'; rules: SpamRule[] } {
  const [head, ...rest] = reply.split(/\r?\n\r?\n/);
  const status = /^SPAMD\/[\d.]+ (\d+) (.*)$/m.exec(head);
  if (!status) throw new FilterError('SpamAssassin answered something that is not the SPAMD protocol');
  if (status[1] !== '0') throw new FilterError(`SpamAssassin refused the message: ${status[2].trim()}`);
  const spam = /^Spam: (True|False|Yes|No) ; (-?[\d.]+) \/ (-?[\d.]+)/im.exec(head);
  if (!spam) throw new FilterError('SpamAssassin\'s answer has no score');
  const rules: SpamRule[] = [];
  let inTable = false;
  for (const line of rest.join('\n\n').split(/\r?\n/)) {
    if (/^-{3,} -{3,}/.test(line)) {
      inTable = true;
      continue;
    }
    if (!inTable) continue;
    const hit = /^\s*(-?\d+(?:\.\d+)?)\s+([A-Z0-9_]+)\s+(.*)$/.exec(line);
    if (hit) rules.push({ name: hit[2], score: Number(hit[1]), description: hit[3].trim() });
    else if (/^\s{20,}\S/.test(line) && rules.length) rules[rules.length - 1].description += ` ${line.trim()}`;
    else if (line.trim() === '') inTable = false;
  }
  rules.sort((a, b) => b.score - a.score);
  const score = Number(spam[2]);
  const threshold = Number(spam[3]);
  return { score, threshold, verdict: /true|yes/i.test(spam[1]) ? 'spam' : 'not-spam', rules };
}

interface RspamdSymbol {
  name?: string;
  score?: number;
  description?: string;
  options?: string[];
}

/** rspamd's HTTP protocol: the raw message as the body of `POST /checkv2`, JSON back. */
export function rspamd(url: string): SpamBackend {
  const endpoint = new URL('checkv2', url.endsWith('/') ? url : `${url}/`).toString();
  return {
    kind: 'rspamd',
    server: url,
    async check(raw, signal) {
      let response: Response;
      try {
        response = await fetch(endpoint, { method: 'POST', body: new Uint8Array(raw), signal, redirect: 'error' });
      } catch (error) {
        throw new FilterError(signal.aborted ? `rspamd at ${url} did not answer in time` : `rspamd at ${url} could not be reached (${describeFetchError(error)})`);
      }
      if (!response.ok) throw new FilterError(`rspamd at ${url} answered ${response.status}`);
      const body = (await response.json()) as { score?: number; required_score?: number; action?: string; symbols?: Record<string, RspamdSymbol> };
      if (typeof body.score !== 'number') throw new FilterError(`rspamd at ${url} answered without a score`);
      const rules = Object.entries(body.symbols ?? {})
        .map(([name, s]) => ({ name: s.name ?? name, score: s.score ?? 0, description: [s.description, s.options?.length ? `(${s.options.join(', ')})` : ''].filter(Boolean).join(' ') }))
        .sort((a, b) => b.score - a.score);
      const threshold = body.required_score ?? 15;
      return { configured: true, backend: 'rspamd', server: url, score: body.score, threshold, verdict: body.score >= threshold || body.action === 'reject' ? 'spam' : 'not-spam', action: body.action ?? null, rules };
    },
  };
}

