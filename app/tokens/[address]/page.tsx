import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Address } from "@/components/address";
import { DEFAULT_CHART_INTERVAL, formatPrice, ohlcvUrl } from "@/components/charts/candles";
import { CandlestickChart } from "@/components/charts/candlestick-chart";
import { RiskGauge } from "@/components/charts/risk-gauge";
import { TokenCreator } from "@/components/creators/token-creator";
import { formatDateTime } from "@/components/format";
import { Flash } from "@/components/live/flash";
import { LiveRefresh } from "@/components/live/live-provider";
import { RiskFlags } from "@/components/risk";
import { ScoreBreakdown } from "@/components/score-breakdown";
import { FlagEvidenceList } from "@/components/tokens/flag-evidence";
import { MarketFigures } from "@/components/tokens/market-figures";
import { SecurityPanel } from "@/components/tokens/security-panel";
import { TokenPools } from "@/components/tokens/token-pools";
import { TokenTrades } from "@/components/tokens/token-trades";
import { TopHolders } from "@/components/tokens/top-holders";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { ConfidenceBadge, NetActivityBadge } from "@/components/wallet-badges";
import { addressParam } from "@/lib/api/address-param";
import { marketOhlcv, tokenPage } from "@/lib/api/market-reads";
import { RISK_DIMENSIONS, type RiskLevel } from "@/lib/domain/vocab";
import { RISK_DIMENSION_LABELS } from "@/lib/scoring/score-labels";
import { WINDOWS } from "@/lib/scoring/weights";

/** The tab names the token and its price ("AREGA $0.00094"), so ten open tokens can be told apart. */
export async function generateMetadata({ params }: PageProps<"/tokens/[address]">): Promise<Metadata> {
  const address = addressParam((await params).address);
  const page = address && (await tokenPage(address));
  if (!page) return { title: "Token not found" };
  const { symbol, price_usd } = page.token;
  return { title: price_usd > 0 ? `${symbol} ${formatPrice(price_usd)}` : symbol };
}

export default async function TokenPage({ params }: PageProps<"/tokens/[address]">) {
  const { address: raw } = await params;
  const address = addressParam(raw);
  if (!address) notFound();
  // The chart's first candles are the ones its JSON route answers (one shared cache entry).
  const [page, candles] = await Promise.all([
    tokenPage(address),
    marketOhlcv(address, new URL(ohlcvUrl(address, DEFAULT_CHART_INTERVAL), "http://dashboard").searchParams),
  ]);
  if (!page || !candles) notFound();
  const { token, score, trades, pools } = page;

  return (
    <>
      {/* The figures rendered here read again as blocks touch the token (trades and chart refetch themselves). */}
      <LiveRefresh scope={{ token: token.address }} />
      <PageHeader
        title={
          <>
            {token.name} <span className="text-zinc-500 dark:text-zinc-400">{token.symbol}</span>
          </>
        }
        subtitle={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <Address value={token.address} chars={6} />
            <span>Launched on {token.launchpad}</span>
            <span>{formatDateTime(token.created_at)}</span>
          </span>
        }
      >
        <RiskFlags flags={token.risk_flags} />
      </PageHeader>

      <MarketFigures token={token} />

      <div className="mb-4 grid items-start gap-4 lg:grid-cols-3">
        <div className="min-w-0 space-y-4 lg:col-span-2">
          <Card title="Pool price (USD) after each swap or liquidity change, and volume">
            <CandlestickChart address={token.address} initial={{ interval: DEFAULT_CHART_INTERVAL, data: candles }} />
          </Card>
          <Card title={`Pools (${pools.total})`}>
            {pools.data.length ? (
              <TokenPools pools={pools.data} token={token.address} symbol={token.symbol} />
            ) : (
              <EmptyState title="No pool trades it yet." />
            )}
          </Card>
        </div>
        <div className="min-w-0 space-y-4">
          <Card title="Can it be sold?">
            <SecurityPanel security={token.security} />
          </Card>
          <Card title="Risk">
            {score ? (
              <div className="space-y-3">
                <Flash>
                  <RiskGauge score={score.risk_score} level={score.risk_level as RiskLevel} />
                </Flash>
                <ScoreBreakdown
                  rows={RISK_DIMENSIONS.map((key) => ({
                    key,
                    label: RISK_DIMENSION_LABELS[key],
                    value: score.dimensions[key],
                  }))}
                  weights={score.weights}
                  missing={score.missing_dimensions}
                  weighted={score.weighted_score}
                  score={score.risk_score}
                  adjustments={score.adjustments}
                  worseWhenHigh
                />
                <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
                  <ConfidenceBadge value={score.confidence} /> Higher is riskier. Method {score.method_version}.
                </p>
              </div>
            ) : (
              <EmptyState title="Not scored yet.">The scoring engine has not reached this token.</EmptyState>
            )}
          </Card>
        </div>
      </div>

      <div className="mb-4 grid gap-4 lg:grid-cols-3">
        <Card title="Summary" className="lg:col-span-2">
          <p className="text-sm leading-relaxed">{token.ai_summary || "No summary written yet."}</p>
        </Card>
        <Card title="Creator">
          <TokenCreator token={token} />
        </Card>
      </div>

      <div className="mb-4 grid gap-4 lg:grid-cols-5">
        <Card title="Risk flags and evidence" className="lg:col-span-2">
          <FlagEvidenceList evidence={score?.flag_evidence ?? []} />
        </Card>
        <Card title="Top holders" className="lg:col-span-3">
          {score && (
            <dl className="mb-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
              <div className="flex gap-1.5">
                <dt className="text-zinc-500">Early movers</dt>
                <dd
                  className="tabular-nums"
                  title={`Wallets that bought within ${WINDOWS.earlyMoverBlocks} blocks of the launch`}
                >
                  {score.top_holder_summary.early_mover_count || `none in the first ${WINDOWS.earlyMoverBlocks} blocks`}
                </dd>
              </div>
              {/* Without early movers there is no movement to describe (the field's "holding" is only its default). */}
              {score.top_holder_summary.early_mover_count > 0 && (
                <div className="flex gap-1.5">
                  <dt className="text-zinc-500">Early movers are</dt>
                  <dd>
                    <NetActivityBadge value={score.top_holder_summary.early_mover_net_activity} />
                  </dd>
                </div>
              )}
              <div className="flex gap-1.5">
                <dt className="text-zinc-500">Mean reputation, top 10</dt>
                <dd className="tabular-nums">{Math.round(score.top_holder_summary.avg_reputation_top10)}</dd>
              </div>
            </dl>
          )}
          <TopHolders holders={token.top_holders} />
        </Card>
      </div>

      <Card
        title="Trades"
        action={
          <Link
            href={`/events?token_address=${token.address}`}
            className="text-xs text-indigo-700 hover:underline dark:text-indigo-300"
          >
            All events of {token.symbol} →
          </Link>
        }
      >
        <TokenTrades token={token.address} symbol={token.symbol} initial={trades} />
      </Card>
    </>
  );
}
