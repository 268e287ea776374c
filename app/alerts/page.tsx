import type { Metadata } from "next";
import Link from "next/link";
import { AlertBuilder } from "@/components/alerts/alert-builder";
import { AlertList } from "@/components/alerts/alert-list";
import { FailingWebhooks } from "@/components/alerts/failing-webhooks";
import { formatInteger } from "@/components/format";
import { tokenFilterFields } from "@/components/tokens/filter-fields";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db/client";
import { webhookDomain } from "@/lib/alerts/host-breaker";
import { requireAccount } from "@/lib/auth/account";
import { listKeys } from "@/lib/keys/store";
import { countActiveAlerts, listAccountAlerts } from "@/lib/queries/account-alerts";
import { failingWebhookTargets } from "@/lib/queries/failing-webhooks";
import { listPlans, type PlanLimits } from "@/lib/queries/plans";

export const metadata: Metadata = { title: "Alerts" };

/** The plan's alert rules in words, from the plans table. */
function PlanLimitNote({ plan, plans, active }: { plan: PlanLimits; plans: PlanLimits[]; active: number }) {
  const larger = plans
    .filter((p) => p.maxActiveAlerts > plan.maxActiveAlerts)
    .map((p) => `${p.label} (${formatInteger(p.maxActiveAlerts)})`);
  const withWebhooks = plans.filter((p) => p.webhooks).map((p) => p.label);
  const withSmartMoney = plans.filter((p) => p.smartMoneyAlerts).map((p) => p.label);
  return (
    <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="alert-limit">
      Your {plan.label} plan allows <strong>{formatInteger(plan.maxActiveAlerts)}</strong> active alerts;{" "}
      <strong>{active}</strong> in use. Paused alerts do not count: pause or delete one to make room
      {larger.length > 0 && (
        <>
          , or{" "}
          <Link href="/plan" className="text-indigo-700 underline dark:text-indigo-300">
            switch
          </Link>{" "}
          to {larger.join(" or ")} for more
        </>
      )}
      . Webhook delivery comes with {withWebhooks.join(" and ")}, smart-money alerts with {withSmartMoney.join(" and ")}
      . A token or price alert fires when a token newly matches, at most once every 15 minutes; a wallet or smart-money
      alert fires on each block with matching events, listing them.
    </p>
  );
}

const SUBTITLE =
  "Token filters, wallets, prices and smart-money buys that notify you by email or webhook when they fire.";

export default async function AlertsPage() {
  const account = await requireAccount("/alerts");
  const db = getDb();
  const [alerts, keys, plans, active, failing] = await Promise.all([
    listAccountAlerts(db, account.id),
    listKeys(db, account.id),
    listPlans(db),
    countActiveAlerts(db, account.id),
    failingWebhookTargets(db, account.id),
  ]);
  const plan = plans.find((p) => p.id === account.plan)!;
  const fields = tokenFilterFields();
  return (
    <>
      <PageHeader title="Alerts" subtitle={SUBTITLE} />
      <div className="space-y-4">
        <PlanLimitNote plan={plan} plans={plans} active={active} />
        <FailingWebhooks targets={failing.map((t) => ({ ...t, domain: webhookDomain(t.url) }))} />
        <Card title="New alert">
          <AlertBuilder
            fields={fields}
            keys={keys.filter((k) => !k.revokedAt).map((k) => ({ id: k.id, name: k.name, prefix: k.prefix }))}
            webhooks={plan.webhooks}
            smartMoney={plan.smartMoneyAlerts}
            email={account.email}
          />
        </Card>
        <section aria-labelledby="alerts-heading">
          <h2 id="alerts-heading" className="mb-3 text-lg font-semibold">
            Your alerts
          </h2>
          <AlertList
            alerts={alerts}
            fields={fields}
            webhooks={plan.webhooks}
            smartMoney={plan.smartMoneyAlerts}
            email={account.email}
          />
        </section>
      </div>
    </>
  );
}
