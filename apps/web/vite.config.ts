import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants } from 'node:zlib';

export default defineConfig({
  plugins: [
    react(),
    // `name.br` and `name.gz` next to every text file of the build, at the strongest settings (the cost
    // is paid once, at build time); the API serves them with @fastify/static's `preCompressed`.
    compression({
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      logLevel: 'silent',
    }),
  ],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  // The manifest lists each route's chunks (handy to see what a screen loads; scripts/bench-web.ts measures the wire).
  build: { outDir: 'dist', sourcemap: true, manifest: true },
});
