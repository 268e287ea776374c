import { isEventKind, type PriceConditions, priceConditionHolds } from "@/lib/domain/alert-conditions";
import { matchDigest, type TokenHashes } from "./digest";
import type { AlertState } from "./load";
import type { MatchChange } from "./record";
import type { CycleToken } from "./tokens";

/**
 * The match sets of the live alerts that are not token filters, as recordMatches takes them. A
 * price alert holds its token as a match while the price meets the condition, so it is recorded,
 * fired (at most once per cooldown) and armed again exactly as a token alert's match: it fires
 * when the price comes to the level or the move, and again after it went back and returns.
 * Event alerts (wallet, smart_money) hold no matches: one that held some as another kind is
 * emptied. Only the alerts whose digest changes are returned.
 */
export function otherKindChanges(alerts: readonly AlertState[], tokens: readonly CycleToken[], hashes: TokenHashes) {
  const changes: MatchChange[] = [];
  let at: Map<string, number> | undefined;
  for (const a of alerts) {
    let positions: number[] = [];
    if (a.kind === "price") {
      at ??= new Map(tokens.map((t, i) => [t.address, i]));
      const c = a.conditions as PriceConditions;
      const p = at.get(c.token_address);
      if (p !== undefined && priceConditionHolds(tokens[p], c)) positions = [p];
    } else if (!isEventKind(a.kind)) continue;
    const digest = matchDigest(hashes, positions);
    const addresses = positions.map((p) => tokens[p].address);
    if (digest !== a.matchDigest) changes.push({ alertId: a.id, digest, addresses });
  }
  return changes;
}
