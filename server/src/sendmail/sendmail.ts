import { parseArgs } from 'node:util';
import nodemailer from 'nodemailer';
import { isValidAddress } from '../../../shared/address.js';
import { parseAddressList } from '../ingest/parse.js';
import { readHeaderBlock } from '../ingest/mime.js';
import { MAX_MESSAGE_BYTES } from '../smtp/handlers.js';

/**
 * `sendbox sendmail`: a drop-in for the sendmail binary that apps and cron call (PHP's
 * `mail()` runs `sendmail -t -i`). It reads one message on standard input and submits it
 * over SMTP to a running sendbox, exiting with sendmail's codes (sysexits.h) so the
 * caller can tell a bad call from a sendbox that is down.
 */
export const EX = {
  OK: 0,
  /** Wrong arguments, or no recipients. */
  USAGE: 64,
  /** The message itself is unusable: empty, over the size limit, a bad header address. */
  DATAERR: 65,
  /** sendbox refused a recipient (5xx at RCPT TO). */
  NOUSER: 67,
  /** The --smtp-addr host name does not resolve. */
  NOHOST: 68,
  /** Nothing listens there, or sendbox refused the message for good (5xx). */
  UNAVAILABLE: 69,
  SOFTWARE: 70,
  /** Standard input could not be read. */
  IOERR: 74,
  /** Try again later: a 4xx reply, a timeout or a dropped connection. */
  TEMPFAIL: 75,
} as const;

export const DEFAULT_SMTP_ADDR = '127.0.0.1:1025';
const TIMEOUT_MS = 30_000;

export interface SendmailIo {
  stdin: AsyncIterable<Buffer | string>;
  stderr: { write(text: string): unknown };
  stdout: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

export const SENDMAIL_HELP = `Usage: sendbox sendmail [-t] [-i] [-f from] [--smtp-addr host:port] [recipient…] < message

Submits the message on standard input to a running sendbox over SMTP, like sendmail.
  -t                     also send to the To, Cc and Bcc of the message (Bcc is removed)
  -f, -r <address>       envelope sender (default: the From header's address)
  -i, -oi, -o<x>, -F <n>, -v, -bm   accepted for compatibility; no effect
  --smtp-addr <host:port>  where sendbox listens (default ${DEFAULT_SMTP_ADDR}), env SENDBOX_SMTP_ADDR
  --api-key <key>        AUTH with this API key (the mail lands in its team), env SENDBOX_API_KEY
Exit codes: 0 sent, 64 usage, 65 bad message, 67 recipient refused, 68 unknown host,
69 sendbox unavailable, 74 input error, 75 temporary failure (try again).
PHP: sendmail_path = "/path/to/sendbox sendmail -t -i"
`;

class Exit extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/** Runs the subcommand; resolves with the exit code (only the CLI calls process.exit). */
export async function runSendmail(argv: string[], io: SendmailIo): Promise<number> {
  try {
    const options = parseOptions(argv, io.env);
    if (options.help) {
      io.stdout.write(SENDMAIL_HELP);
      return EX.OK;
    }
    const raw = toCrlf(await readInput(io.stdin));
    if (raw.length === 0) throw new Exit(EX.DATAERR, 'no message on standard input');
    const { message, recipients: fromHeaders, sender } = inspect(raw, options.extract);
    const to = [...new Set([...options.recipients, ...fromHeaders].map((a) => a.toLowerCase()))];
    if (to.length === 0) throw new Exit(EX.USAGE, options.extract ? 'no recipients: none on the command line and no To, Cc or Bcc in the message' : 'no recipients given (name them, or use -t to read them from the message)');
    const from = options.from ?? sender ?? '';
    await submit(options.addr, options.apiKey, from, to, message);
    return EX.OK;
  } catch (error) {
    const exit = error instanceof Exit ? error : new Exit(EX.SOFTWARE, (error as Error).message);
    io.stderr.write(`sendbox sendmail: ${exit.message}\n`);
    return exit.code;
  }
}

interface Options {
  help: boolean;
  extract: boolean;
  from: string | undefined;
  recipients: string[];
  addr: { host: string; port: number };
  apiKey: string | undefined;
}

function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  // sendmail's flags are single letters with glued values (-ffrom, -oi, -odb): expand
  // what matters and drop the compatibility ones before parseArgs sees them.
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      args.push(...argv.slice(i));
      break;
    }
    if (/^-[fr].+/.test(arg)) args.push('-f', arg.slice(2));
    else if (arg === '-r') args.push('-f');
    else if (arg === '-F') i++;
    else if (/^-(?:bm|o.*|F.+)$/.test(arg)) continue;
    else if (/^-b./.test(arg)) throw new Exit(EX.USAGE, `${arg}: only sending a message (-bm) is supported`);
    else args.push(arg);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: { t: { type: 'boolean', short: 't' }, i: { type: 'boolean', short: 'i' }, v: { type: 'boolean', short: 'v' }, f: { type: 'string', short: 'f' }, 'smtp-addr': { type: 'string' }, 'api-key': { type: 'string' }, help: { type: 'boolean' } },
    });
  } catch (error) {
    throw new Exit(EX.USAGE, `${(error as Error).message} (sendbox sendmail --help lists the options)`);
  }
  const { values, positionals } = parsed;
  // A recipient argument may be a list itself ("a@x.com, b@y.com"), as sendmail allows.
  const recipients = positionals.flatMap((p) => {
    const list = parseAddressList(p).map((a) => a.address);
    if (list.length === 0 || !list.every(isValidAddress)) throw new Exit(EX.USAGE, `${p} is not an email address`);
    return list;
  });
  const from = values.f === undefined ? undefined : values.f === '' || values.f === '<>' ? '' : values.f;
  if (from && !isValidAddress(from)) throw new Exit(EX.USAGE, `-f ${from} is not an email address`);
  const addrText = values['smtp-addr'] ?? env.SENDBOX_SMTP_ADDR ?? DEFAULT_SMTP_ADDR;
  const addr = parseSmtpAddr(addrText);
  if (!addr) throw new Exit(EX.USAGE, `--smtp-addr must be host:port, got "${addrText}"`);
  const apiKey = values['api-key'] ?? (env.SENDBOX_API_KEY || undefined);
  return { help: Boolean(values.help), extract: Boolean(values.t), from, recipients, addr, apiKey };
}

/** `host:port`, `[v6]:port` or a bare host (port 1025). */
export function parseSmtpAddr(value: string): { host: string; port: number } | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+))(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return null;
  const port = match[3] === undefined ? 1025 : Number(match[3]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1] ?? match[2], port };
}

async function readInput(stdin: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stdin) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      length += buf.length;
      if (length > MAX_MESSAGE_BYTES) throw new Exit(EX.DATAERR, `the message is larger than sendbox's limit of ${MAX_MESSAGE_BYTES} bytes`);
      chunks.push(buf);
    }
  } catch (error) {
    if (error instanceof Exit) throw error;
    throw new Exit(EX.IOERR, `could not read standard input: ${(error as Error).message}`);
  }
  return Buffer.concat(chunks, length);
}

/** SMTP wants CRLF; PHP and shell scripts write LF. Bytes other than line ends stay as they are. */
function toCrlf(raw: Buffer): Buffer {
  return Buffer.from(raw.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
}

/**
 * With -t, the recipients of the To, Cc and Bcc fields, and the message without its Bcc
 * field (sendmail never shows blind copies to the other recipients). Always: the From
 * address, the default envelope sender.
 */
function inspect(raw: Buffer, extract: boolean): { message: Buffer; recipients: string[]; sender: string | undefined } {
  const { fields, bodyStart } = readHeaderBlock(raw, 0, raw.length);
  const sender = fields.filter((f) => f.name === 'from').flatMap((f) => parseAddressList(f.value))[0]?.address;
  if (!extract) return { message: raw, recipients: [], sender };
  const recipients = fields.filter((f) => ['to', 'cc', 'bcc'].includes(f.name)).flatMap((f) => parseAddressList(f.value).map((a) => a.address));
  const bad = recipients.find((a) => !isValidAddress(a));
  if (bad !== undefined) throw new Exit(EX.DATAERR, `the message names ${bad}, which is not an email address`);
  const head = raw.subarray(0, bodyStart).toString('latin1').replace(/^Bcc:[^\r\n]*(?:\r\n[ \t][^\r\n]*)*\r\n/gim, '');
  return { message: Buffer.concat([Buffer.from(head, 'latin1'), raw.subarray(bodyStart)]), recipients, sender };
}

async function submit(addr: { host: string; port: number }, apiKey: string | undefined, from: string, to: string[], raw: Buffer): Promise<void> {
  const transport = nodemailer.createTransport({
    host: addr.host,
    port: addr.port,
    secure: false,
    // sendbox's certificate is self-signed; the hop is to the local sandbox.
    tls: { rejectUnauthorized: false },
    auth: apiKey ? { user: 'sendmail', pass: apiKey } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ envelope: { from, to }, raw });
  } catch (error) {
    throw exitFor(error as SmtpFailure, addr);
  } finally {
    transport.close();
  }
}

interface SmtpFailure extends Error {
  code?: string;
  responseCode?: number;
  command?: string;
  response?: string;
  rejected?: string[];
}

/** sendmail's exit code for what went wrong, with the server's own words when it spoke. */
function exitFor(error: SmtpFailure, addr: { host: string; port: number }): Exit {
  const where = `${addr.host}:${addr.port}`;
  const reply = error.response ?? error.message;
  if (error.responseCode !== undefined) {
    if (error.responseCode >= 400 && error.responseCode < 500) return new Exit(EX.TEMPFAIL, `sendbox at ${where} answered ${reply} (try again later)`);
    if (error.responseCode === 552) return new Exit(EX.DATAERR, `sendbox at ${where} refused the message: ${reply}`);
    if (/^RCPT/i.test(error.command ?? '') || error.code === 'EENVELOPE') return new Exit(EX.NOUSER, `sendbox at ${where} refused a recipient: ${reply}`);
    return new Exit(EX.UNAVAILABLE, `sendbox at ${where} refused the message: ${reply}`);
  }
  const message = error.message;
  if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME/.test(message) || error.code === 'EDNS') return new Exit(EX.NOHOST, `cannot resolve ${addr.host} (--smtp-addr / SENDBOX_SMTP_ADDR)`);
  if (/ECONNREFUSED/.test(message)) return new Exit(EX.UNAVAILABLE, `nothing listens at ${where}: is sendbox running? (--smtp-addr / SENDBOX_SMTP_ADDR)`);
  return new Exit(EX.TEMPFAIL, `could not talk to sendbox at ${where}: ${message}`);
}
