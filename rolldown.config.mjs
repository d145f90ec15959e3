// The package's JavaScript, bundled from the tsc output into dist/:
// - sendbox.mjs: the CLI (bin). One file, because Node resolving, reading and linking ~400
//   modules was most of sendbox's start-up time.
// - index.mjs (`sendbox`), client.mjs (`sendbox/client`), playwright.mjs (`sendbox/playwright`),
//   vitest.mjs (`sendbox/vitest`): the programmatic entries. The server code they share with the
//   CLI lands in one chunk beside them.
// Native better-sqlite3 stays external, as do the packages loaded only on demand (mailparser for
// the raw-source views, selfsigned when a STARTTLS certificate is generated) and the test
// runner the fixtures plug into (the user's own @playwright/test).
export default {
  input: {
    sendbox: 'dist/server/src/main.js',
    index: 'dist/server/src/index.js',
    client: 'dist/client/index.js',
    playwright: 'dist/client/playwright.js',
    vitest: 'dist/client/global-setup.js',
  },
  platform: 'node',
  // swagger-ui-dist is only files that /docs serves, found through require.resolve at start.
  external: ['better-sqlite3', 'mailparser', 'selfsigned', 'prom-client', 'swagger-ui-dist', '@playwright/test', /^node:/],
  output: { dir: 'dist', format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'server-[hash].mjs', sourcemap: true },
  logLevel: 'warn',
};
