import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';

/**
 * A tiny authoritative DNS server over UDP on 127.0.0.1 for `--dns real` tests, so no
 * test ever asks the internet. Names absent from the zone answer NXDOMAIN; a name without
 * the asked type answers NOERROR with no records (NODATA). `mode` makes it fail on demand.
 */
export interface ZoneEntry {
  TXT?: string[];
  CNAME?: string;
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for --dns-server. */
  address: string;
  zone: Map<string, ZoneEntry>;
  /** answer normally, SERVFAIL every query, or never answer (a timeout). */
  mode: 'answer' | 'servfail' | 'silent';
  queries: { name: string; type: string }[];
  close(): Promise<void>;
}

const NOERROR = 0;
const SERVFAIL = 2;
const NXDOMAIN = 3;

/** TXT strings are at most 255 bytes; a DKIM key is split as real zones do. */
function chunks(value: string): string[] {
  const parts: string[] = [];
  for (let i = 0; i < value.length; i += 255) parts.push(value.slice(i, i + 255));
  return parts.length ? parts : [''];
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const socket = createSocket('udp4');
  const server: TestDnsServer = {
    address: '',
    zone: new Map(),
    mode: 'answer',
    queries: [],
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };

  socket.on('message', (message, remote) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    server.queries.push({ name: question.name, type: question.type });
    if (server.mode === 'silent') return;

    const entry = server.zone.get(question.name.toLowerCase());
    let rcode = NOERROR;
    const answers: dnsPacket.Answer[] = [];
    if (server.mode === 'servfail') rcode = SERVFAIL;
    else if (!entry) rcode = NXDOMAIN;
    else if (question.type === 'TXT' && entry.TXT) for (const value of entry.TXT) answers.push({ type: 'TXT', name: question.name, ttl: 60, class: 'IN', data: chunks(value) });
    else if (question.type === 'CNAME' && entry.CNAME) answers.push({ type: 'CNAME', name: question.name, ttl: 60, class: 'IN', data: entry.CNAME });

    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | rcode,
      questions: [question],
      answers,
    });
    socket.send(response, remote.port, remote.address);
  });

  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  server.address = `127.0.0.1:${(socket.address() as AddressInfo).port}`;
  return server;
}
