import type { SMTPServerAddress, SMTPServerAuthentication, SMTPServerAuthenticationResponse, SMTPServerDataStream, SMTPServerError, SMTPServerSession } from 'smtp-server';
import { addressDomain, parseAddress } from '../../../shared/address.js';
import type { Services } from '../context.js';
import type { Logger } from '../logger.js';
import { parseSmtpMessage, type SmtpPrincipal } from '../ingest/parse.js';
import type { SmtpRefusal, SmtpStage } from '../scenarios/scenarios.js';

/** CONTRACT §8: SMTP advertises and enforces `SIZE 26214400`. */
export const MAX_MESSAGE_BYTES = 26_214_400;
/** CONTRACT §3: at most 50 recipients in all, as for an API send. */
export const MAX_RECIPIENTS = 50;

/** Unauthenticated SMTP mail lands here (CONTRACT §7, §8). */
export const ANONYMOUS: SmtpPrincipal = { teamId: 'team_smtp', apiKeyId: 0 };

type Done = (error?: Error | null) => void;

/** What the handlers need from the listener: closing one client's connection. */
export interface ConnectionControl {
  /** Ends the session's connection without a reply (a rule's `disconnect`). */
  drop(session: SMTPServerSession): void;
  /** Answers 421 with a reason and ends the connection. */
  abort(session: SMTPServerSession, reason: string): void;
}

export function smtpError(code: number, message: string): SMTPServerError {
  const error: SMTPServerError = new Error(message);
  error.responseCode = code;
  return error;
}

const principalOf = (session: SMTPServerSession): SmtpPrincipal => (session.user as SmtpPrincipal | undefined) ?? ANONYMOUS;

/**
 * The session handlers: AUTH resolves the password as an API key; MAIL FROM, RCPT TO and
 * the end of DATA consult the scenario engine's SMTP-stage rules; DATA collects the
 * message into one Buffer and hands it to the one ingest pipeline.
 */
export function createHandlers(services: Services, logger: Logger, connections: ConnectionControl) {
  const { config, keys, scenarios, ingest, domains } = services;
  const defaultSender = parseAddress(config.defaultFrom)?.address.toLowerCase();

  /** Applies a rule's refusal after its delay: the error to answer, or null once the connection is dropped. */
  const refuse = async (refusal: SmtpRefusal, session: SMTPServerSession, stage: SmtpStage): Promise<Error | null> => {
    logger.debug(`rule refuses at ${stage}: ${refusal.disconnect ? 'disconnect' : `${refusal.code} ${refusal.message}`}`);
    if (refusal.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, refusal.delayMs).unref());
    if (!refusal.disconnect) return smtpError(refusal.code, refusal.message);
    connections.drop(session);
    return null;
  };
  // A dropped connection gets no reply at all.
  const answer = (done: Done) => (error: Error | null) => error && done(error);

  return {
    onAuth(auth: SMTPServerAuthentication, _session: SMTPServerSession, done: (error: Error | null | undefined, response?: SMTPServerAuthenticationResponse) => void) {
      // The password is an API key; the user name is free (clients insist on one).
      // CRAM-MD5 carries no password, only a digest of it: see KeyRegistry.resolveChallenge.
      const cram = (auth.method as string) === 'CRAM-MD5';
      const principal = cram
        ? keys.resolveChallenge(auth.username ?? '', (password) => auth.validatePassword(password))
        : auth.password ? keys.resolve(auth.password) : null;
      if (!principal) {
        const hint = cram && keys.mode === 'open' ? 'CRAM-MD5 in open mode needs the API key as both user name and password' : 'the password must be an API key';
        return done(smtpError(535, `5.7.8 Authentication failed: ${hint}`));
      }
      const user: SmtpPrincipal = { teamId: principal.teamId, apiKeyId: principal.apiKeyId };
      done(null, { user });
    },

    onMailFrom(address: SMTPServerAddress, session: SMTPServerSession, done: Done) {
      const refusal = scenarios.smtpRefusal('mail', { teamId: principalOf(session).teamId, from: address.address, recipients: [] });
      if (refusal) return void refuse(refusal, session, 'mail').then(answer(done));
      done();
    },

    onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, done: Done) {
      const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      const refusal = scenarios.smtpRefusal('rcpt', { teamId: principalOf(session).teamId, from, recipients: [address.address] });
      if (refusal) return void refuse(refusal, session, 'rcpt').then(answer(done));
      done();
    },

    onData(stream: SMTPServerDataStream, session: SMTPServerSession, done: (error?: Error | null, message?: string) => void) {
      const chunks: Buffer[] = [];
      let length = 0;
      // A client trickling bytes resets the idle timeout forever; the message as a whole
      // has a deadline too. Nothing is stored: the stream never ends.
      const deadline = setTimeout(() => connections.abort(session, `4.4.2 The message did not arrive within ${config.smtpDataTimeoutMs} ms, closing connection`), config.smtpDataTimeoutMs);
      deadline.unref();
      stream.on('data', (chunk: Buffer) => {
        length += chunk.length;
        // Past the limit the rest is only counted; smtp-server answers 552 (rejectOversized).
        if (length <= MAX_MESSAGE_BYTES) chunks.push(chunk);
      });
      // A client that disconnects mid-DATA destroys the stream: no 'end', nothing stored.
      stream.on('error', () => clearTimeout(deadline));
      stream.on('close', () => clearTimeout(deadline));
      stream.on('end', () => {
        clearTimeout(deadline);
        if (stream.sizeExceeded || length > MAX_MESSAGE_BYTES) return done(smtpError(552, `5.3.4 Message size exceeds the limit of ${MAX_MESSAGE_BYTES} bytes`));
        accept(Buffer.concat(chunks, length), session).then(
          (reply) => (reply === null ? undefined : done(null, reply)),
          (error: Error) => done(error),
        );
      });
    },
  };

  /** Resolves with the 250 text, or null when a rule dropped the connection; rejects with the refusal. */
  async function accept(raw: Buffer, session: SMTPServerSession): Promise<string | null> {
    const principal = principalOf(session);
    const envelope = {
      mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      rcptTo: session.envelope.rcptTo.map((r) => r.address),
    };
    let input;
    try {
      input = parseSmtpMessage(raw, envelope, principal, config.defaultFrom);
    } catch (error) {
      logger.error('could not read a message', error);
      throw smtpError(554, '5.6.0 The message could not be read');
    }

    const recipients = [...input.to, ...input.cc, ...input.bcc].map((a) => a.address);
    const refusal = scenarios.smtpRefusal('data', { teamId: principal.teamId, from: input.from.address, recipients, subject: input.subject, headers: input.headers });
    if (refusal) {
      const error = await refuse(refusal, session, 'data');
      if (error) throw error;
      return null;
    }

    // Strict sender mode applies to SMTP as to the API: the From must be at a verified domain.
    const isDefaultSender = input.from.address.toLowerCase() === defaultSender;
    const verifiedSender = isDefaultSender || domains.isVerifiedForSending(principal.teamId, addressDomain(input.from.address));
    if (config.strictSender && !verifiedSender) {
      throw smtpError(550, `5.7.1 Sender ${input.from.address} is not at a verified domain of this team`);
    }
    input.flags = verifiedSender ? {} : { unverified_sender: true };

    try {
      const result = await ingest.ingest(input);
      logger.debug(`${result.id} from ${input.from.address} to ${recipients.length} recipient(s), ${raw.length} bytes`);
      return `2.0.0 Ok: queued as ${result.id}`;
    } catch (error) {
      logger.error('could not store a message', error);
      throw smtpError(451, '4.3.0 The message could not be stored, try again later');
    }
  }
}
