import { SMTPStream } from 'smtp-server/lib/smtp-stream.js';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fastFeedDataStream, installFastDataScan, upstreamFeedDataStream } from './fast-data.js';

interface Outcome {
  data: string;
  dataBytes: number;
  commands: string[];
}

/** Feeds DATA input (and whatever is pipelined after it) in the given chunks through one implementation. */
async function feed(impl: typeof upstreamFeedDataStream, chunks: Buffer[]): Promise<Outcome> {
  const stream = new SMTPStream();
  stream._feedDataStream = impl;
  const commands: string[] = [];
  stream.oncommand = (command: Buffer, next?: () => void) => {
    commands.push(command.toString('latin1'));
    next?.();
  };
  const dataStream = stream.startDataMode(1_000_000);
  const received: Buffer[] = [];
  dataStream.on('data', (chunk: Buffer) => received.push(chunk));
  dataStream.on('end', () => stream.continue());
  const finished = new Promise<void>((resolve) => stream.on('finish', () => resolve()));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await finished;
  return { data: Buffer.concat(received).toString('latin1'), dataBytes: stream.dataBytes, commands };
}

const split = (input: Buffer, cuts: number[]) => {
  const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let last = 0;
  for (const p of points) {
    out.push(input.subarray(last, p));
    last = p;
  }
  out.push(input.subarray(last));
  return out.filter((c) => c.length);
};

// Pieces that exercise every branch: terminators, escape dots, bare CR/LF, a dot-only first line.
const PIECES = ['\r\n', '.', '..', '\r\n.', '\r\n..', '\n', '\r', 'a', 'line of text', '.\r\n', '\r\n.\r\n', 'QUIT\r\n', 'x'.repeat(70)];

describe('the indexOf DATA scan', () => {
  it('is installed over smtp-server 3.21.6', () => {
    expect(installFastDataScan()).toBe(true);
    expect(SMTPStream.prototype._feedDataStream).toBe(fastFeedDataStream);
  });

  it('matches upstream on every split of hand-picked inputs', async () => {
    const inputs = [
      '.\r\nNOOP\r\n',
      '..\r\n.\r\nNOOP\r\n',
      'Subject: x\r\n\r\n..leading dot\r\n...two\r\n.\r\nRSET\r\nQUIT\r\n',
      'a\r\n.\r\n',
      '\r\n.\r\n',
      'bare\n.\nnot an end\r\n.\r\n',
      'cr\r.\r\nnext\r\n.\r\nNOOP\r\n',
      'x\r\n..\r\n.\r\n',
    ];
    for (const text of inputs) {
      const input = Buffer.from(text, 'latin1');
      for (let a = 0; a <= input.length; a++) {
        for (let b = a; b <= input.length; b += 3) {
          const chunks = split(input, [a, b]);
          expect(await feed(fastFeedDataStream, chunks), `${JSON.stringify(text)} cut at ${a},${b}`).toEqual(await feed(upstreamFeedDataStream, chunks));
        }
      }
    }
  });

  it('matches upstream on generated inputs and chunkings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (pieces, cuts) => {
          const input = Buffer.from(pieces.join('') + '\r\n.\r\nQUIT\r\n', 'latin1');
          const chunks = split(input, cuts);
          expect(await feed(fastFeedDataStream, chunks)).toEqual(await feed(upstreamFeedDataStream, chunks));
        },
      ),
      { numRuns: 300 },
    );
  });
});
