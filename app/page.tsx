import type { Metadata } from "next";
import Link from "next/link";
import { LiveOverview } from "@/components/home/live-overview";
import { buttonClass } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { panelClass } from "@/components/ui/surfaces";
import { marketEvents, marketStatus, marketTokens } from "@/lib/api/market-reads";
import { auth } from "@/lib/auth";
import { OVERVIEW_URLS } from "@/lib/queries/shared-views";

export const metadata: Metadata = { title: "Market" };

const SUBTITLE = "Trending tokens, new launches and on-chain events as the indexer sees them.";
const searchOf = (url: string) => new URL(url, "http://dashboard").searchParams;

/** The home page: the live market for everyone; a signed-out visitor first reads what the product is. */
export default async function HomePage() {
  const [session, trending, newest, events, status] = await Promise.all([
    auth(),
    marketTokens(searchOf(OVERVIEW_URLS.trending)),
    marketTokens(searchOf(OVERVIEW_URLS.newest)),
    marketEvents(searchOf(OVERVIEW_URLS.events)),
    marketStatus(),
  ]);
  const signedIn = Boolean(session?.user?.id);
  return (
    <>
      {!signedIn && (
        <section aria-label="About" className={`mb-6 ${panelClass} p-5`}>
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">
            Every token and wallet on the chain, scored for risk and reputation as it trades.
          </h1>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            Onchain Intel indexes launches, swaps and liquidity, and serves them with risk scores, flags and wallet
            reputations through a JSON API and this dashboard. Browse freely; sign in for alerts and API keys.
          </p>
          <div className="mt-4 flex flex-wrap gap-2">
            <Link href="/tokens" className={buttonClass("primary")}>
              Screen tokens
            </Link>
            <Link href="/docs" className={buttonClass("secondary")}>
              Read the API reference
            </Link>
            <Link href="/signin" className={buttonClass("secondary")}>
              Sign in for alerts and keys
            </Link>
          </div>
        </section>
      )}
      {signedIn ? (
        <PageHeader title="Market" subtitle={SUBTITLE} />
      ) : (
        <div className="mb-4">
          <h2 className="text-lg font-semibold tracking-tight">Live market</h2>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{SUBTITLE}</p>
        </div>
      )}
      <LiveOverview initial={{ trending, newest, events, status }} />
    </>
  );
}
