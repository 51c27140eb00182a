import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built by `bench:web --anchors` (decision 036) with the project's own Vite; react-admin and its React
// come from this folder's node_modules.
export default defineConfig({ root: import.meta.dirname, plugins: [react()], logLevel: 'warn' });
