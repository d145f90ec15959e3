import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/** One message a real SMTP server received: its envelope, login and exact bytes. */
export interface Received {
  from: string;
  to: string[];
  user: string | null;
  secure: boolean;
  raw: Buffer;
}

/**
 * A real SMTP server on 127.0.0.1 for release tests: the relay sendbox sends to.
 * `next()` resolves with the next message (no polling); RCPT TO an address starting
 * with `reject` is refused with 550.
 */
export async function startReceiver(options: Partial<SMTPServerOptions> = {}): Promise<{ port: number; next(): Promise<Received>; count(): number; close(): Promise<void> }> {
  const queue: Received[] = [];
  const waiting: ((r: Received) => void)[] = [];
  let total = 0;
  const server = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, done) {
      if (auth.password === 'relay-pass') done(null, { user: auth.username });
      else done(Object.assign(new Error('5.7.8 bad credentials'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, done) {
      if (address.address.startsWith('reject')) return done(Object.assign(new Error('5.1.1 no such user here'), { responseCode: 550 }));
      done();
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        total++;
        const received: Received = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: (session.user as string | undefined) ?? null,
          secure: session.secure,
          raw: Buffer.concat(chunks),
        };
        const waiter = waiting.shift();
        if (waiter) waiter(received);
        else queue.push(received);
        done(null, '2.0.0 Ok: relayed');
      });
    },
    ...options,
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.server.address() as AddressInfo).port,
    next: () => new Promise((resolve) => {
      const ready = queue.shift();
      if (ready) resolve(ready);
      else waiting.push(resolve);
    }),
    count: () => total,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
