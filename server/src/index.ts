/**
 * The package's main entry: `startSendbox()` runs a whole sendbox — provider API, sandbox API,
 * inbox and SMTP — inside the caller's process, for a test runner's global setup or a dev
 * script. Importing this module has no side effects; every instance owns its sockets,
 * timers and database, so several can run in one process.
 *
 *   import { startSendbox } from 'sendbox';
 *   const sb = await startSendbox({ port: 0, smtpPort: 0, db: ':memory:', delayMs: 0 });
 *   await sb.client('worker-1').send({ to: 'jane@example.com', subject: 'Hi', body: 'Hello' });
 *   await sb.stop();
 */
import { ConfigError, configFromOptions, type SendboxOptions } from './config.js';
import { createSendbox, StartError } from './sendbox.js';
import { createLogger } from './logger.js';
import { openTeamId } from './auth/keys.js';
import { createSendboxClient, type SendboxClient } from '../../client/index.js';

export type { SendboxOptions } from './config.js';
export type { SendboxClient } from '../../client/index.js';

/** Why `startSendbox` failed: an option (`INVALID_OPTION`), a port, or the database file. */
export class SendboxStartError extends Error {
  constructor(
    message: string,
    readonly code: 'INVALID_OPTION' | 'PORT_IN_USE' | 'PORT_NOT_ALLOWED' | 'BAD_CERTIFICATE' | 'DATABASE',
    /** The option at fault (camelCase), when one is. */
    readonly option?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SendboxStartError';
  }
}

export interface RunningSendbox {
  /** Base URL of the HTTP API and the inbox, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Where SMTP listens. */
  smtp: { host: string; port: number };
  /** Where SMTP with implicit TLS listens (`smtpsPort`), or null when it is off. */
  smtps: { host: string; port: number } | null;
  /** The SQLite file (or `:memory:`). */
  db: string;
  /**
   * The typed client. With `apiKey`, `send` uses that key and lists and waits see only its
   * team's mail (its mailbox); without, it sees every team.
   */
  client(apiKey?: string): SendboxClient;
  /** Closes every socket and timer and the database; the process can then exit on its own. */
  stop(): Promise<void>;
}

/**
 * Starts sendbox with the CLI's options in camelCase (`smtpPort`, `delayMs` …) and the CLI's
 * defaults, except `logLevel`, which defaults to `warn` here so test output stays quiet.
 * Environment variables are not read. Rejects with a `SendboxStartError`, never exits.
 */
export async function startSendbox(options: SendboxOptions = {}): Promise<RunningSendbox> {
  let config;
  try {
    config = configFromOptions({ logLevel: 'warn', ...options });
  } catch (error) {
    if (error instanceof ConfigError) throw new SendboxStartError(error.message, 'INVALID_OPTION', error.option);
    throw error;
  }
  let sendbox;
  try {
    sendbox = createSendbox(config, { logger: createLogger(config.logLevel as 'warn') });
  } catch (error) {
    // --keys and --chaos are parsed while the services are built.
    if (error instanceof ConfigError) throw new SendboxStartError(error.message, 'INVALID_OPTION', error.option);
    throw new SendboxStartError(`cannot open database ${config.db}: ${(error as Error).message}`, 'DATABASE', 'db', { cause: error });
  }
  let ports;
  try {
    ports = await sendbox.listen();
  } catch (error) {
    await sendbox.close().catch(() => {});
    if (error instanceof StartError) throw new SendboxStartError(error.message, error.code, error.option, { cause: error });
    throw error;
  }
  // A wildcard bind is reached locally through loopback.
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${ports.httpPort}`;
  const auth = config.uiAuth ? { username: config.uiAuth.slice(0, config.uiAuth.indexOf(':')), password: config.uiAuth.slice(config.uiAuth.indexOf(':') + 1) } : undefined;
  const { keys } = sendbox.services;
  let stopped: Promise<void> | null = null;
  return {
    url,
    smtp: { host, port: ports.smtpPort },
    smtps: ports.smtpsPort === null ? null : { host, port: ports.smtpsPort },
    db: config.db,
    client(apiKey?: string) {
      if (apiKey === undefined) return createSendboxClient({ baseUrl: url, auth });
      // Configured keys name their team; in open mode the team follows from the key.
      const teamId = config.keys ? keys.resolve(apiKey)?.teamId : openTeamId(apiKey);
      if (!teamId) throw new Error(`client(): the key …${apiKey.slice(-4)} is not one of the configured keys`);
      return createSendboxClient({ baseUrl: url, apiKey, auth, teamId });
    },
    stop() {
      stopped ??= sendbox.close();
      return stopped;
    },
  };
}
