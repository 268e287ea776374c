import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Address } from "@/components/address";
import { LaunchesTable } from "@/components/creators/launches-table";
import { launchesSentence } from "@/components/creators/words";
import { formatCompact, formatDateTime, formatSignedUsd, formatUsd, humanize, shortAddress } from "@/components/format";
import { Flash } from "@/components/live/flash";
import { LiveRefresh } from "@/components/live/live-provider";
import { ScoreBreakdown } from "@/components/score-breakdown";
import { searchOf } from "@/components/search-params";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Stat } from "@/components/ui/stat";
import { numClass, rowClass, TableFrame, TableHead, tdClass } from "@/components/ui/table";
import { ClassificationBadge, ConfidenceBadge } from "@/components/wallet-badges";
import { PositionsTable } from "@/components/wallets/positions-table";
import { WalletEvents } from "@/components/wallets/wallet-events";
import { walletEventsSearch } from "@/components/wallets/wallet-events-search";
import { addressParam } from "@/lib/api/address-param";
import { marketEvents, walletPage } from "@/lib/api/market-reads";
import { pageView } from "@/lib/auth/market-access";
import { EVENT_TYPES, REPUTATION_DIMENSIONS } from "@/lib/domain/vocab";
import { REPUTATION_DIMENSION_LABELS } from "@/lib/scoring/score-labels";
import { MIN_CLOSED_POSITIONS } from "@/lib/scoring/weights";

/** The tab names the wallet ("Wallet 0x1234…abcd · smart money"), so ten open wallets can be told apart. */
export async function generateMetadata({ params }: PageProps<"/wallets/[address]">): Promise<Metadata> {
  const address = addressParam((await params).address);
  const page = address && (await walletPage(address));
  if (!page) return { title: "Wallet not found" };
  return { title: `Wallet ${shortAddress(page.wallet.address, 4)} · ${humanize(page.wallet.classification)}` };
}

export default async function WalletPage({ params, searchParams }: PageProps<"/wallets/[address]">) {
  const { address: raw } = await params;
  const address = addressParam(raw);
  if (!address) notFound();
  const search = searchOf(await searchParams);
  const type = search.get("type");
  const eventsSearch = walletEventsSearch(
    address,
    EVENT_TYPES.some((t) => t === type) ? type : null,
    search.get("page"),
  );
  const events = pageView(`/api/events?${eventsSearch}`, () => marketEvents(eventsSearch));
  const [page, eventsView] = await Promise.all([walletPage(address), events]);
  if (!page) notFound();
  const { wallet, score, positions, launches } = page;
  const portfolioValue = wallet.portfolio.reduce((sum, h) => sum + h.value_usd, 0);
  // Below the minimum of closed trades a win rate or a PnL confidence says more about luck than the wallet.
  const closed = score?.closed_trades ?? 0;
  const enoughClosed = closed >= MIN_CLOSED_POSITIONS;
  const closedTrades = `${closed} closed trade${closed === 1 ? "" : "s"}`;
  const tooFewClosed = `${closedTrades}; ${MIN_CLOSED_POSITIONS} needed to rate it`;

  return (
    <>
      {/* The figures rendered here read again as blocks touch the wallet (its events refetch themselves). */}
      <LiveRefresh scope={{ wallet: wallet.address }} />
      <PageHeader
        title={<Address value={wallet.address} chars={6} />}
        subtitle={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <ClassificationBadge value={wallet.classification} />
            <span>Prefers {humanize(wallet.sector_preference)} tokens</span>
            <span>First seen {formatDateTime(wallet.first_seen)}</span>
          </span>
        }
      />

      <dl className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat
          label="Estimated PnL"
          value={
            <span
              className={
                wallet.pnl_estimate_usd >= 0
                  ? "text-emerald-700 dark:text-emerald-400"
                  : "text-red-700 dark:text-red-400"
              }
            >
              <Flash>{formatSignedUsd(wallet.pnl_estimate_usd)}</Flash>
            </span>
          }
          hint={enoughClosed ? <ConfidenceBadge value={wallet.pnl_confidence} /> : tooFewClosed}
        />
        <Stat
          label="Portfolio value"
          value={<Flash>{formatUsd(portfolioValue)}</Flash>}
          hint={`${wallet.portfolio.length} tokens held`}
        />
        <Stat
          label="Reputation"
          value={<Flash>{`${Math.round(wallet.reputation_score)} / 100`}</Flash>}
          hint={<ConfidenceBadge value={wallet.reputation_confidence} />}
        />
        <Stat label="Trades" value={<Flash>{formatCompact(wallet.trade_count)}</Flash>} />
      </dl>

      <div className="mb-4 grid gap-4 lg:grid-cols-3">
        <Card title="Reputation breakdown">
          {score ? (
            <div className="space-y-3">
              <ScoreBreakdown
                rows={REPUTATION_DIMENSIONS.map((key) => {
                  const value = score.dimensions[key];
                  // win_rate is a fraction; the composite takes it ×100.
                  return key === "win_rate"
                    ? {
                        key,
                        label: REPUTATION_DIMENSION_LABELS[key],
                        value: value * 100,
                        display: `${(value * 100).toFixed(0)}%`,
                      }
                    : { key, label: REPUTATION_DIMENSION_LABELS[key], value };
                })}
                weights={score.weights}
                missing={score.missing_dimensions}
                weighted={score.weighted_score}
                score={score.reputation_score}
                adjustments={score.adjustments}
                worseWhenHigh={false}
              />
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                Higher is better. {enoughClosed ? closedTrades : tooFewClosed}. Method {score.method_version}.
              </p>
            </div>
          ) : (
            <EmptyState title="Not scored yet." />
          )}
        </Card>
        <Card title="Portfolio" className="lg:col-span-2">
          {wallet.portfolio.length ? (
            <TableFrame label="Portfolio" maxHeight>
              <table className="w-full text-sm">
                <TableHead
                  cells={["Token", { label: "Quantity", numeric: true }, { label: "Value", numeric: true }]}
                  sticky
                />
                <tbody>
                  {wallet.portfolio.map((h) => (
                    <tr key={h.token_address} className={rowClass}>
                      <td className={tdClass}>
                        <Link
                          href={`/tokens/${h.token_address}`}
                          className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                        >
                          {h.token_symbol}
                        </Link>
                      </td>
                      <td className={`${tdClass} ${numClass}`}>{formatCompact(h.quantity)}</td>
                      <td className={`${tdClass} ${numClass}`}>{formatUsd(h.value_usd)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
          ) : (
            <EmptyState title="Holds no indexed tokens." />
          )}
        </Card>
      </div>

      {wallet.launches.total > 0 && (
        <section id="launches" className="mb-4 scroll-mt-4">
          <Card title={`Launches (${wallet.launches.total})`}>
            <p className="mb-3 text-sm" data-launches-summary>
              This wallet {launchesSentence(wallet.launches)}.
            </p>
            <LaunchesTable launches={launches.data} />
            {launches.total > launches.data.length && (
              <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400">
                The {launches.data.length} newest of {launches.total}; GET /v1/wallets/{wallet.address}/launches lists
                them all.
              </p>
            )}
          </Card>
        </section>
      )}

      <Card title={`Positions (${positions.total})`} className="mb-4">
        {positions.data.length ? (
          <PositionsTable positions={positions.data} />
        ) : (
          <EmptyState title="No positions yet.">The wallet has not bought or sold an indexed token.</EmptyState>
        )}
      </Card>

      <Card title="Event history">
        <WalletEvents
          wallet={address}
          types={EVENT_TYPES}
          initial={{ search: eventsSearch.toString(), ...eventsView }}
        />
      </Card>
    </>
  );
}
