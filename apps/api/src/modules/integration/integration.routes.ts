import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import {
  cardCodeHeadersSchema,
  cardNumberParamSchema,
  integrationCardSchema,
  integrationCustomerResultSchema,
  integrationCustomerSchema,
  integrationProofResultSchema,
  integrationProofSchema,
  integrationPurchaseResultSchema,
  integrationPurchaseSchema,
  integrationRedemptionResultSchema,
  integrationRedemptionSchema,
  integrationVoucherSchema,
} from '@sf/contract/integration';
import { idempotencyHeadersSchema, optionalIdempotencyHeadersSchema } from '@sf/contract/ledger';
import { coverUploadResponseSchema } from '@sf/contract/news';
import { errorResponseSchema } from '@sf/contract/errors';
import { voucherCodeParamSchema } from '@sf/contract/rewards';
import { SINGLE_FILE_LIMITS, readUploadedFile } from '../../lib/uploads.ts';
import { storeProofImage } from '../social-proofs/social-proofs.service.ts';
import type { IntegrationKey } from './api-keys.service.ts';
import {
  checkVoucherAtTill,
  keyCaller,
  readCard,
  recordPurchase,
  redeemForCard,
  signUpCustomer,
  submitProofForCard,
  useVoucherAtTill,
} from './integration.service.ts';
import { depsOf } from '../../lib/caller.ts';

export const INTEGRATION_PREFIX = '/api/integration/v1';
/** Starts with /api/docs, like the back-office's own docs: served by @fastify/swagger-ui, public. */
export const INTEGRATION_DOCS_PREFIX = '/api/docs-integration';

const TAG = 'integrazione';

/** The bearer API key, as both OpenAPI documents describe it. */
export const INTEGRATION_SECURITY_SCHEME = { type: 'http', scheme: 'bearer', description: 'La chiave API (sfk_…)' } as const;

const keyOf = (request: FastifyRequest) => request.apiKey as IntegrationKey;

/** What each error status means on this API, said once: every route lists the ones it gives. */
const ERROR_ANSWERS = {
  400: 'Richiesta non valida: `error.fields` nomina i campi sbagliati (`[{ field, message }]`), `error.message` li riassume',
  401: 'Chiave mancante, sconosciuta o revocata (`invalid_token`, intestazione `WWW-Authenticate: Bearer`)',
  403: 'La chiave non ha il permesso necessario, non agisce per questo esercente, il suo esercente è sospeso o archiviato, o manca il codice della tessera (`card_code_required`)',
  404: 'Tessera o buono sconosciuti, o che la chiave non può vedere (`not_found`)',
  409: 'Conflitto con lo stato attuale: `error.code` dice quale (elencati nella descrizione dell\u2019operazione); `idempotency_key_in_flight` se la stessa `Idempotency-Key` è ancora in corso (riprovare dopo `Retry-After`)',
  413: 'File troppo grande (`payload_too_large`)',
  415: 'Tipo di contenuto non supportato (`unsupported_media_type`): il corpo va inviato come `application/json`',
  422: 'La stessa `Idempotency-Key` con una richiesta diversa (`idempotency_key_reused`)',
  429: 'Troppe richieste per questa chiave (o tentativi con chiavi non valide da questo indirizzo): riprovare dopo `Retry-After` secondi (`rate_limited`)',
} as const;

/**
 * The error answers of a route, for its `response` schema: each status with the one error shape of
 * the API (`{ error: { code, message, fields?, requestId } }`, S19) and its meaning here. Every route
 * can get 401 (no key), 403 (scope) and 429 (rate limit), so those are always there.
 */
function errorAnswers(...statuses: (keyof typeof ERROR_ANSWERS)[]) {
  const all = [...new Set([...statuses, 401, 403, 429] as const)].sort((a, b) => a - b);
  return Object.fromEntries(all.map((status) => [status, errorResponseSchema.meta({ description: ERROR_ANSWERS[status] })]));
}

/**
 * The integration API's document: the back-office's OpenAPI document cut down to /api/integration/v1,
 * with its own title, description (Italian, like the examples) and bearer-key security.
 */
export function integrationSpecification(spec: Record<string, unknown>): Record<string, unknown> {
  const paths = Object.fromEntries(
    Object.entries((spec['paths'] ?? {}) as Record<string, unknown>).filter(([path]) => path.startsWith(INTEGRATION_PREFIX)),
  );
  const components = (spec['components'] ?? {}) as Record<string, unknown>;
  return {
    ...spec,
    info: {
      title: 'Social Fidelity — API di integrazione',
      version: 'v1',
      description:
        'API per le casse degli esercenti e per l\u2019app dei clienti. Ogni richiesta porta ' +
        '`Authorization: Bearer <chiave>`: la chiave è creata da un amministratore nella schermata «Chiavi API», ' +
        'vale solo per il suo esercente e per i suoi permessi (403 altrimenti); una chiave revocata riceve 401. ' +
        'Le scritture accettano `Idempotency-Key`: la stessa richiesta ripetuta produce un solo movimento e la stessa risposta. ' +
        'Limite di richieste per chiave, su tutte le operazioni insieme: oltre, 429 con `Retry-After` (e, per indirizzo, ' +
        'un limite ai tentativi con chiavi non valide).\n\n' +
        '**La tessera e il suo codice.** Ogni tessera ha un codice segreto di 10 caratteri che il numero stampato non rivela: ' +
        'il QR e il codice a barre della tessera contengono `<numero>-<codice>` (es. `2790000000018-K7PXM2QD9W`), il testo ' +
        'stampato sotto il codice a barre solo il numero. `cardNumber` accetta il numero da solo o ciò che la cassa ha letto, ' +
        'così com\u2019è; in alternativa il codice va in `cardCode` (in `GET /cards/…`: nel percorso, nella forma letta, ' +
        'oppure nell\u2019intestazione `X-Card-Code`). Regole: **riscattare un premio richiede il codice**, con qualsiasi chiave; ' +
        'una chiave dell\u2019**app** richiede il codice per ogni operazione su una tessera; la chiave di un **esercente** può ' +
        'leggere una tessera (o inviare una prova) col solo numero se il cliente è iscritto a uno dei suoi programmi, e ' +
        'registrare un acquisto col solo numero (il primo acquisto iscrive il cliente al programma). Un codice mancante dove ' +
        'serve: 403 `card_code_required`; un codice sbagliato, o una tessera che la chiave non può vedere, ricevono la stessa ' +
        'risposta di una tessera inesistente (404). Un buono di un programma a cui l\u2019esercente non partecipa risponde come ' +
        'un codice inesistente (404). Le chiavi di un esercente sospeso o archiviato ricevono 403.\n\n' +
        '**Gli errori.** Ogni risposta di errore ha la stessa forma: `{ "error": { "code", "message", "fields", "requestId" } }`. ' +
        '`code` è stabile (es. `voucher_used`, `insufficient_balance`, `validation`): è quello che la cassa deve leggere. ' +
        '`fields` c\u2019è negli errori di validazione (400) e nomina ogni campo sbagliato con il suo messaggio. ' +
        '`requestId` identifica la richiesta nei log del server: citarlo quando si chiede assistenza. ' +
        '**La lingua**: `message` e i messaggi di `fields` sono in italiano, salvo che la richiesta porti `Accept-Language` ' +
        'con l\u2019inglese come lingua preferita tra quelle che conosciamo (es. `Accept-Language: en`): allora in inglese. ' +
        'Una lingua diversa da italiano e inglese non cambia nulla: si risponde in italiano. I codici non cambiano mai con la lingua. ' +
        'Il corpo delle richieste va inviato come JSON (`Content-Type: application/json`; un altro tipo: 415), ' +
        'salvo lo screenshot di una prova (`multipart/form-data`).',
    },
    paths,
    tags: [{ name: TAG, description: 'Casse degli esercenti e app dei clienti' }],
    // The scheme the operations' `security` names, and only it: Swagger UI's Authorize then sends the key.
    components: { ...components, securitySchemes: { integrationKey: INTEGRATION_SECURITY_SCHEME } },
    security: [{ integrationKey: [] }],
  };
}

/** `/api/integration/v1` (docs/product.md D "Integration API"): tills and the customers' app, with an API key. */
export const integrationRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: SINGLE_FILE_LIMITS });
  // Bodies are JSON (and the proof's screenshot multipart): a text body is 415 like a form, rather than
  // a 400 about the body as a whole.
  app.removeContentTypeParser('text/plain');
  // The rate limits (per key across every route, per address for failed keys) are applied with the
  // key check itself, in access control (integration-limits.ts).
  const deps = { ...depsOf(app), cardCodeSecret: app.cardCodeSecret };

  app.post(
    '/purchases',
    {
      config: { integration: 'purchases:write'},
      schema: {
        tags: [TAG],
        summary: 'Registra un acquisto sulla tessera (punti o timbri secondo il programma)',
        description:
          'Con `Idempotency-Key` (8–200 caratteri): ripetere la stessa richiesta restituisce la prima risposta ' +
          '(intestazione `Idempotent-Replayed: true`) senza un secondo movimento; la stessa chiave con un altro corpo: 422. ' +
          'L\u2019esercente è quello della chiave (un altro: 403). `programId` serve solo se l\u2019esercente partecipa a più programmi.',
        security: [{ integrationKey: [] }],
        headers: idempotencyHeadersSchema,
        body: integrationPurchaseSchema.meta({
          example: { cardNumber: '2790000000018-K7PXM2QD9W', amountCents: 2450, receipt: '2026-000123' },
        }),
        response: {
          ...errorAnswers(400, 404, 409, 415, 422),
          201: integrationPurchaseResultSchema.meta({
            example: {
              entryId: 1042,
              cardNumber: '2790000000018',
              programId: '0b7f5c1e-4a52-4f3e-9d51-2f4a8f0c9a11',
              merchantId: '6c1d1b0e-2f7a-4b8e-8a3c-5d9e7f1a2b3c',
              points: 24,
              stamps: 0,
              amountCents: 2450,
              balance: 318,
              stampsBalance: 0,
              tier: 'Argento',
              createdAt: '2026-11-23T10:15:00.000+01:00',
            },
          }),
        },
      },
    },
    async (request, reply) => {
      const answer = await recordPurchase(deps, keyOf(request), request, request.body, request.headers['idempotency-key']);
      if (answer.isReplay) reply.header('Idempotent-Replayed', 'true');
      return reply.code(answer.status as 201).send(answer.body);
    },
  );

  app.get(
    '/cards/:cardNumber',
    {
      config: { integration: 'cards:read'},
      schema: {
        tags: [TAG],
        summary: 'Legge una tessera: iniziali del titolare, saldi, timbri, livello, punti in scadenza nei prossimi 30 giorni',
        description:
          'Nel percorso il numero della tessera, oppure ciò che la cassa ha letto dal QR o dal codice a barre (`2790000000018-K7PXM2QD9W`); ' +
          'il codice può anche arrivare nell\u2019intestazione `X-Card-Code`. La chiave dell\u2019app richiede il codice (403 `card_code_required`). ' +
          'La chiave di un esercente vede solo i programmi a cui l\u2019esercente partecipa e, senza codice, solo le tessere dei loro iscritti ' +
          '(le altre: 404, come una tessera inesistente).',
        security: [{ integrationKey: [] }],
        params: cardNumberParamSchema,
        headers: cardCodeHeadersSchema,
        response: {
          ...errorAnswers(400, 404),
          200: integrationCardSchema.meta({
            example: {
              cardNumber: '2790000000018',
              initials: 'M. R.',
              status: 'active',
              memberships: [
                {
                  programId: '0b7f5c1e-4a52-4f3e-9d51-2f4a8f0c9a11',
                  programName: 'Caffè Sospeso — Punti',
                  programType: 'points',
                  balance: 318,
                  stamps: 0,
                  stampsRequired: null,
                  tier: 'Argento',
                  expiring: [{ points: 40, expiresOn: '2026-12-31' }],
                },
              ],
            },
          }),
        },
      },
    },
    async (request) => readCard(deps, keyOf(request), { cardNumber: request.params.cardNumber, cardCode: request.headers['x-card-code'] }),
  );
  const voucherExample = {
    code: 'K7PX-M2QD-9WTR',
    status: 'issued',
    usable: true,
    reason: null,
    reward: { id: '3f2a9c4e-8b1d-4e7a-9c0f-1a2b3c4d5e6f', name: 'Cappuccino omaggio', programId: '0b7f5c1e-4a52-4f3e-9d51-2f4a8f0c9a11' },
    issuedAt: '2026-11-20T18:02:00.000+01:00',
    usedAt: null,
    validFrom: null,
    validUntil: '2026-12-31',
  };

  app.get(
    '/vouchers/:code',
    {
      config: { integration: 'vouchers:use'},
      schema: {
        tags: [TAG],
        summary: 'Verifica un buono alla cassa: stato, se è utilizzabile qui e ora, e se no perché',
        description: 'Non cambia nulla. `reason` è un codice: voucher_used, voucher_expired, voucher_not_issued, voucher_void, voucher_wrong_merchant, voucher_not_yet_valid.',
        security: [{ integrationKey: [] }],
        params: voucherCodeParamSchema,
        response: { 200: integrationVoucherSchema.meta({ example: voucherExample }), ...errorAnswers(400, 404) },
      },
    },
    async (request) => checkVoucherAtTill(deps, keyOf(request), request.params.code),
  );

  app.post(
    '/vouchers/:code/use',
    {
      config: { integration: 'vouchers:use'},
      schema: {
        tags: [TAG],
        summary: 'Usa un buono alla cassa: una volta sola (409 voucher_used), nella finestra del premio (409 voucher_expired)',
        description:
          'La risposta è il buono dopo l\u2019uso: `status: used`, `usable: false`, `reason: voucher_used` (non va offerto di nuovo). ' +
          'Con `Idempotency-Key` (8–200 caratteri, consigliata): ripetere la stessa richiesta, ad esempio dopo un timeout, restituisce ' +
          'la prima risposta (intestazione `Idempotent-Replayed: true`) invece di 409 `voucher_used`; la stessa chiave per un altro ' +
          'buono: 422 `idempotency_key_reused`; mentre la prima richiesta è ancora in corso: 409 `idempotency_key_in_flight`. ' +
          'Senza la chiave un secondo uso riceve 409 `voucher_used`.',
        security: [{ integrationKey: [] }],
        params: voucherCodeParamSchema,
        headers: optionalIdempotencyHeadersSchema,
        response: {
          ...errorAnswers(400, 404, 409, 422),
          200: integrationVoucherSchema.meta({
            example: { ...voucherExample, status: 'used', usable: false, reason: 'voucher_used', usedAt: '2026-11-23T10:20:00.000+01:00' },
          }),
        },
      },
    },
    async (request, reply) => {
      const answer = await useVoucherAtTill(deps, keyOf(request), request, request.params.code, request.headers['idempotency-key']);
      if (answer.isReplay) reply.header('Idempotent-Replayed', 'true');
      return answer.body;
    },
  );

  app.post(
    '/redemptions',
    {
      config: { integration: 'rewards:redeem'},
      schema: {
        tags: [TAG],
        summary: 'Riscatta un premio per una tessera: scala i punti (o i timbri) ed emette un buono, in un\u2019unica operazione',
        description:
          'Richiede il codice della tessera: `cardNumber` nella forma letta dal QR o dal codice a barre (`<numero>-<codice>`), ' +
          'oppure `cardCode` a parte; senza: 403 `card_code_required`; un codice sbagliato risponde come una tessera inesistente (404). ' +
          'Con `Idempotency-Key`: ripetere la richiesta restituisce lo stesso buono. 409: out_of_stock, reward_limit_reached, insufficient_balance, reward_not_available.',
        security: [{ integrationKey: [] }],
        headers: idempotencyHeadersSchema,
        body: integrationRedemptionSchema.meta({ example: { cardNumber: '2790000000018-K7PXM2QD9W', rewardId: '3f2a9c4e-8b1d-4e7a-9c0f-1a2b3c4d5e6f' } }),
        response: {
          ...errorAnswers(400, 404, 409, 415, 422),
          201: integrationRedemptionResultSchema.meta({
            example: {
              entryId: 1043,
              programId: '0b7f5c1e-4a52-4f3e-9d51-2f4a8f0c9a11',
              points: -100,
              stamps: 0,
              balance: 218,
              stampsBalance: 0,
              voucher: { code: 'K7PX-M2QD-9WTR', validUntil: '2026-12-31' },
            },
          }),
        },
      },
    },
    async (request, reply) => {
      const answer = await redeemForCard(deps, keyOf(request), request, request.body, request.headers['idempotency-key']);
      if (answer.isReplay) reply.header('Idempotent-Replayed', 'true');
      return reply.code(answer.status as 201).send(answer.body);
    },
  );

  app.post(
    '/proofs',
    {
      config: { integration: 'proofs:write'},
      schema: {
        tags: [TAG],
        summary: 'Invia la prova di un\u2019azione social (condivisione, recensione, check-in): un link e/o uno screenshot',
        description:
          'La prova attende l\u2019approvazione dello staff (Approvazioni); approvata, accredita il bonus del programma. ' +
          'Lo screenshot si carica prima con `POST /proofs/image` e si indica con `imageId`.',
        security: [{ integrationKey: [] }],
        headers: optionalIdempotencyHeadersSchema,
        body: integrationProofSchema.meta({
          example: {
            cardNumber: '2790000000018-K7PXM2QD9W',
            programId: '0b7f5c1e-4a52-4f3e-9d51-2f4a8f0c9a11',
            kind: 'review',
            url: 'https://www.example.com/recensioni/bar-centrale/12345',
            note: 'Recensione a cinque stelle',
          },
        }),
        response: {
          201: integrationProofResultSchema.meta({ example: { id: 77, kind: 'review', status: 'pending', createdAt: '2026-11-23T10:30:00.000+01:00' } }),
          ...errorAnswers(400, 404, 409, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const answer = await submitProofForCard(deps, keyOf(request), request, request.body, request.headers['idempotency-key']);
      if (answer.isReplay) reply.header('Idempotent-Replayed', 'true');
      return reply.code(201).send(answer.body);
    },
  );

  app.post(
    '/customers',
    {
      config: { integration: 'customers:write' },
      schema: {
        tags: [TAG],
        summary: 'Iscrive una persona dall\u2019app dei clienti a un programma: tessera, codice invito e iscrizione; il benvenuto parte da quel programma',
        description:
          'Solo per le chiavi dell\u2019**app** con il permesso `customers:write` (la chiave di un esercente: 403). ' +
          'I consensi sono quelli dati dalla persona nell\u2019app: il canale registrato è `app`. `programId` è un programma attivo ' +
          '(altrimenti 400 sul campo); il cliente vi è iscritto subito e, se il programma ha il benvenuto attivo e c\u2019è il consenso al ' +
          'servizio, riceve l\u2019e-mail di benvenuto di quel programma soltanto. `referrerCode` è il codice invito di chi l\u2019ha presentato. ' +
          'Con `Idempotency-Key` (obbligatoria): ripetere la stessa richiesta restituisce lo stesso cliente (intestazione ' +
          '`Idempotent-Replayed: true`), mai un secondo; la stessa chiave con un altro corpo: 422. Un indirizzo e-mail già usato: ' +
          '409 `already_used` sul campo `email`. La risposta non contiene il codice segreto della tessera: l\u2019app lo ottiene leggendo la tessera.',
        security: [{ integrationKey: [] }],
        headers: idempotencyHeadersSchema,
        body: integrationCustomerSchema.meta({
          example: {
            firstName: 'Giulia',
            lastName: 'Bianchi',
            email: 'giulia.bianchi@example.it',
            phone: '+393471234567',
            birthDate: '1990-04-12',
            consents: { service: { granted: true, noticeVersion: '2026-01' }, marketing: { granted: false, noticeVersion: '2026-01' } },
            referrerCode: 'K7PXM4QD',
            programId: '0b7f5c1e-4a52-4f3e-9d51-2f4a8f0c9a11',
          },
        }),
        response: {
          ...errorAnswers(400, 409, 415, 422),
          201: integrationCustomerResultSchema.meta({
            example: {
              customerId: '9d3c1f0a-6b2e-4c7d-8e9f-0a1b2c3d4e5f',
              cardNumber: '2790483920175',
              referralCode: 'TQ4MXR7C',
              membership: {
                id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
                programId: '0b7f5c1e-4a52-4f3e-9d51-2f4a8f0c9a11',
                balance: 0,
                stamps: 0,
                tier: null,
                joinedAt: '2026-11-23T10:40:00.000+01:00',
              },
            },
          }),
        },
      },
    },
    async (request, reply) => {
      const answer = await signUpCustomer(deps, keyOf(request), request, request.body, request.headers['idempotency-key']);
      if (answer.isReplay) reply.header('Idempotent-Replayed', 'true');
      return reply.code(answer.status as 201).send(answer.body);
    },
  );

  app.post(
    '/proofs/image',
    {
      config: { integration: 'proofs:write'},
      schema: {
        tags: [TAG],
        summary: 'Carica lo screenshot di una prova (multipart, campo "file"): PNG, JPEG, WebP o GIF, al massimo 5 MB',
        security: [{ integrationKey: [] }],
        consumes: ['multipart/form-data'],
        response: { 201: coverUploadResponseSchema, ...errorAnswers(400, 413, 415) },
      },
    },
    async (request, reply) => {
      const { bytes, fileName } = await readUploadedFile(request);
      const stored = await storeProofImage(
        { db: app.db, dataDir: app.env.dataDir, quotaBytes: app.env.UPLOAD_QUOTA_BYTES },
        keyCaller(keyOf(request), request).audit,
        { bytes, fileName, uploader: { apiKeyId: keyOf(request).id } },
      );
      return reply.code(201).send(stored);
    },
  );
};
