import { z } from "zod";
import { ALERT_CHANNELS, ALERT_STATUSES, DELIVERY_STATUSES } from "@/lib/domain/vocab";
import { listEnvelope, paginationQuery, timestampSchema } from "./common";
import { labelSchema } from "./label";
import { tokenFilterBodySchema } from "./token-filter";

const name = labelSchema(200).meta({ description: "Human-readable label" });
const channel = z.enum(ALERT_CHANNELS).meta({ description: "email (default); webhook on Pro and API Tier" });
const webhookUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .max(2000)
  .meta({ description: "Target of the webhook channel" });

const requireWebhookUrl = (a: { notification_channel?: string; webhook_url?: string }, ctx: z.RefinementCtx) => {
  if (a.notification_channel === "webhook" && !a.webhook_url) {
    ctx.addIssue({ code: "custom", path: ["webhook_url"], message: "is required for the webhook channel" });
  }
  if (a.webhook_url && a.notification_channel !== "webhook") {
    ctx.addIssue({ code: "custom", path: ["webhook_url"], message: "applies only to the webhook channel" });
  }
};

export const createAlertBody = z
  .strictObject({
    name,
    conditions: tokenFilterBodySchema,
    notification_channel: channel.default("email"),
    webhook_url: webhookUrl.optional(),
  })
  .superRefine(requireWebhookUrl)
  .meta({ id: "CreateAlert" });

export const updateAlertBody = z
  .strictObject({
    name: name.optional(),
    conditions: tokenFilterBodySchema.optional(),
    notification_channel: channel.optional(),
    webhook_url: webhookUrl.optional(),
    status: z.enum(ALERT_STATUSES).optional().meta({ description: "active or paused" }),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: "must change at least one field" })
  .meta({ id: "UpdateAlert" });

export const alertListQuery = z.object({
  status: z
    .enum([...ALERT_STATUSES, "all"])
    .default("active")
    .meta({ description: "active (default), paused or all" }),
  ...paginationQuery,
});

export const alertIdParam = z.string().regex(/^alrt_[0-9A-Za-z]{20}$/, "is not an alert id");

export const alert = z
  .object({
    id: z.string().meta({ description: "Alert id (alrt_...), assigned on creation" }),
    name: z.string().meta({ description: "Human-readable label" }),
    status: z.enum(ALERT_STATUSES).meta({ description: "active or paused" }),
    conditions: tokenFilterBodySchema,
    notification_channel: z.enum(ALERT_CHANNELS).meta({ description: "Delivery method: email or webhook" }),
    webhook_url: z.string().optional().meta({ description: "Target of the webhook channel" }),
    created_at: timestampSchema.meta({ description: "Creation time" }),
    last_triggered_at: timestampSchema.nullable().meta({ description: "Time the alert last fired; null when it never has" }),
  })
  .meta({ id: "Alert" });

export const createdAlert = alert
  .omit({ last_triggered_at: true })
  .extend({ webhook_secret: z.string().optional().meta({ description: "HMAC key for webhook signatures, shown once" }) })
  .meta({ id: "CreatedAlert" });

export const delivery = z
  .object({
    id: z.string().meta({ description: "Alert id (alrt_...), assigned on creation" }),
    channel: z.enum(ALERT_CHANNELS).meta({ description: "Delivery method" }),
    status: z.enum(DELIVERY_STATUSES).meta({ description: "active or paused" }),
    attempts: z.number().int().meta({ description: "Delivery attempts so far" }),
    created_at: timestampSchema.meta({ description: "Creation time" }),
    sent_at: timestampSchema.nullable().meta({ description: "When it was delivered; null until then" }),
    last_error: z.string().nullable().meta({ description: "Why the last attempt failed; null when none did" }),
    tokens: z.array(z.string()).meta({ description: "Addresses of the tokens the delivery announced" }),
  })
  .meta({ id: "Delivery" });

export const alertDetail = alert
  .extend({ deliveries: z.array(delivery).meta({ description: "The alert's recent deliveries, newest first" }) })
  .meta({ id: "AlertDetail" });
export const alertList = listEnvelope(alert, "AlertList");
