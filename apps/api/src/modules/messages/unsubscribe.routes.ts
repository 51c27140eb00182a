import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Language } from '@sf/contract/app-info';
import { actorOf } from '../../lib/audit.ts';
import { depsOf } from '../../lib/caller.ts';
import { acceptFormBodies } from '../../lib/form-bodies.ts';
import { unsubscribe, unsubscribeState, type UnsubscribeState } from './unsubscribe.service.ts';

const TEXTS = {
  it: {
    title: 'Comunicazioni promozionali',
    ask: 'Non vuoi più ricevere le nostre e-mail promozionali? Premi il pulsante: smetterai di riceverle subito.',
    profiling: 'Smetti anche di usare i miei acquisti per proposte personalizzate (profilazione)',
    button: "Annulla l'iscrizione",
    done: 'Fatto: non riceverai più e-mail promozionali. Le comunicazioni di servizio sulla tua tessera continuano.',
    profilingOff: 'Anche la profilazione è disattivata.',
    stopProfiling: 'Disattiva anche la profilazione',
    unknown: 'Questo link non è valido o non è più attivo.',
  },
  en: {
    title: 'Promotional messages',
    ask: 'Do you no longer want our promotional e-mails? Press the button: they stop at once.',
    profiling: 'Also stop using my purchases for personalised offers (profiling)',
    button: 'Unsubscribe',
    done: 'Done: you will receive no more promotional e-mails. Service messages about your card continue.',
    profilingOff: 'Profiling is off too.',
    stopProfiling: 'Turn profiling off too',
    unknown: 'This link is not valid or no longer active.',
  },
} as const;

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A small self-contained page (no script; inline styles are allowed by the CSP), in the customer's
 * language; an unknown link has no customer, and answers in the browser's.
 */
function page(language: Language, token: string, state: UnsubscribeState): string {
  const t = TEXTS[language];
  const action = `/u/${encodeURIComponent(token)}`;
  let content: string;
  if (state.state === 'unknown') {
    content = `<p>${t.unknown}</p>`;
  } else if (state.state === 'subscribed') {
    content = `<p>${t.ask}</p>
<form method="post" action="${escapeHtml(action)}">
${state.isProfilingOn ? `<p><label><input type="checkbox" name="profiling" value="withdraw"> ${t.profiling}</label></p>` : ''}
<button type="submit">${t.button}</button>
</form>`;
  } else {
    content = `<p role="status">${t.done}</p>${
      state.isProfilingOn
        ? `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="profiling" value="withdraw"><button type="submit">${t.stopProfiling}</button></form>`
        : `<p>${t.profilingOff}</p>`
    }`;
  }
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${t.title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1f2933;line-height:1.5}button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:0;background:#1c7ed6;color:#fff;cursor:pointer}</style>
</head>
<body><main><h1>${t.title}</h1>${content}</main></body>
</html>`;
}

/** The body of either POST: RFC 8058's `List-Unsubscribe=One-Click`, or the page's form. */
const unsubscribeBodySchema = z.record(z.string(), z.string()).optional();

/**
 * `/u/<token>`, outside /api: the address in every marketing e-mail's footer and List-Unsubscribe
 * header. Public; the token in the path is the only key (decision record 034).
 */
export const unsubscribeRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);
  // RFC 8058's one-click POST and the page's own form are form-encoded.
  acceptFormBodies(app);
  // Some mail providers send the one-click POST as multipart/form-data: its content does not matter.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 10_000 }, (_request, _body, done) => done(null, {}));
  const params = z.object({ token: z.string().min(1).max(100) });
  const limited = { access: 'public' as const, rateLimit: { max: app.env.AUTH_RATE_LIMIT, timeWindow: '1 minute' } };

  app.get(
    '/:token',
    {
      config: limited,
      schema: { tags: ['messages'], summary: 'The unsubscribe page (HTML, in the customer\'s language): shows a button, never unsubscribes by itself', params },
    },
    async (request, reply) => {
      const state = await unsubscribeState(deps, request.params.token);
      return reply
        .code(state.state === 'unknown' ? 404 : 200)
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Referrer-Policy', 'no-referrer')
        .send(page(state.state === 'unknown' ? request.language : state.language, request.params.token, state));
    },
  );

  app.post(
    '/:token',
    {
      config: { ...limited, csrf: 'secret-in-url' },
      schema: {
        tags: ['messages'],
        summary: 'One-click unsubscribe (RFC 8058): withdraws the marketing consent at once (consent history channel `email_link`); `profiling=withdraw` also stops profiling',
        params,
        body: unsubscribeBodySchema,
      },
    },
    async (request, reply) => {
      const isProfilingWithdrawn = request.body?.['profiling'] === 'withdraw';
      const state = await unsubscribe(deps, actorOf(request), request.params.token, { isProfilingWithdrawn });
      return reply
        .code(state.state === 'unknown' ? 404 : 200)
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Referrer-Policy', 'no-referrer')
        .send(page(state.state === 'unknown' ? request.language : state.language, request.params.token, state));
    },
  );
};
