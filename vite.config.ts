import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'client',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    cssCodeSplit: true,
    sourcemap: false,
    // .vite/manifest.json: server/plugins/spa.ts reads it to preload each route's chunks.
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: { '/trpc': 'http://localhost:8000', '/api': 'http://localhost:8000', '/uploads': 'http://localhost:8000' },
  },
});
