import { describe, expect, it } from "vitest";
import { TOKEN_SORTS } from "@/lib/domain/vocab";
import { CHART_CANDLES, OVERVIEW_URLS, routeUrl, STREAM_PAGE_SIZE, viewAccess } from "./shared-views";

const token = `0x${"ab".repeat(20)}`;
const wallet = `0x${"cd".repeat(20)}`;
const access = (path: string) => viewAccess(routeUrl(path));

describe("shared views", () => {
  it("are what every dashboard refreshes, and the first page of each sort", () => {
    for (const url of Object.values(OVERVIEW_URLS)) expect([url, access(url)]).toEqual([url, "shared"]);
    for (const sort of TOKEN_SORTS) expect(access(`/api/tokens?sort=${sort}`)).toBe("shared");
    expect(access("/api/tokens")).toBe("shared");
    expect(access("/api/tokens?limit=50&sort=volume&page=1")).toBe("shared");
  });

  it("are each token's and wallet's first page of events, by type, and each token's chart in each timeframe", () => {
    for (const path of [
      `/api/events?limit=${STREAM_PAGE_SIZE}`,
      `/api/events?limit=${STREAM_PAGE_SIZE}&type=swap`,
      `/api/events?limit=50&token_address=${token}`,
      `/api/events?wallet_address=${wallet}&limit=25&page=1&type=transfer`,
      `/api/tokens/${token}/ohlcv?interval=1m&limit=${CHART_CANDLES}`,
      `/api/tokens/${token}/ohlcv?interval=1d&limit=${CHART_CANDLES}`,
    ]) {
      expect([path, access(path)]).toEqual([path, "shared"]);
    }
  });

  it("leave filters, deep pages and long pages of the same lists to an account", () => {
    for (const path of [
      "/api/tokens?page=2",
      "/api/tokens?limit=51",
      "/api/tokens?limit=200",
      "/api/tokens?limit=010",
      "/api/tokens?sort=nonsense",
      "/api/tokens?sort=volume&sort=newest",
      "/api/tokens?min_liquidity_usd=1000",
      "/api/tokens?exclude_flags=wash_trading",
      `/api/tokens?addresses=${token}`,
      "/api/events?limit=50&page=2",
      "/api/events?since=2024-01-01",
      "/api/events?order=asc",
      `/api/events?token_address=${token}&wallet_address=${wallet}`,
      // One spelling of an address, as the pages link it.
      `/api/events?token_address=${token.toUpperCase().replace("0X", "0x")}`,
      `/api/tokens/${token}/ohlcv?interval=1h&limit=500`,
      `/api/tokens/${token}/ohlcv?interval=1h&limit=${CHART_CANDLES}&from=2024-01-01`,
      `/api/tokens/${token}/ohlcv?interval=1h&limit=${CHART_CANDLES}&page=2`,
      "/api/status?verbose=1",
    ]) {
      expect([path, access(path)]).toEqual([path, "account"]);
    }
  });

  it("leave any other market read metered (search)", () => {
    expect(access("/search?q=pepe&limit=25")).toBe("metered");
  });
});
