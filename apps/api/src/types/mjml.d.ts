/**
 * MJML 5 ships no types, and @types/mjml describes MJML 4 (whose mjml2html was synchronous): the part
 * we call, as MJML 5 has it.
 */
declare module 'mjml' {
  type MjmlError = { line: number; message: string; tagName: string; formattedMessage: string };
  type MjmlOptions = { validationLevel?: 'strict' | 'soft' | 'skip'; minify?: boolean; keepComments?: boolean };
  export default function mjml2html(source: string, options?: MjmlOptions): Promise<{ html: string; errors: MjmlError[] }>;
}
