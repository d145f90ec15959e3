// The peers sendbox replaces, installed from the npm registry into a temp folder by the
// bench itself: they are never dependencies of sendbox. The install is kept in
// <tmpdir>/sendbox-bench-peers and reused by later runs when the version matches.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PEERS = {
  maildev: { pkg: 'maildev', version: '2.2.1', overrides: null },
  // Its own mailparser range pulls a release that breaks on this Node; pin the one sendbox uses.
  ses: { pkg: 'aws-ses-v2-local', version: '2.10.2', overrides: { mailparser: '3.9.31' } },
};

const CACHE = join(tmpdir(), 'sendbox-bench-peers');

/** Installs (or reuses) a peer; returns the package folder. */
export function installPeer(peer, log) {
  const prefix = join(CACHE, `${peer.pkg}-${peer.version}`);
  const pkgDir = join(prefix, 'node_modules', peer.pkg);
  const manifest = join(pkgDir, 'package.json');
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === peer.version) return pkgDir;
  mkdirSync(prefix, { recursive: true });
  // A package.json of its own keeps npm from walking up, and carries the overrides.
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: `bench-peer-${peer.pkg}`, private: true, ...(peer.overrides ? { overrides: peer.overrides } : {}) }, null, 2));
  log(`installing ${peer.pkg}@${peer.version} into ${prefix} (npm registry; not a sendbox dependency)`);
  execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', `${peer.pkg}@${peer.version}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
  return pkgDir;
}
