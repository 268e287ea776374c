import { z } from "zod";
import type { AlertDefinition } from "@/lib/domain/alert-conditions";
import { ALERT_CHANNELS, ALERT_KINDS, ALERT_STATUSES, type AlertKind, DELIVERY_STATUSES } from "@/lib/domain/vocab";
import { parseBodyPart } from "../params";
import * as kinds from "./alert-conditions";
import { listEnvelope, paginationQuery, timestampSchema } from "./common";
import { labelSchema } from "./label";
import { tokenFilterBodySchema } from "./token-filter";

const name = labelSchema(200).meta({ description: "Human-readable label" });
const channel = z.enum(ALERT_CHANNELS).meta({ description: "email (default); webhook on Pro and API Tier" });
const webhookUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .max(2000)
  .meta({ description: "Target of the webhook channel" });
const optionalUrl = webhookUrl.optional();

const requireWebhookUrl = (a: { notification_channel?: string; webhook_url?: string }, ctx: z.RefinementCtx) => {
  if (a.notification_channel === "webhook" && !a.webhook_url) {
    ctx.addIssue({ code: "custom", path: ["webhook_url"], message: "is required for the webhook channel" });
  }
  if (a.webhook_url && a.notification_channel !== "webhook") {
    ctx.addIssue({ code: "custom", path: ["webhook_url"], message: "applies only to the webhook channel" });
  }
};

/** Each kind's conditions (lib/domain/alert-conditions.ts); `token` is the spec's token filter. */
const CONDITIONS = {
  token: tokenFilterBodySchema,
  wallet: kinds.walletConditionsSchema,
  price: kinds.priceConditionsSchema,
  smart_money: kinds.smartMoneyConditionsSchema,
} as const satisfies Record<AlertKind, z.ZodType>;

const KIND_TEXT =
  "What the alert watches: token (the default: tokens matching the filter of GET /v1/tokens), wallet (a wallet's " +
  "buys, sells, receipts, launches), price (a token's price crossing a level or moving by a percentage), " +
  "smart_money (buys by wallets classified smart_money; Pro and API Tier)";
const kindsList = ALERT_KINDS.join(", ");
const stored = [tokenFilterBodySchema, ...Object.values(kinds.storedConditionSchemas)] as const;
const storedConditions = z.union(stored).meta({ description: "The conditions of the alert's kind" });

const alertBody = <K extends z.ZodType, C extends z.ZodType>(kind: K, conditions: C) =>
  z.strictObject({ name, kind, conditions, notification_channel: channel.default("email"), webhook_url: optionalUrl });

/** A body without `kind` is a token-filter alert, exactly as the spec's POST /alerts. */
export const createAlertBody = z
  .discriminatedUnion(
    "kind",
    [
      alertBody(z.literal("token").optional().meta({ description: KIND_TEXT }), CONDITIONS.token),
      alertBody(z.literal("wallet").meta({ description: KIND_TEXT }), CONDITIONS.wallet),
      alertBody(z.literal("price").meta({ description: KIND_TEXT }), CONDITIONS.price),
      alertBody(z.literal("smart_money").meta({ description: KIND_TEXT }), CONDITIONS.smart_money),
    ],
    { error: (issue) => (issue.code === "invalid_union" ? `must be one of ${kindsList}` : undefined) },
  )
  .superRefine(requireWebhookUrl)
  .meta({ id: "CreateAlert" });

const CONDITION_IDS = ["AlertConditions", "WalletAlertConditions", "PriceAlertConditions", "SmartMoneyAlertConditions"];
const conditionRefs = CONDITION_IDS.map((id) => ({ $ref: `#/components/schemas/${id}` }));
const patchConditions = "The conditions of the alert's kind (of `kind` when given)";

/**
 * PATCH's conditions are read as the body's `kind`, else as the alert's own kind (an alert
 * changes kind only with conditions of the new one): see definitionOf.
 */
export const updateAlertBody = z
  .strictObject({
    name: name.optional(),
    kind: z
      .enum(ALERT_KINDS)
      .optional()
      .meta({ description: `${KIND_TEXT}. Changing it needs conditions of the new kind` }),
    conditions: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: patchConditions, override: { anyOf: conditionRefs } }),
    notification_channel: channel.optional(),
    webhook_url: webhookUrl.optional(),
    status: z.enum(ALERT_STATUSES).optional().meta({ description: "active or paused" }),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: "must change at least one field" })
  .refine((p) => p.kind === undefined || p.conditions !== undefined, {
    path: ["conditions"],
    message: "is required to change the kind",
  })
  .meta({ id: "UpdateAlert" });

/** `conditions` read as `kind`'s, refused with 400 naming the field (conditions.<field>). */
export function definitionOf(kind: AlertKind, conditions: unknown): AlertDefinition {
  return { kind, conditions: parseBodyPart(conditions, CONDITIONS[kind], "conditions") } as AlertDefinition;
}

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
    kind: z.enum(ALERT_KINDS).meta({ description: KIND_TEXT }),
    conditions: storedConditions,
    notification_channel: z.enum(ALERT_CHANNELS).meta({ description: "Delivery method: email or webhook" }),
    webhook_url: z.string().optional().meta({ description: "Target of the webhook channel" }),
    created_at: timestampSchema.meta({ description: "Creation time" }),
    last_triggered_at: timestampSchema
      .nullable()
      .meta({ description: "Time the alert last fired; null when it never has" }),
  })
  .meta({ id: "Alert" });

export const createdAlert = alert
  .omit({ last_triggered_at: true })
  .extend({
    webhook_secret: z.string().optional().meta({ description: "HMAC key for webhook signatures, shown once" }),
  })
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
