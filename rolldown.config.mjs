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
  external: ['better-sqlite3', 'mailparser', 'selfsigned', 'prom-client', 'swagger-ui-dist', /^mailauth(\/|$)/, '@playwright/test', /^node:/],
  output: { dir: 'dist', format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'server-[hash].mjs', sourcemap: true },
  logLevel: 'warn',
};
