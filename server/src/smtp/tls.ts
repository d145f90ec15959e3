import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { StartError } from '../listen.js';

export interface TlsCredentials {
  key: string | Buffer;
  cert: string | Buffer;
}

/** Where the generated certificate lives: beside the database, so clients can pin it. */
export function generatedCertPaths(dbPath: string): { cert: string; key: string } {
  const dir = dirname(dbPath);
  return { cert: join(dir, 'smtp-tls-cert.pem'), key: join(dir, 'smtp-tls-key.pem') };
}

/**
 * The STARTTLS certificate, or null when TLS is off. `--smtp-cert/--smtp-key` win;
 * otherwise a self-signed one is generated at first start and kept beside the database
 * (in memory for `--db :memory:`), so a client that trusted it once keeps working.
 * `needed` asks for one even without --smtp-tls (the implicit-TLS port).
 */
export async function loadTls(config: Config, logger: Logger, needed = false): Promise<TlsCredentials | null> {
  if (config.smtpCert !== undefined && config.smtpKey !== undefined) {
    let credentials: TlsCredentials;
    try {
      credentials = { cert: readFileSync(config.smtpCert), key: readFileSync(config.smtpKey) };
      createSecureContext(credentials);
    } catch (error) {
      throw new StartError(`could not use --smtp-cert ${config.smtpCert} with --smtp-key ${config.smtpKey}: ${(error as Error).message}`, 'BAD_CERTIFICATE', 'smtpCert');
    }
    return credentials;
  }
  if (!config.smtpTls && !needed) return null;
  if (config.db === ':memory:') return selfSigned(config.messageHost);

  const paths = generatedCertPaths(config.db);
  if (existsSync(paths.cert) && existsSync(paths.key)) {
    const credentials = { cert: readFileSync(paths.cert), key: readFileSync(paths.key) };
    try {
      createSecureContext(credentials);
      return credentials;
    } catch (error) {
      logger.warn(`the certificate at ${paths.cert} is unusable (${(error as Error).message}); generating a new one`);
    }
  }
  const credentials = await selfSigned(config.messageHost);
  mkdirSync(dirname(paths.cert), { recursive: true });
  writeFileSync(paths.key, credentials.key, { mode: 0o600 });
  writeFileSync(paths.cert, credentials.cert);
  logger.info(`generated a self-signed SMTP TLS certificate: ${paths.cert}`);
  return credentials;
}

async function selfSigned(host: string): Promise<TlsCredentials> {
  // Loaded only when a certificate is made: it is not needed for a plain start.
  const { generate } = await import('selfsigned');
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate.getTime() + 10 * 365 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: host },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
