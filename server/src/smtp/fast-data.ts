import { SMTPStream } from 'smtp-server/lib/smtp-stream.js';

/**
 * smtp-server finds the end of DATA and the escape dots (RFC 5321 §4.5.2) by looking at
 * every byte in a JavaScript loop: 6.5 ms of CPU for a 1.4 MB message on this hardware,
 * about half of everything sendbox spends on it. The only bytes that matter are a dot
 * right after a line feed, so this version of the same method jumps between those with
 * Buffer#indexOf (native) and keeps everything else, line for line, as upstream wrote it:
 * the start-of-DATA checks against SMTP smuggling, the four bytes carried across chunks,
 * byte counting, backpressure. `fast-data.test.ts` checks it against the original on
 * every chunking of tricky input.
 *
 * It is installed only over the implementation it was written against (a fingerprint of
 * the upstream loop); any other smtp-server version keeps its own.
 */
const END_SEQUENCE = Buffer.from('\r\n.\r\n');
const START_TERMINATOR = Buffer.from('.\r\n');
const LINE_START_DOT = Buffer.from('\n.');
const UPSTREAM_FINGERPRINT = 'for (i = 2; i < len - 2; i++)';

type Callback = (err?: Error | null) => void;

export const upstreamFeedDataStream = SMTPStream.prototype._feedDataStream;

export function fastFeedDataStream(this: SMTPStream, input: Buffer, done: Callback): void {
  const dataStream = this._dataStream!;
  let chunk = input;
  if (this._lastBytes && this._lastBytes.length) {
    chunk = Buffer.concat([this._lastBytes, chunk], this._lastBytes.length + chunk.length);
    this._lastBytes = false;
  }
  let len = chunk.length;
  if (this._atDataStart && len >= 3 && Buffer.compare(chunk.subarray(0, 3), START_TERMINATOR) === 0) {
    this._endDataMode(false, chunk.subarray(3), done);
    return;
  }
  if (this._atDataStart && len >= 2 && chunk[0] === 0x2e && chunk[1] === 0x2e) {
    chunk = chunk.subarray(1);
    len--;
    this._atDataStart = false;
  }
  // Upstream visits i = 2 … len - 3 looking for chunk[i] === '.' after '\n'; indexOf finds
  // the same positions (the '\n' at i - 1 ≥ 1) without touching the bytes in between.
  for (let nl = chunk.indexOf(LINE_START_DOT, 1); nl !== -1 && nl + 1 < len - 2; nl = chunk.indexOf(LINE_START_DOT, nl + 1)) {
    const i = nl + 1;
    if (Buffer.compare(chunk.subarray(i - 2, i + 3), END_SEQUENCE) === 0) {
      const buf = chunk.subarray(0, i);
      this._countDataBytes(buf.length);
      this._endDataMode(buf, chunk.subarray(i + 3), done);
      return;
    }
    if (chunk[i + 1] === 0x2e) {
      const buf = chunk.subarray(0, i);
      this._lastBytes = false;
      this._countDataBytes(buf.length);
      if (dataStream.writable) dataStream.write(buf);
      const rest = chunk.subarray(i + 1);
      setImmediate(() => this._feedDataStream(rest, done));
      return;
    }
  }
  this._lastBytes = chunk.length < 4 ? chunk : chunk.subarray(chunk.length - 4);
  if (this._lastBytes.length >= chunk.length) return done();
  const buf = chunk.subarray(0, chunk.length - this._lastBytes.length);
  this._countDataBytes(buf.length);
  if (!dataStream.writable) return done();
  if (dataStream.write(buf) || dataStream.destroyed) return done();
  // A stream that the application destroys never drains, it only closes.
  const onDrain = () => {
    dataStream.removeListener('drain', onDrain);
    dataStream.removeListener('close', onDrain);
    done();
  };
  dataStream.once('drain', onDrain);
  dataStream.once('close', onDrain);
}

/** Installs the indexOf scan when smtp-server still has the loop it replaces; true if installed. */
export function installFastDataScan(): boolean {
  if (SMTPStream.prototype._feedDataStream === fastFeedDataStream) return true;
  if (!upstreamFeedDataStream.toString().includes(UPSTREAM_FINGERPRINT)) return false;
  SMTPStream.prototype._feedDataStream = fastFeedDataStream;
  return true;
}
