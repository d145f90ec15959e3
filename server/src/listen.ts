import type { AddressInfo, Server as NetServer } from 'node:net';
import { envName } from './config.js';

/** A start-up failure a person can act on: main prints its message as one line. */
export class StartError extends Error {}

/** Listens, turning EADDRINUSE into one line naming the port, the flag and its env twin. */
export function listenOn(server: NetServer, host: string, port: number, flag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new StartError(`port ${port} on ${host} is already in use: choose another with --${flag} or ${envName(flag)} (0 picks a free port)`));
      else if (error.code === 'EACCES') reject(new StartError(`not allowed to listen on port ${port}: choose another with --${flag} or ${envName(flag)}`));
      else reject(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
