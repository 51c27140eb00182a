/** Types of web-build.mjs (plain JavaScript: `npm start` runs it without a TypeScript loader). */
export const webDist: string;
export function ensureWebBuild(): void;
export function precompressInBackground(): void;
