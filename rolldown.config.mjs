// The server as one file (dist/sendbox.mjs): Node resolves, reads and links ~400 modules
// otherwise, which was most of sendbox's start-up time. Native better-sqlite3 stays
// external, as do the packages loaded only on demand (mailparser for the raw-source
// views, selfsigned when a STARTTLS certificate is generated, mailauth for DKIM signing and
// the /auth check).
export default {
  input: 'dist/server/src/main.js',
  platform: 'node',
  external: ['better-sqlite3', 'mailparser', 'selfsigned', /^mailauth(\/|$)/, /^node:/],
  output: { file: 'dist/sendbox.mjs', format: 'esm', sourcemap: true },
  logLevel: 'warn',
};
