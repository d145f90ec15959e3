#!/usr/bin/env node
import { basename } from 'node:path';
import { ConfigError, HelpRequested, VersionRequested, helpText, loadConfig } from './config.js';
import { packageVersion } from './version.js';
import { createSendbox, StartError } from './sendbox.js';
import { createLogger } from './logger.js';
import { runSendmail } from './sendmail/sendmail.js';

/** The CLI: load config, start everything, print the ready line, stop cleanly on signals. */
async function main(): Promise<void> {
  // `sendbox sendmail …`, or the binary linked as `sendmail`: the sendmail replacement.
  if (process.argv[2] === 'sendmail' || /^sendmail(?:\.m?js)?$/.test(basename(process.argv[1] ?? ''))) {
    process.exitCode = await runSendmail(process.argv.slice(process.argv[2] === 'sendmail' ? 3 : 2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
    return;
  }
  let config;
  try {
    config = loadConfig(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(helpText());
      return;
    }
    if (error instanceof VersionRequested) {
      process.stdout.write(`${packageVersion()}\n`);
      return;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`sendbox: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel as 'info');
  let sendbox;
  try {
    sendbox = createSendbox(config, { logger });
  } catch (error) {
    process.stderr.write(`sendbox: ${error instanceof ConfigError ? error.message : `cannot open database ${config.db}: ${(error as Error).message}`}\n`);
    process.exit(2);
  }
  try {
    const { httpPort, smtpPort, smtpsPort } = await sendbox.listen();
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
    process.stdout.write(`sendbox ready  http://${host}:${httpPort}  smtp://${host}:${smtpPort}  db ${config.db}${smtpsPort === null ? '' : `  smtps://${host}:${smtpsPort}`}\n`);
  } catch (error) {
    process.stderr.write(`sendbox: ${error instanceof StartError ? error.message : (error as Error).message}\n`);
    await sendbox.close().catch(() => {});
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: finishing in-flight requests and closing the database`);
    sendbox.close().then(() => process.exit(0), (error) => {
      logger.error('shutdown failed', error);
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error) => {
  process.stderr.write(`sendbox: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
