import { describe, expect, it } from 'vitest';
import { createCampaignSchema, updateCampaignSchema } from './campaigns.ts';
import { issueMessage } from './validation.ts';

/** Each refused field with its text, in Italian and English, as the form and the API's 400 say them. */
function refusals(result: ReturnType<typeof createCampaignSchema.safeParse> | ReturnType<typeof updateCampaignSchema.safeParse>) {
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issueMessage(issue, 'it'), issueMessage(issue, 'en')]);
}

describe('a campaign refuses a placeholder the renderer does not fill in (it would reach every recipient as written)', () => {
  const draft = { name: 'Caffè', subject: 'Ciao {{nome}}', body: '<p>Ciao {{ nome }}</p>' };

  it('accepts {{nome}}, with or without spaces inside the braces, and a text with none', () => {
    expect(createCampaignSchema.safeParse(draft).success).toBe(true);
    expect(createCampaignSchema.safeParse({ ...draft, subject: 'Offerta', body: '<p>Solo oggi</p>' }).success).toBe(true);
    expect(updateCampaignSchema.safeParse({ subject: '{{nome}}, un caffè', body: '<p>{{nome}}</p>', version: 1 }).success).toBe(true);
  });

  it('names the subject and the body on create, with the unknown placeholder and the ones there are', () => {
    expect(refusals(createCampaignSchema.safeParse({ ...draft, subject: 'Ciao {{firstName}}', body: '<p>Saldo: {{saldo}}</p>' }))).toEqual([
      ['subject', 'Oggetto: il segnaposto {{firstName}} non esiste (si possono usare {{nome}})', 'Subject: there is no placeholder {{firstName}} (you can use {{nome}})'],
      ['body', 'Testo: il segnaposto {{saldo}} non esiste (si possono usare {{nome}})', 'Body: there is no placeholder {{saldo}} (you can use {{nome}})'],
    ]);
  });

  it('names them on update too, each field on its own', () => {
    expect(refusals(updateCampaignSchema.safeParse({ subject: 'Ciao {{ firstName }}', version: 1 })).map(([field]) => field)).toEqual(['subject']);
    expect(refusals(updateCampaignSchema.safeParse({ body: '<p>{{cognome}}</p>', version: 1 })).map(([field]) => field)).toEqual(['body']);
  });

  it('says it together with the save’s other problems', () => {
    expect(refusals(createCampaignSchema.safeParse({ ...draft, name: '', body: '<p>{{firstName}}</p>' })).map(([field]) => field)).toEqual(['name', 'body']);
  });
});
