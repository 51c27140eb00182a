import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  // The manifest lets scripts/size.mjs find what /auth/login loads (the entry and its static imports).
  build: { outDir: 'dist', sourcemap: true, manifest: true },
});
