import type { Language } from '@sf/contract/app-info';
import type { MailMessage } from '../../lib/mailer.ts';
import { nameForMail } from '../../lib/mailer.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const ROLE_NAMES: Record<Language, Record<'admin' | 'editor', string>> = {
  it: { admin: 'amministratore', editor: 'redattore (News)' },
  en: { admin: 'administrator', editor: 'editor (News)' },
};

/**
 * The invitation e-mail, in the inviting admin's language. Names are the admin's own input, passed
 * through `nameForMail` like every name in our e-mails (no links or addresses can hide in them).
 */
export function invitationMail(to: string, name: string, inviterName: string, role: 'admin' | 'editor', link: string, language: Language): MailMessage {
  const safeName = nameForMail(name);
  const safeInviter = nameForMail(inviterName);
  const roleName = ROLE_NAMES[language][role];
  const lines =
    language === 'it'
      ? {
          subject: 'Sei stato invitato nel back-office di Social Fidelity',
          greeting: safeName ? `Ciao ${safeName},` : 'Ciao,',
          intro: `${safeInviter || 'un amministratore'} ti ha invitato nel back-office di Social Fidelity come ${roleName}.`,
          action: "Accetta l'invito",
          expiry: 'Il link vale 7 giorni e si può usare una sola volta: scegli il tuo nome e una password e sarai subito dentro.',
          ignore: 'Se non ti aspettavi questo invito, ignora il messaggio: senza il tuo consenso non viene creato alcun account.',
        }
      : {
          subject: 'You are invited to the Social Fidelity back-office',
          greeting: safeName ? `Hello ${safeName},` : 'Hello,',
          intro: `${safeInviter || 'An administrator'} invited you to the Social Fidelity back-office as ${roleName}.`,
          action: 'Accept the invitation',
          expiry: 'The link is valid for 7 days and can be used once: choose your name and a password and you are in.',
          ignore: 'If you did not expect this invitation, ignore this message: no account is created without you.',
        };
  const text = [lines.greeting, lines.intro, `${lines.action}: ${link}`, lines.expiry, lines.ignore].join('\n\n');
  const html = [
    `<p>${escapeHtml(`${lines.greeting} ${lines.intro}`)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(lines.action)}</a></p>`,
    `<p>${escapeHtml(lines.expiry)}</p>`,
    `<p>${escapeHtml(lines.ignore)}</p>`,
  ].join('');
  return { to, subject: lines.subject, text, html: `<!doctype html><html><body style="font-family:sans-serif">${html}</body></html>` };
}
