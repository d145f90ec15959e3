// Ceiling for SMTP ingest: the same smtp-server library sendbox uses, accepting any
// envelope and draining DATA without parsing or storing it.
import { SMTPServer } from 'smtp-server';

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  size: 26_214_400,
  logger: false,
  maxClients: 1000,
  onData(stream, _session, callback) {
    stream.on('end', () => callback());
    stream.resume();
  },
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`smtp-drain listening ${server.server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
