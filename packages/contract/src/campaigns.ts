import { z } from 'zod';
import { exportQuerySchema, listPageSchema, listQuerySchema } from './list-query.ts';
import { serviceEmailKindSchema, withKnownPlaceholders } from './service-emails.ts';
import { BOUNDS } from './validation.ts';

/** E-mail campaigns to consenting customers (issue 28; Campagne, admins). */
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'cancelled'] as const;
export const campaignStatusSchema = z.enum(CAMPAIGN_STATUSES);
export type CampaignStatus = z.infer<typeof campaignStatusSchema>;

/** One recipient's state: queued → sent / failed / skipped; `unknown` after a crash mid-send (never retried by itself). */
export const RECIPIENT_STATUSES = ['queued', 'sending', 'sent', 'failed', 'skipped', 'unknown'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export const CAMPAIGN_BOUNDS = {
  nameMax: 120,
  subjectMax: 150,
  preheaderMax: 200,
  inactiveDaysMax: 3650,
} as const;

/**
 * The placeholders a campaign's subject and body may use: the ones the renderer fills in per recipient
 * (apps/api messages.service.ts, `renderCampaignTemplate`/`personalise`, which builds on this list).
 * Any other is refused on save (`unknownPlaceholder`, naming the field), as the service e-mails' texts
 * are: it would reach every recipient as written.
 */
export const CAMPAIGN_PLACEHOLDERS = ['nome'] as const;
export type CampaignPlaceholder = (typeof CAMPAIGN_PLACEHOLDERS)[number];

const subjectText = withKnownPlaceholders(z.string().trim().min(1).max(CAMPAIGN_BOUNDS.subjectMax), CAMPAIGN_PLACEHOLDERS);
const bodyText = withKnownPlaceholders(z.string().max(BOUNDS.newsBodyMax), CAMPAIGN_PLACEHOLDERS);

/**
 * A text with nothing to read: the rich-text editor's empty "<p></p>", spaces, no-break spaces. An
 * image is something to see. A campaign is not sent with it (the editor asks first, the API refuses).
 */
export function isBlankBody(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;|\s/g, '') === '';
}

/**
 * The filters an operator chooses. The system always adds: marketing consent granted now, no
 * processing block, customer active (not blocked or erased), an e-mail address present.
 */
export const campaignAudienceSchema = z.object({
  programId: z.uuid().nullable().default(null),
  merchantId: z.uuid().nullable().default(null),
  tier: z.string().trim().min(1).max(60).nullable().default(null),
  /** Last purchase (or none at all) older than this many days. */
  inactiveDays: z.number().int().min(1).max(CAMPAIGN_BOUNDS.inactiveDaysMax).nullable().default(null),
  birthdayMonth: z.number().int().min(1).max(12).nullable().default(null),
  /** Joined a program (the chosen one, or any) on or after this day (yyyy-MM-dd, business time zone). */
  joinedAfter: z.iso.date().nullable().default(null),
});
export type CampaignAudience = z.infer<typeof campaignAudienceSchema>;

/** The same filters in a query string (the live count while the operator edits). */
export const campaignAudienceQuerySchema = z.object({
  programId: z.uuid().optional(),
  merchantId: z.uuid().optional(),
  tier: z.string().trim().min(1).max(60).optional(),
  inactiveDays: z.coerce.number().int().min(1).max(CAMPAIGN_BOUNDS.inactiveDaysMax).optional(),
  birthdayMonth: z.coerce.number().int().min(1).max(12).optional(),
  joinedAfter: z.iso.date().optional(),
});
export type CampaignAudienceQuery = z.infer<typeof campaignAudienceQuerySchema>;

export const audienceSampleSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});

export const audienceAnswerSchema = z.object({
  count: z.number().int(),
  /** Five recipients, to see who the filters reach. */
  sample: z.array(audienceSampleSchema),
});
export type AudienceAnswer = z.infer<typeof audienceAnswerSchema>;

export const campaignCountsSchema = z.object({
  recipients: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  unknown: z.number().int(),
  /** Recipients who unsubscribed through this campaign's link. */
  unsubscribed: z.number().int(),
});
export type CampaignCounts = z.infer<typeof campaignCountsSchema>;

export const campaignSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  subject: z.string(),
  preheader: z.string(),
  /** Sanitised HTML (the news editor's allow-list, on the server). */
  body: z.string(),
  audience: campaignAudienceSchema,
  status: campaignStatusSchema,
  counts: campaignCountsSchema,
  scheduledAt: z.iso.datetime({ offset: true }).nullable(),
  sentAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  version: z.number().int(),
});
export type Campaign = z.infer<typeof campaignSchema>;

const campaignFields = {
  name: z.string().trim().min(1).max(CAMPAIGN_BOUNDS.nameMax),
  subject: subjectText,
  preheader: z.string().trim().max(CAMPAIGN_BOUNDS.preheaderMax).default(''),
  body: bodyText.default(''),
  audience: campaignAudienceSchema.default({
    programId: null,
    merchantId: null,
    tier: null,
    inactiveDays: null,
    birthdayMonth: null,
    joinedAfter: null,
  }),
};

export const createCampaignSchema = z.strictObject(campaignFields);
export type CreateCampaign = z.infer<typeof createCampaignSchema>;

/** A draft or scheduled campaign may change; `version` as read (409 version_conflict). */
export const updateCampaignSchema = z.strictObject({
  name: campaignFields.name.optional(),
  subject: campaignFields.subject.optional(),
  preheader: z.string().trim().max(CAMPAIGN_BOUNDS.preheaderMax).optional(),
  body: bodyText.optional(),
  audience: campaignAudienceSchema.optional(),
  version: z.number().int(),
});
export type UpdateCampaign = z.infer<typeof updateCampaignSchema>;

/** Without scheduledAt: now. With it (in the future): the campaign waits as `scheduled`. */
export const sendCampaignSchema = z.strictObject({
  scheduledAt: z.iso.datetime({ offset: true }).optional(),
});
export type SendCampaign = z.infer<typeof sendCampaignSchema>;

/**
 * The list's sort fields: `date` is the day the list shows (sent, else scheduled, else last changed);
 * `recipients` and `sent` are the report's counts. Newest first by default, as before the list kit.
 */
export const CAMPAIGN_SORT_FIELDS = ['name', 'status', 'date', 'recipients', 'sent', 'createdAt'] as const;
export type CampaignSortField = (typeof CAMPAIGN_SORT_FIELDS)[number];

/** `q` searches the campaign's name. */
export const listCampaignsQuerySchema = listQuerySchema({
  sort: CAMPAIGN_SORT_FIELDS,
  defaultSort: 'createdAt',
  defaultOrder: 'desc',
  filters: { status: campaignStatusSchema.optional() },
});
export type ListCampaignsQuery = z.infer<typeof listCampaignsQuerySchema>;
export const exportCampaignsQuerySchema = exportQuerySchema(listCampaignsQuerySchema);
export type ExportCampaignsQuery = z.infer<typeof exportCampaignsQuerySchema>;

export const campaignPageSchema = listPageSchema(campaignSchema);

export const testSendAnswerSchema = z.object({ to: z.string() });

/** A message sent to one customer (the customer page's "Messaggi" panel, the access export). */
export const customerMessageSchema = z.object({
  /** Unique in the list: `campaign:<campaign id>` or `service:<message id>`. */
  id: z.string(),
  /** A campaign, or a service e-mail (welcome, voucher, birthday, expiring points). */
  kind: z.enum(['campaign', 'service']),
  /** The campaign (null for a service e-mail). */
  campaignId: z.uuid().nullable(),
  /** Which service e-mail (null for a campaign). */
  serviceKind: serviceEmailKindSchema.nullable(),
  subject: z.string(),
  status: z.enum(RECIPIENT_STATUSES),
  sentAt: z.iso.datetime({ offset: true }).nullable(),
  unsubscribedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type CustomerMessage = z.infer<typeof customerMessageSchema>;
export const customerMessagesSchema = z.object({ items: z.array(customerMessageSchema) });
