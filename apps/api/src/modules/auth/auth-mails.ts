import type { Language } from '@sf/contract/app-info';
import { nameForMail, type MailMessage } from '../../lib/mailer.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function greetingOf(language: Language, name: string): string {
  const safe = nameForMail(name);
  if (language === 'it') return safe ? `Ciao ${safe},` : 'Ciao,';
  return safe ? `Hello ${safe},` : 'Hello,';
}

function html(paragraphs: string[], link?: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`);
  if (link) body.splice(1, 0, `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`);
  return `<!doctype html><html><body style="font-family:sans-serif">${body.join('')}</body></html>`;
}

export function passwordResetMail(to: string, name: string, link: string, language: Language): MailMessage {
  const lines =
    language === 'it'
      ? {
          subject: 'Reimposta la tua password di Social Fidelity',
          greeting: greetingOf('it', name),
          intro: 'abbiamo ricevuto una richiesta di reimpostare la password del tuo account.',
          action: 'Reimposta la password',
          expiry: 'Il link vale 30 minuti e si può usare una sola volta.',
          ignore: 'Se non hai chiesto tu di reimpostare la password, ignora questo messaggio: la password resta quella di prima.',
        }
      : {
          subject: 'Reset your Social Fidelity password',
          greeting: greetingOf('en', name),
          intro: 'we received a request to reset the password of your account.',
          action: 'Reset your password',
          expiry: 'The link is valid for 30 minutes and can be used once.',
          ignore: 'If you did not ask for it, ignore this message: your password stays as it was.',
        };
  return {
    to,
    subject: lines.subject,
    text: [lines.greeting, lines.intro, `${lines.action}: ${link}`, lines.expiry, lines.ignore].join('\n\n'),
    html: html([`${lines.greeting} ${lines.intro}`, lines.expiry, lines.ignore], { href: link, label: lines.action }),
  };
}

export function registrationAttemptMail(to: string, name: string, forgotLink: string, language: Language): MailMessage {
  const lines =
    language === 'it'
      ? {
          subject: 'Tentativo di registrazione con il tuo indirizzo',
          greeting: greetingOf('it', name),
          intro: 'qualcuno ha provato a registrare un nuovo account di Social Fidelity con questo indirizzo e-mail, che ha già un account.',
          action: 'Se eri tu e non ricordi la password, puoi reimpostarla',
          ignore: 'Se non eri tu, ignora questo messaggio: il tuo account non è cambiato.',
        }
      : {
          subject: 'Someone tried to register with your address',
          greeting: greetingOf('en', name),
          intro: 'someone tried to register a new Social Fidelity account with this e-mail address, which already has one.',
          action: 'If it was you and you forgot your password, you can reset it',
          ignore: 'If it was not you, ignore this message: your account has not changed.',
        };
  return {
    to,
    subject: lines.subject,
    text: [lines.greeting, lines.intro, `${lines.action}: ${forgotLink}`, lines.ignore].join('\n\n'),
    html: html([`${lines.greeting} ${lines.intro}`, lines.ignore], { href: forgotLink, label: lines.action }),
  };
}

export function emailConfirmationMail(to: string, name: string, link: string, language: Language): MailMessage {
  const lines =
    language === 'it'
      ? {
          subject: 'Conferma il tuo indirizzo per Social Fidelity',
          greeting: greetingOf('it', name),
          intro: 'per completare la registrazione al back-office di Social Fidelity conferma che questo indirizzo è tuo.',
          action: "Conferma l'indirizzo",
          expiry: 'Il link vale 24 ore e si può usare una sola volta. Dopo la conferma un amministratore deve approvare il tuo account.',
          ignore: "Se non ti sei registrato tu, ignora questo messaggio: senza conferma l'account non può essere approvato.",
        }
      : {
          subject: 'Confirm your address for Social Fidelity',
          greeting: greetingOf('en', name),
          intro: 'to complete your registration to the Social Fidelity back-office, confirm that this address is yours.',
          action: 'Confirm your address',
          expiry: 'The link is valid for 24 hours and can be used once. After the confirmation an administrator must approve your account.',
          ignore: 'If you did not register, ignore this message: without a confirmation the account cannot be approved.',
        };
  return {
    to,
    subject: lines.subject,
    text: [lines.greeting, lines.intro, `${lines.action}: ${link}`, lines.expiry, lines.ignore].join('\n\n'),
    html: html([`${lines.greeting} ${lines.intro}`, lines.expiry, lines.ignore], { href: link, label: lines.action }),
  };
}
