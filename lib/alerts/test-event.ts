import type { Db } from "@/db/client";
import { Forbidden, InvalidInput } from "@/lib/domain/errors";
import { randomBase62 } from "@/lib/keys/secret";
import { type AlertOwner, findOwnedAlert } from "@/lib/queries/alerts";
import { planOfAccount } from "@/lib/queries/plans";
import { webhooksRefused } from "./service";
import type { WebhookTransport } from "./webhook";

export type TestEventResult = { delivered: boolean; message: string };

/**
 * A test event for one of an account's webhook alerts, sent at once to its saved URL and signed
 * with its secret, as a delivery is (the same headers; type "alert.test", no tokens), so its
 * owner sees whether the receiver answers and verifies the signature. Nothing is recorded.
 */
export async function sendTestEvent(
  db: Db,
  owner: AlertOwner,
  id: string,
  transport: WebhookTransport,
): Promise<TestEventResult> {
  const alert = await findOwnedAlert(db, owner, id);
  if (alert.notificationChannel !== "webhook" || !alert.webhookUrl || !alert.webhookSecret) {
    throw new InvalidInput("notification_channel", "Only an alert delivered by webhook takes a test event.");
  }
  const plan = await planOfAccount(db, owner.accountId);
  if (!plan.webhooks) throw new Forbidden(webhooksRefused(plan), "notification_channel");
  const eventId = `test_${randomBase62(20)}`;
  const body = JSON.stringify({
    id: eventId,
    type: "alert.test",
    alert: { id: alert.id, name: alert.name, kind: alert.kind, conditions: alert.conditions },
    triggered_at: new Date().toISOString(),
    matches: [],
    total_matches: 0,
  });
  const result = await transport.send(alert.webhookUrl, alert.webhookSecret, eventId, body);
  if (result.ok) return { delivered: true, message: "The test event was delivered: your webhook answered 2xx." };
  // A delivery's words, less its promise to retry: a test event is sent once.
  return {
    delivered: false,
    message: `The test event was not delivered. ${result.error.replace(/; we retry\.$/, ".")}`,
  };
}
