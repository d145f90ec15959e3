import { connect, type Socket } from 'node:net';

/** Raw-socket clients that misbehave on purpose: slow, silent or oversized. */

export interface Watched {
  socket: Socket;
  /** Everything the server wrote, as latin1 text. */
  received: () => string;
  /** Resolves when the server (or an error) closes the socket. */
  closed: Promise<void>;
  /** Bytes this client managed to write before the socket closed. */
  written: () => number;
}

export function watch(port: number, host = '127.0.0.1'): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    let text = '';
    let written = 0;
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    const originalWrite = socket.write.bind(socket);
    socket.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      return (originalWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as Socket['write'];
    socket.once('connect', () => resolve({ socket, received: () => text, closed, written: () => written }));
    socket.once('error', reject);
  });
}

/** Writes `chunks` one per tick of `everyMs` until the socket closes or they run out. */
export async function trickle(w: Watched, chunks: Iterable<string | Buffer>, everyMs: number): Promise<void> {
  let open = true;
  void w.closed.then(() => (open = false));
  for (const chunk of chunks) {
    if (!open || w.socket.destroyed) return;
    w.socket.write(chunk);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Resolves with true if the socket closed before the deadline (a liveness bound, not a timing claim). */
export async function closesWithin(w: Watched, deadlineMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([w.closed.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), deadlineMs)))]);
  clearTimeout(timer);
  return result;
}

/** The status and JSON body of the first HTTP response in `text`. */
export function firstResponse(text: string): { status: number; json: unknown } | null {
  const match = /^HTTP\/1\.1 (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(text);
  if (!match) return null;
  const length = /content-length:\s*(\d+)/i.exec(match[2]);
  const body = length ? match[3].slice(0, Number(length[1])) : match[3];
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(match[1]), json };
}

/** Resolves once the server has written something matching `pattern` (false if it closed first). */
export function receivedMatch(w: Watched, pattern: RegExp): Promise<boolean> {
  return new Promise((resolve) => {
    const check = () => {
      if (!pattern.test(w.received())) return;
      w.socket.off('data', check);
      resolve(true);
    };
    w.socket.on('data', check);
    void w.closed.then(() => resolve(pattern.test(w.received())));
    check();
  });
}
