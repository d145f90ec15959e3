import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { RelayInfo, ReleaseResult } from '../../../shared/release.js';
import type { Config } from '../config.js';
import type { Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import type { Logger } from '../logger.js';
import type { EmailStore } from '../storage/emails.js';
import type { IdCodec } from '../storage/ids.js';
import type { GlobMatcher } from '../simulation/glob.js';
import { parseGlobList, parseRelayUrl, type RelayTarget } from './settings.js';

/** Why a release did not happen; only the HTTP layer turns it into a status code. */
export class ReleaseRefused extends Error {
  constructor(readonly reason: 'not-configured' | 'not-allowed' | 'relay-failed', message: string) {
    super(message);
  }
}

// Bounds on what sendbox sends out: a silent relay cannot hold a request for long, and
// auto-release cannot open more than two connections to it at a time.
const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;
const MAX_CONNECTIONS = 2;

export interface Relay {
  /** What the inbox shows: set up or not, where to, the globs (never the credentials). */
  readonly info: RelayInfo;
  /** Sends the stored raw message to `to` with Resent-* headers on top; throws ReleaseRefused. */
  release(emailId: number, to: string[]): Promise<ReleaseResult>;
  /** Starts auto-release (`--relay-auto`), if configured. */
  start(): void;
  stop(): void;
}

/**
 * Release to a real server (opt-in: nothing is sent without `--relay`, and nothing to a
 * recipient outside `--relay-allow`). The stored bytes go out unchanged, after a block of
 * RFC 5322 §3.6.6 Resent-* fields that says sendbox forwarded them, when and to whom.
 */
export function createRelay(deps: { config: Config; emails: EmailStore; ids: IdCodec; events: EventBus; clock: Clock; logger: Logger }): Relay {
  const { config, emails, ids, events, clock, logger } = deps;
  const target = config.relay === undefined ? null : parseRelayUrl(config.relay);
  const allow = globsOf(config.relayAllow);
  const auto = globsOf(config.relayAuto);
  let transport: Transporter<SMTPTransport.SentMessageInfo> | null = null;
  let unsubscribe: (() => void) | null = null;
  const releasedHere = (raw: Buffer | undefined) => releasedByUs(raw, config.messageHost);

  const allowed = (address: string) => allow.some((m) => m.test(address));

  const transportFor = (t: RelayTarget) => {
    transport ??= nodemailer.createTransport({
      host: t.host,
      port: t.port,
      secure: t.secure,
      auth: t.auth ?? undefined,
      requireTLS: config.relayTls === 'required',
      ignoreTLS: config.relayTls === 'off',
      tls: { rejectUnauthorized: !config.relayInsecure },
      name: config.messageHost,
      pool: true,
      maxConnections: MAX_CONNECTIONS,
      connectionTimeout: CONNECT_TIMEOUT_MS,
      greetingTimeout: CONNECT_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
    });
    return transport;
  };

  async function release(emailId: number, to: string[]): Promise<ReleaseResult> {
    if (!target) throw new ReleaseRefused('not-configured', 'Release needs a relay: start sendbox with --relay smtp://user:pass@host:port (SENDBOX_RELAY)');
    if (allow.length === 0) throw new ReleaseRefused('not-allowed', 'Release refuses every recipient until --relay-allow (SENDBOX_RELAY_ALLOW) lists the ones it may send to, e.g. *@example.com');
    const refused = to.find((address) => !allowed(address));
    if (refused) throw new ReleaseRefused('not-allowed', `${refused} is not allowed by --relay-allow (${config.relayAllow})`);
    const row = emails.get(emailId);
    const body = row && emails.body(emailId);
    if (!row || !body) throw new ReleaseRefused('relay-failed', 'The email was deleted before it could be released');

    const from = row.from_address || config.defaultFrom;
    const resentId = `${randomBytes(12).toString('hex')}@${config.messageHost}`;
    const head = resentHeaders({ date: new Date(clock.now()), from: config.defaultFrom, to, messageId: resentId });
    let info: SMTPTransport.SentMessageInfo;
    try {
      info = await transportFor(target).sendMail({ envelope: { from, to }, raw: Buffer.concat([head, body.raw]) });
    } catch (error) {
      const e = error as { response?: string; message: string };
      logger.warn(`release of ${ids.encode(emailId)} to ${to.length} recipient(s) failed: ${e.response ?? e.message}`);
      throw new ReleaseRefused('relay-failed', `The relay ${target.host}:${target.port} did not take the message: ${e.response ?? e.message}`);
    }
    const rejected = (info.rejected ?? []).map(String);
    if (rejected.length) throw new ReleaseRefused('relay-failed', `The relay refused ${rejected.join(', ')}: ${info.response}`);
    logger.info(`released ${ids.encode(emailId)} to ${to.join(', ')} via ${target.host}:${target.port}`);
    return { id: ids.encode(emailId), to, from, relay: `${target.host}:${target.port}`, response: info.response, resent_message_id: resentId };
  }

  return {
    info: {
      configured: target !== null,
      relay: target ? `${target.host}:${target.port}` : null,
      allow: patternsOf(config.relayAllow),
      auto: patternsOf(config.relayAuto),
    },
    release,
    start() {
      if (!target || auto.length === 0) return;
      // Only with --relay-auto: subscribing makes ingest announce every email (a little cost per send).
      unsubscribe = events.subscribe((event) => {
        if (event.type !== 'email.created') return;
        const emailId = ids.decode(event.data.id);
        if (emailId === null) return;
        // A relay that leads back here (its own SMTP port, or a sendbox that relays back)
        // would release the copy again, forever: a message this sendbox already released is not.
        if (releasedHere(emails.body(emailId)?.raw)) return logger.debug(`${event.data.id} was released by this sendbox already: not auto-released again`);
        const to = [...new Set(emails.recipients(emailId).map((r) => r.address))].filter((a) => auto.some((m) => m.test(a)) && allowed(a));
        if (to.length === 0) return;
        release(emailId, to).catch((error: Error) => logger.warn(`auto-release of ${event.data.id}: ${error.message}`));
      });
    },
    stop() {
      unsubscribe?.();
      transport?.close();
    },
  };
}

/** True when the message starts with the Resent-* block this sendbox writes. */
function releasedByUs(raw: Buffer | undefined, messageHost: string): boolean {
  if (!raw) return false;
  const head = raw.subarray(0, 4096).toString('latin1');
  const end = head.indexOf('\r\n\r\n');
  return new RegExp(`^Resent-Message-ID: <[0-9a-f]{24}@${messageHost.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}>\r?$`, 'im').test(end === -1 ? head : head.slice(0, end));
}

function patternsOf(value: string | undefined): string[] {
  if (value === undefined) return [];
  const parsed = parseGlobList(value);
  return 'patterns' in parsed ? parsed.patterns : [];
}

function globsOf(value: string | undefined): GlobMatcher[] {
  if (value === undefined) return [];
  const parsed = parseGlobList(value);
  return 'matchers' in parsed ? parsed.matchers : [];
}

/** The Resent-* block (RFC 5322 §3.6.6), CRLF-terminated, with Resent-To folded per address. */
export function resentHeaders(r: { date: Date; from: string; to: string[]; messageId: string }): Buffer {
  const date = r.date.toUTCString().replace(/GMT$/, '+0000');
  return Buffer.from([
    `Resent-Date: ${date}`,
    `Resent-From: ${r.from}`,
    `Resent-To: ${r.to.join(',\r\n ')}`,
    `Resent-Message-ID: <${r.messageId}>`,
    '',
  ].join('\r\n'), 'utf8');
}
