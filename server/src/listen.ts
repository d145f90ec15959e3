import type { AddressInfo, Server as NetServer } from 'node:net';
import { envName } from './config.js';

/** A start-up failure a person can act on (main prints its message as one line); `code` says why. */
export class StartError extends Error {
  constructor(message: string, readonly code: 'PORT_IN_USE' | 'PORT_NOT_ALLOWED' | 'BAD_CERTIFICATE', readonly option: string) {
    super(message);
    this.name = 'StartError';
  }
}

/** Listens, turning EADDRINUSE into one line naming the port, the flag and its env twin. */
export function listenOn(server: NetServer, host: string, port: number, flag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const option = flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
      if (error.code === 'EADDRINUSE') reject(new StartError(`port ${port} on ${host} is already in use: choose another with --${flag} or ${envName(flag)} (0 picks a free port)`, 'PORT_IN_USE', option));
      else if (error.code === 'EACCES') reject(new StartError(`not allowed to listen on port ${port}: choose another with --${flag} or ${envName(flag)}`, 'PORT_NOT_ALLOWED', option));
      else reject(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
