// A lean SMTP load generator: raw sockets, one state machine per connection, the message
// dot-stuffed once and written as one buffer. nodemailer spends ~0.7 ms of client CPU per
// message, so on one core its pool could not keep a server busy (the servers ran at
// 60-80 %, and the ratio measured the client). With RFC 2920 PIPELINING (when the server
// offers it) MAIL, RCPT and DATA go out in one write.
import { connect } from 'node:net';

/** The DATA payload: CRLF line ends, dot-stuffed (RFC 5321 §4.5.2), ended by CRLF.CRLF. */
export function dataPayload(raw) {
  let text = raw.toString('latin1').replace(/\r?\n/g, '\r\n');
  if (!text.endsWith('\r\n')) text += '\r\n';
  return Buffer.from(text.replace(/(^|\r\n)\./g, '$1..') + '.\r\n', 'latin1');
}

/**
 * One connection sending messages while `take()` grants them; resolves with its counts.
 * Replies are read line by line; a 4xx/5xx ends the message (RSET) and counts a failure.
 */
function connection({ port, payload, envelope, take, onAck }) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let buffer = '';
    let pipelining = false;
    let failed = 0;
    let firstError = null;
    // The replies still expected, in order: greeting, ehlo, mail, rcpt…, data, end, rset.
    let expected = ['greeting'];
    let commands = [];
    const envelopeCommands = [`MAIL FROM:<${envelope.from}>\r\n`, ...envelope.to.map((to) => `RCPT TO:<${to}>\r\n`), 'DATA\r\n'];
    const kinds = ['mail', ...envelope.to.map(() => 'rcpt'), 'data'];
    const done = () => resolve({ failed, firstError });
    const fail = (line) => {
      failed++;
      firstError ??= line;
      // RFC 5321 §4.1.1.5: RSET abandons the transaction; the replies still due are skipped.
      expected = ['rset'];
      socket.write('RSET\r\n');
    };
    const next = () => {
      if (!take()) {
        socket.end('QUIT\r\n');
        return done();
      }
      if (pipelining) {
        socket.write(envelopeCommands.join(''));
        expected = [...kinds];
        commands = [];
      } else {
        socket.write(envelopeCommands[0]);
        expected = [kinds[0]];
        commands = envelopeCommands.slice(1).map((command, i) => [command, kinds[i + 1]]);
      }
    };
    const onReply = (code, line) => {
      const what = expected.shift();
      if (what === 'data-refused') {
        // The message already counted as failed: end an accepted DATA empty, then reset.
        if (code === 354) {
          socket.write('.\r\n');
          expected = ['rset-after-data'];
        } else {
          expected = ['rset'];
          socket.write('RSET\r\n');
        }
      } else if (what === 'greeting') {
        socket.write('EHLO bench.test\r\n');
        expected = ['ehlo'];
      } else if (what === 'ehlo' || what === 'rset') {
        if (expected.length === 0) next();
      } else if (what === 'end') {
        if (code === 250) onAck();
        else failed++, (firstError ??= line);
        next();
      } else if (what === 'data') {
        if (code !== 354) return fail(line);
        socket.write(payload);
        expected = ['end'];
      } else if (code >= 400) {
        // A refused MAIL or RCPT: with pipelining the DATA reply is still to come (an error).
        if (pipelining) {
          failed++;
          firstError ??= line;
          expected = expected.map((kind) => (kind === 'data' ? 'data-refused' : kind));
        } else fail(line);
      } else if (!pipelining) {
        const [command, kind] = commands.shift();
        socket.write(command);
        expected = [kind];
      }
    };
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      let end;
      while ((end = buffer.indexOf('\r\n')) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^250[- ]PIPELINING/i.test(line)) pipelining = true;
        if (line[3] === '-') continue;
        if (expected[0] === 'rset-after-data') {
          expected = ['rset'];
          socket.write('RSET\r\n');
          continue;
        }
        onReply(Number(line.slice(0, 3)), line);
      }
    });
    socket.on('error', (error) => {
      failed++;
      firstError ??= error.message;
      done();
    });
    socket.on('close', done);
  });
}

/**
 * Sends up to `count` messages over `connections` sockets, starting no new one after
 * `sendWindowMs`, then waits until `ingested()` reaches what was acknowledged (the clock
 * stops there).
 */
export async function smtpBlast({ port, connections, count, raw, envelope, ingested, timeoutMs, sendWindowMs = timeoutMs }) {
  const payload = dataPayload(raw);
  const t0 = performance.now();
  const deadline = t0 + timeoutMs;
  const sendUntil = t0 + Math.min(sendWindowMs, timeoutMs);
  let started = 0;
  let sent = 0;
  const take = () => {
    if (started >= count || performance.now() > sendUntil) return false;
    started++;
    return true;
  };
  const results = await Promise.all(Array.from({ length: connections }, () => connection({ port, payload, envelope, take, onAck: () => sent++ })));
  const ackMs = performance.now() - t0;
  const failed = results.reduce((n, r) => n + r.failed, 0);
  const firstError = results.find((r) => r.firstError)?.firstError ?? null;
  let seen = 0;
  for (;;) {
    seen = await ingested();
    if (seen >= sent || performance.now() > deadline + 10_000) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const ms = performance.now() - t0;
  return { sent, failed, firstError, ingested: seen, ackMs, ms, perSecond: (Math.min(seen, sent) / ms) * 1000 };
}
