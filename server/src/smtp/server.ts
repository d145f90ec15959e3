import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { Services } from '../context.js';
import { listenOn } from '../listen.js';
import { createHandlers, MAX_MESSAGE_BYTES, MAX_RECIPIENTS, type ConnectionControl } from './handlers.js';
import { installFastDataScan } from './fast-data.js';
import { loadTls } from './tls.js';

export interface SmtpHandle {
  port: number;
  /** The implicit-TLS port (`--smtps-port`), or null when it is off. */
  smtpsPort: number | null;
  close(): Promise<void>;
}

// Messages still arriving at shutdown get this long to finish (as HTTP streams do).
const CLOSE_GRACE_MS = 3_000;

/**
 * The SMTP listener (CONTRACT §7): any client, AUTH PLAIN/LOGIN/CRAM-MD5 on plain connections
 * with an API key as the password, optional STARTTLS, SIZE/SMTPUTF8/8BITMIME/PIPELINING,
 * and optionally a second, implicit-TLS port (`--smtps-port`) with the same handlers.
 * Every accepted message goes through the same ingest pipeline as an API send.
 */
export async function startSmtp(services: Services): Promise<SmtpHandle> {
  const { config } = services;
  const logger = services.logger.child('smtp');
  // --smtps-port needs a certificate even without --smtp-tls: the same one STARTTLS would use.
  const tls = await loadTls(config, logger, config.smtpsPort !== undefined);
  if (!installFastDataScan()) logger.debug('smtp-server changed its DATA scan; keeping its own (slower for large messages)');

  const servers: SMTPServer[] = [];
  const connectionOf = (session: SMTPServerSession) => servers.flatMap((s) => [...s.connections]).find((c) => c.session === session);
  const connections: ConnectionControl = {
    replyAndClose: (session, code, message) => {
      const connection = connectionOf(session);
      if (!connection) return;
      connection.send(code, message);
      // send() closes by itself after a 421.
      if (code !== 421) connection.close();
    },
    abort: (session, reason) => connectionOf(session)?.send(421, reason),
  };

  const handlers = createHandlers(services, logger, connections);
  /** One listener's server; the implicit-TLS one differs only in `secure`. */
  const build = (secure: boolean) => new SMTPServer({
    name: config.messageHost,
    banner: 'sendbox',
    logger: false,
    disableReverseLookup: true,
    size: MAX_MESSAGE_BYTES,
    // 552 for a message over the limit whatever onData says; MAIL FROM SIZE=… over it gets 552 too.
    rejectOversized: true,
    // RFC 5321 §4.5.3.1.10: 452 for too many recipients, so a client sends the rest later.
    maxRecipients: MAX_RECIPIENTS,
    maxClients: config.smtpMaxClients,
    socketTimeout: config.smtpTimeoutMs,
    closeTimeout: CLOSE_GRACE_MS,
    authMethods: ['PLAIN', 'LOGIN', 'CRAM-MD5'],
    authOptional: config.smtpAuth !== 'required',
    authRequiredMessage: '5.7.0 Authentication required: AUTH PLAIN, LOGIN or CRAM-MD5 with an API key as the password',
    // Local development: no TLS is needed to log in (CONTRACT §8).
    allowInsecureAuth: true,
    // STARTTLS is offered on the plain port only with --smtp-tls; an implicit-TLS session is already encrypted.
    disabledCommands: secure || (!config.smtpTls && config.smtpCert === undefined) ? ['STARTTLS'] : [],
    secure,
    ...(tls ?? {}),
    ...handlers,
  });
  const listen = async (secure: boolean, port: number, flag: string) => {
    const server = build(secure);
    // Client errors (resets, TLS failures) surface here; without a listener they would crash the process.
    server.on('error', (error: Error) => logger.debug(`connection error${secure ? ' (smtps)' : ''}: ${error.message}`));
    servers.push(server);
    return listenOn(server.server, config.host, port, flag);
  };

  const port = await listen(false, config.smtpPort, 'smtp-port');
  let smtpsPort: number | null = null;
  if (config.smtpsPort !== undefined) {
    try {
      smtpsPort = await listen(true, config.smtpsPort, 'smtps-port');
    } catch (error) {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
      throw error;
    }
  }
  return {
    port,
    smtpsPort,
    close: () => Promise.all(servers.map(closeServer)).then(() => undefined),
  };
}

function closeServer(server: SMTPServer): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    // Idle clients are told at once; one in the middle of a message gets the grace period.
    for (const connection of server.connections) {
      if (!connection.session.envelope.mailFrom) connection.send(421, '4.3.2 sendbox is shutting down');
    }
  });
}
