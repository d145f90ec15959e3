import { isIP } from 'node:net';

/** Parses `--dns-server`; null when it is not `host`, `host:port`, `[v6]:port` or a bare IPv6 address. */
export function parseDnsServer(value: string): { host: string; port: number } | null {
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(value);
  const plain = /^([^:\s[\]]+)(?::(\d{1,5}))?$/.exec(value);
  let host: string;
  let port = 53;
  if (bracketed) [host, port] = [bracketed[1], bracketed[2] ? Number(bracketed[2]) : 53];
  else if (isIP(value) === 6) host = value;
  else if (plain) [host, port] = [plain[1], plain[2] ? Number(plain[2]) : 53];
  else return null;
  if (port < 1 || port > 65535) return null;
  if (bracketed && isIP(host) !== 6) return null;
  return { host, port };
}
