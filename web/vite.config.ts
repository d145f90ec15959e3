import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm run dev`: the inbox with hot reload, talking to a sendbox already running on the default port.
const target = process.env.SENDBOX_URL ?? 'http://127.0.0.1:8025';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: {
      '/v1': target,
      '/sandbox': target,
      '/openapi.json': target,
      '/docs': target,
      '/metrics': target,
    },
  },
});
