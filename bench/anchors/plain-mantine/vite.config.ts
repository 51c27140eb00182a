import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built by `bench:web --anchors` (decision 036) with the project's own Vite and plugin.
export default defineConfig({ root: import.meta.dirname, plugins: [react()], logLevel: 'warn' });
