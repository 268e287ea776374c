import type { Metadata } from "next";
import Link from "next/link";
import { UsageChart } from "@/components/charts/usage-chart";
import { KeyLimits } from "@/components/plan/key-limits";
import { MeteredUsage } from "@/components/plan/metered-usage";
import { PlanCards } from "@/components/plan/plan-cards";
import { RedirectButton } from "@/components/plan/redirect-button";
import { SubscriptionStatus } from "@/components/plan/subscription-status";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { getDb } from "@/db/client";
import { requireAccount } from "@/lib/auth/account";
import { contractOf, keysWithLimits } from "@/lib/billing/contract";
import { monthlyUsage } from "@/lib/billing/metering";
import { getBilling } from "@/lib/billing/stripe";
import { billingSummary } from "@/lib/billing/summary";
import { config } from "@/lib/config";
import { requestTime } from "@/lib/queries/clock";
import { listPlans } from "@/lib/queries/plans";
import { dailyUsageByKey } from "@/lib/queries/usage";

export const metadata: Metadata = { title: "Plan and usage" };

const USAGE_DAYS = 14;
/** A note above the plans; its caller gives its colours. */
const NOTE_CLASS = "mb-4 rounded-md border px-3 py-2 text-sm";
const CODE_CLASS = "font-mono text-xs";
const CHANGE_PLAN =
  "To change or cancel your plan, use Manage billing; a cancellation takes effect at the end of the period paid for.";

export default async function PlanPage({ searchParams }: { searchParams: Promise<{ checkout?: string }> }) {
  const account = await requireAccount("/plan");
  const { checkout } = await searchParams;
  const db = getDb();
  const now = requestTime();
  const billingConfigured = getBilling() !== null;
  const apiTier = account.plan === "api_tier";
  const [plans, usage, month, summary, contract, keys] = await Promise.all([
    listPlans(db),
    dailyUsageByKey(db, account.id, USAGE_DAYS, now),
    monthlyUsage(db, account.id, now),
    billingSummary(db, account.id),
    contractOf(db, account.id),
    apiTier ? keysWithLimits(db, account.id) : [],
  ]);
  const apiTierPlan = plans.find((p) => p.id === "api_tier")!;
  const subscribed = summary.subscription?.entitled ?? false;

  return (
    <>
      <PageHeader
        title="Plan and usage"
        subtitle={
          <>
            <p>
              You are on the <strong data-testid="current-plan">{account.planLabel}</strong> plan.
            </p>
            <SubscriptionStatus subscription={summary.subscription} />
          </>
        }
      >
        {billingConfigured && summary.hasCustomer && (
          <RedirectButton url="/api/billing/portal" label="Manage billing" variant="secondary" />
        )}
      </PageHeader>
      {checkout === "done" && !subscribed && (
        <p
          className={`${NOTE_CLASS} border-indigo-200 bg-indigo-50 dark:border-indigo-900 dark:bg-indigo-950`}
          data-testid="checkout-pending"
        >
          Thank you. The plan changes as soon as Stripe confirms the payment, usually within seconds: reload this page.
        </p>
      )}
      {!billingConfigured && (
        <p
          className={`${NOTE_CLASS} border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900`}
          data-testid="billing-not-configured"
        >
          Billing is not configured on this server, so plans are changed by its operator: ask them to change yours.
          {config.onEmbeddedDefaults && (
            <>
              {" "}
              On <code className={CODE_CLASS}>npm start</code>&rsquo;s embedded defaults you are the operator:{" "}
              <code className={CODE_CLASS} data-testid="set-plan-command">
                {`npm run --silent keys -- set-plan ${account.id} pro`}
              </code>
              .
            </>
          )}
        </p>
      )}
      <section aria-labelledby="plans-heading" className="mb-6">
        <h2 id="plans-heading" className="sr-only">
          Plans
        </h2>
        <PlanCards
          plans={plans}
          current={account.plan}
          action={(p) =>
            billingConfigured && !subscribed && p.id !== "free" ? (
              <RedirectButton
                url="/api/billing/checkout"
                body={{ plan: p.id }}
                label={`Subscribe to ${p.label}`}
                className="mt-3"
              />
            ) : null
          }
        />
        <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400">
          Minute limits slide over any 60 seconds; daily limits reset at 00:00 UTC. API Tier keys can carry limits of
          their own.
          {billingConfigured && subscribed && ` ${CHANGE_PLAN}`}
        </p>
      </section>
      <section aria-labelledby="month-heading" className="mb-6">
        <h2 id="month-heading" className="mb-3 text-lg font-semibold">
          This month
        </h2>
        <MeteredUsage usage={month} metered={apiTier && summary.hasCustomer} />
      </section>
      {apiTier && keys.length > 0 && (
        <section aria-labelledby="key-limits-heading" className="mb-6">
          <h2 id="key-limits-heading" className="mb-3 text-lg font-semibold">
            Key limits
          </h2>
          <KeyLimits
            keys={keys}
            defaults={{ perMinute: apiTierPlan.ratePerMinute, perDay: apiTierPlan.ratePerDay }}
            contract={{ perMinute: contract.maxRatePerMinute, perDay: contract.maxRatePerDay }}
          />
        </section>
      )}
      <section aria-labelledby="usage-heading">
        <h2 id="usage-heading" className="mb-3 text-lg font-semibold">
          Requests per day, last {USAGE_DAYS} days
        </h2>
        {usage.length === 0 ? (
          <EmptyState title="No keys yet.">
            <Link href="/keys" className="text-indigo-700 underline dark:text-indigo-300">
              Create an API key
            </Link>{" "}
            to start using the API.
          </EmptyState>
        ) : (
          <div className="grid gap-4 lg:grid-cols-2">
            {usage.map((u) => (
              <Card
                key={u.keyId}
                title={
                  <>
                    {u.name} <span className="font-mono font-normal text-zinc-500">{u.prefix}…</span>
                    {u.revoked && <span className="ml-2 text-xs font-normal text-zinc-500">revoked</span>}
                  </>
                }
              >
                <UsageChart usage={u} />
              </Card>
            ))}
          </div>
        )}
      </section>
    </>
  );
}
