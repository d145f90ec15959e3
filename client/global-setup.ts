/**
 * A global setup for Vitest and Playwright (`sendbox/vitest`): one sendbox for the whole run,
 * its address handed to every worker as SENDBOX_URL, SENDBOX_SMTP_HOST and SENDBOX_SMTP_PORT
 * (and through Vitest's `provide` as `sendboxUrl`). An already set SENDBOX_URL is used as is.
 *
 *   // vitest.config.ts
 *   export default defineConfig({ test: { globalSetup: ['sendbox/vitest'] } });
 */
import { startSendbox, type SendboxOptions } from '../server/src/index.js';

interface SetupContext {
  provide?: (key: string, value: unknown) => void;
}

/** A global setup that starts sendbox with these options (the defaults: ports picked by the OS, in memory, no delivery delay). */
export function sendboxGlobalSetup(options: SendboxOptions = {}) {
  return async function setup(context?: SetupContext): Promise<() => Promise<void>> {
    const existing = process.env.SENDBOX_URL;
    if (existing) {
      context?.provide?.('sendboxUrl', existing);
      return async () => {};
    }
    const sendbox = await startSendbox({ port: 0, smtpPort: 0, db: ':memory:', delayMs: 0, ...options });
    process.env.SENDBOX_URL = sendbox.url;
    process.env.SENDBOX_SMTP_HOST = sendbox.smtp.host;
    process.env.SENDBOX_SMTP_PORT = String(sendbox.smtp.port);
    context?.provide?.('sendboxUrl', sendbox.url);
    return async () => {
      await sendbox.stop();
      delete process.env.SENDBOX_URL;
      delete process.env.SENDBOX_SMTP_HOST;
      delete process.env.SENDBOX_SMTP_PORT;
    };
  };
}

export default sendboxGlobalSetup();
