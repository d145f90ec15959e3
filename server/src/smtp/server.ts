import { createServer, type Server } from 'node:net';
import type { Services } from '../context.js';
import { listenOn } from '../sendbox.js';

export interface SmtpHandle {
  port: number;
  close(): Promise<void>;
}

/**
 * Placeholder listener until SMTP capture lands: it binds the port so the ready line
 * and port checks are real, and answers every connection with 421.
 */
export async function startSmtp(services: Services): Promise<SmtpHandle> {
  const server: Server = createServer((socket) => {
    socket.end('421 4.3.2 SMTP capture is not available yet\r\n');
  });
  const port = await listenOn(server, services.config.host, services.config.smtpPort, 'smtp-port');
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
