import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { eventually, type TestServer } from '../harness.js';

/**
 * Test helpers that speak SMTP from outside: a raw socket client for reply-code tables
 * and bad input, the Python smtplib client, and waits on what /v1 shows.
 */
export interface Reply {
  code: number;
  lines: string[];
  /** The text of every line, joined with newlines. */
  text: string;
}

/** A plain SMTP client over a socket: write lines, read whole (multi-line) replies. */
export class RawSmtp {
  private buffer = '';
  private readonly replies: Reply[] = [];
  private readonly waiting: ((reply: Reply | null) => void)[] = [];
  private pendingLines: string[] = [];
  private ended = false;
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (data) => this.onData(data.toString('latin1')));
    socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.ended = true;
        for (const waiter of this.waiting.splice(0)) waiter(null);
        resolve();
      }),
    );
  }

  /** Connects and reads the greeting. */
  static async open(port: number): Promise<{ client: RawSmtp; greeting: Reply }> {
    const socket = connect(port, '127.0.0.1');
    const client = new RawSmtp(socket);
    const greeting = await client.reply();
    return { client, greeting };
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\r\n')) !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 2);
      this.pendingLines.push(line);
      if (line[3] === '-') continue;
      const lines = this.pendingLines;
      this.pendingLines = [];
      const reply: Reply = { code: Number(line.slice(0, 3)), lines, text: lines.map((l) => l.slice(4)).join('\n') };
      const waiter = this.waiting.shift();
      if (waiter) waiter(reply);
      else this.replies.push(reply);
    }
  }

  /** The next reply; rejects if the server closes the connection first. */
  async reply(): Promise<Reply> {
    const queued = this.replies.shift();
    if (queued) return queued;
    if (this.ended) throw new Error('connection closed');
    const reply = await new Promise<Reply | null>((resolve) => this.waiting.push(resolve));
    if (!reply) throw new Error('connection closed');
    return reply;
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** Writes and resolves once the bytes are handed to the operating system. */
  flush(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(data, (error) => (error ? reject(error) : resolve())));
  }

  /** Sends one command line and reads its reply. */
  async command(line: string): Promise<Reply> {
    this.write(line + '\r\n');
    return this.reply();
  }

  /** A whole transaction with a raw message (dot-stuffed here); resolves with the DATA reply. */
  async sendRaw(from: string, to: string[], message: Buffer | string): Promise<Reply> {
    expectCode(await this.command(`MAIL FROM:<${from}>`), 250);
    for (const rcpt of to) expectCode(await this.command(`RCPT TO:<${rcpt}>`), 250);
    expectCode(await this.command('DATA'), 354);
    this.write(dataBlock(message));
    return this.reply();
  }

  async quit(): Promise<void> {
    if (!this.ended) this.write('QUIT\r\n');
    await this.closed;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** The DATA payload of a message: dot-stuffed, ending in CRLF.CRLF. */
export function dataBlock(message: Buffer | string): Buffer {
  const bytes = Buffer.isBuffer(message) ? message : Buffer.from(message, 'utf8');
  const stuffed = Buffer.from(bytes.toString('latin1').replace(/(^|\n)\./g, '$1..'), 'latin1');
  // Only CRLF.CRLF ends DATA (a bare LF before the dot does not).
  const tail = stuffed.subarray(-2).toString('latin1') === '\r\n' ? '.\r\n' : '\r\n.\r\n';
  return Buffer.concat([stuffed, Buffer.from(tail)]);
}

function expectCode(reply: Reply, code: number): void {
  if (reply.code !== code) throw new Error(`expected ${code}, got ${reply.lines.join(' | ')}`);
}

/** The id in `250 2.0.0 Ok: queued as <id>`. */
export function queuedId(reply: Reply | string): string {
  const text = typeof reply === 'string' ? reply : reply.text;
  const match = /queued as ([0-9a-f]+)/.exec(text);
  if (!match) throw new Error(`no queued id in "${text}"`);
  return match[1];
}

export interface NodemailerSend {
  info: SMTPTransport.SentMessageInfo;
  /** The bytes the server receives: nodemailer's message with CRLF line ends, ending in CRLF. */
  size: number;
  /** The Message-ID nodemailer wrote, without brackets. */
  messageId: string;
}

/**
 * nodemailer composes the message (its own MIME builder), then its SMTP transport
 * delivers exactly those bytes, so the test knows the size the server must record.
 */
export async function sendWithNodemailer(port: number, mail: Mail.Options, options: SMTPTransport.Options = {}): Promise<NodemailerSend> {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const built = await composer.sendMail(mail);
  const message = built.message as Buffer;
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, tls: { rejectUnauthorized: false }, ...options });
  try {
    const info = await transport.sendMail({ envelope: built.envelope, raw: message });
    const size = message.length + (message.subarray(-2).toString() === '\r\n' ? 0 : 2);
    return { info, size, messageId: built.messageId.replace(/^<|>$/g, '') };
  } finally {
    transport.close();
  }
}

const here = dirname(fileURLToPath(import.meta.url));

export interface PythonJob {
  port: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  user?: string;
  password?: string;
  starttls?: boolean;
  /** Connect with TLS from the first byte (SMTP_SSL), for the --smtps-port. */
  implicit_tls?: boolean;
  /** Authenticate with CRAM-MD5 only (smtplib's login() would fall back to PLAIN). */
  auth_method?: 'CRAM-MD5';
  cafile?: string;
  envelope_to?: string[];
}

export interface PythonResult {
  message_id: string;
  features: string[];
  features_after_tls?: string[];
  starttls?: number;
  cipher?: string;
  auth?: [number, string];
  mail?: [number, string];
  data?: [number, string];
}

/** Runs the Python smtplib client (server/test/smtp/send.py) with one job. */
export function sendWithPython(job: PythonJob): Promise<PythonResult> {
  return new Promise((resolve, reject) => {
    const child = execFile('python3', [join(here, 'send.py')], { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`send.py failed: ${error.message}\n${stderr}`));
      try {
        resolve(JSON.parse(stdout) as PythonResult);
      } catch {
        reject(new Error(`send.py printed no JSON: ${stdout}\n${stderr}`));
      }
    });
    child.stdin!.end(JSON.stringify(job));
  });
}

/** The full record (with logs) of a team's email, once /v1 shows it delivered. */
export async function deliveredEmail(server: TestServer, key: string, id: string): Promise<any> {
  return eventually(async () => {
    const res = await server.api(`/v1/emails/${id}`, { key });
    return res.status === 200 && res.body.data.status === 'delivered' ? res.body.data : undefined;
  }, 10_000, `email ${id} delivered`);
}

/** The list entry of a team's email with this subject, once /v1 lists it. */
export async function listedEmail(server: TestServer, key: string, subject: string): Promise<any> {
  return eventually(async () => {
    const res = await server.api(`/v1/emails?limit=100&search=${encodeURIComponent(subject)}`, { key });
    return res.status === 200 ? res.body.data.data.find((e: { subject: string }) => e.subject === subject) : undefined;
  }, 10_000, `an email "${subject}"`);
}
