import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { Services } from '../context.js';
import { listenOn } from '../listen.js';
import { createHandlers, MAX_MESSAGE_BYTES, MAX_RECIPIENTS, type ConnectionControl } from './handlers.js';
import { installFastDataScan } from './fast-data.js';
import { loadTls } from './tls.js';

export interface SmtpHandle {
  port: number;
  close(): Promise<void>;
}

// Messages still arriving at shutdown get this long to finish (as HTTP streams do).
const CLOSE_GRACE_MS = 3_000;

/**
 * The SMTP listener (CONTRACT §7): any client, AUTH PLAIN/LOGIN on plain connections
 * with an API key as the password, optional STARTTLS, SIZE/SMTPUTF8/8BITMIME/PIPELINING.
 * Every accepted message goes through the same ingest pipeline as an API send.
 */
export async function startSmtp(services: Services): Promise<SmtpHandle> {
  const { config } = services;
  const logger = services.logger.child('smtp');
  const tls = await loadTls(config, logger);
  if (!installFastDataScan()) logger.debug('smtp-server changed its DATA scan; keeping its own (slower for large messages)');

  const connectionOf = (session: SMTPServerSession) => [...server.connections].find((c) => c.session === session);
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

  const server: SMTPServer = new SMTPServer({
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
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: config.smtpAuth !== 'required',
    authRequiredMessage: '5.7.0 Authentication required: AUTH PLAIN or LOGIN with an API key as the password',
    // Local development: no TLS is needed to log in (CONTRACT §8).
    allowInsecureAuth: true,
    disabledCommands: tls ? [] : ['STARTTLS'],
    ...(tls ?? {}),
    ...createHandlers(services, logger, connections),
  });
  // Client errors (resets, TLS failures) surface here; without a listener they would crash the process.
  server.on('error', (error: Error) => logger.debug(`connection error: ${error.message}`));

  const port = await listenOn(server.server, config.host, config.smtpPort, 'smtp-port');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle clients are told at once; one in the middle of a message gets the grace period.
        for (const connection of server.connections) {
          if (!connection.session.envelope.mailFrom) connection.send(421, '4.3.2 sendbox is shutting down');
        }
      }),
  };
}
