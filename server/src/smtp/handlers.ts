import type { SMTPServerAddress, SMTPServerAuthentication, SMTPServerAuthenticationResponse, SMTPServerDataStream, SMTPServerError, SMTPServerSession } from 'smtp-server';
import type { Services } from '../context.js';
import type { Logger } from '../logger.js';
import { parseSmtpMessage, type SmtpPrincipal } from '../ingest/parse.js';
import type { SmtpStage } from '../simulation/scenarios.js';
import { DomainError, Refused, type Refusal } from '../errors.js';

/** CONTRACT §8: SMTP advertises and enforces `SIZE 26214400`. */
export const MAX_MESSAGE_BYTES = 26_214_400;
/** CONTRACT §3: at most 50 recipients in all, as for an API send. */
export const MAX_RECIPIENTS = 50;

/** Unauthenticated SMTP mail lands here (CONTRACT §7, §8). */
export const ANONYMOUS: SmtpPrincipal = { teamId: 'team_smtp', apiKeyId: 0 };

type Done = (error?: Error | null) => void;

/** What the handlers need from the listener: closing one client's connection. */
export interface ConnectionControl {
  /** Writes a reply, then ends the session's connection (a rule's `disconnect`, as a real server does). */
  replyAndClose(session: SMTPServerSession, code: number, message: string): void;
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
 * message into one Buffer and hands it to `submit`, the same door as an API send. A
 * refusal (a domain value) becomes a reply here, after its delay, closing the connection
 * when the rule says `disconnect`.
 */
export function createHandlers(services: Services, logger: Logger, connections: ConnectionControl) {
  const { config, keys, scenarios, submit } = services;

  /**
   * A refusal as a reply, after its delay (`delay_ms` comes before the answer): the error
   * to answer with, or null when the reply was written here and the connection closed.
   */
  const refuse = async (refusal: Refusal, session: SMTPServerSession): Promise<Error | null> => {
    // Strict sender mode has no code of its own: 550 5.7.1, as a server refusing a sender would say.
    const code = refusal.code ?? 550;
    const message = refusal.code === null ? `5.7.1 ${refusal.message}` : refusal.message;
    logger.debug(`refused at ${refusal.stage}: ${code} ${message}${refusal.disconnect ? ', closing' : ''}`);
    if (refusal.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, refusal.delayMs).unref());
    if (!refusal.disconnect) return smtpError(code, message);
    connections.replyAndClose(session, code, message);
    return null;
  };
  const stageRefusal = (stage: SmtpStage, teamId: string, from: string, recipients: string[]): Refusal | null => {
    const smtp = scenarios.smtpRefusal(stage, { teamId, from, recipients });
    return smtp && { stage, reason: 'rule', code: smtp.code, message: smtp.message, retryAfter: null, delayMs: smtp.delayMs, disconnect: smtp.disconnect };
  };
  // After replyAndClose the reply is written: smtp-server must not write another.
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
      const refusal = stageRefusal('mail', principalOf(session).teamId, address.address, []);
      if (refusal) return void refuse(refusal, session).then(answer(done));
      done();
    },

    onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, done: Done) {
      const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      const refusal = stageRefusal('rcpt', principalOf(session).teamId, from, [address.address]);
      if (refusal) return void refuse(refusal, session).then(answer(done));
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

    try {
      const result = await submit(input, principal);
      logger.debug(`${result.id} from ${input.from.address} to ${input.to.length + input.cc.length + input.bcc.length} recipient(s), ${raw.length} bytes`);
      return `2.0.0 Ok: queued as ${result.id}`;
    } catch (error) {
      if (error instanceof Refused) {
        const reply = await refuse(error.refusal, session);
        if (reply) throw reply;
        return null;
      }
      if (error instanceof DomainError && error.kind === 'too_large') throw smtpError(552, `5.3.4 ${error.message}`);
      logger.error('could not store a message', error);
      throw smtpError(451, '4.3.0 The message could not be stored, try again later');
    }
  }
}
