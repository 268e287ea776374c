import { notFound } from "@/lib/api/errors";
import { marketOhlcv } from "@/lib/api/market-reads";
import { parsePath } from "@/lib/api/params";
import { addressSchema } from "@/lib/api/schemas/common";
import { withPublicRead } from "@/lib/auth/route";

/** A token's candles for the token page's chart: GET /v1/tokens/{address}/ohlcv's parameters and answer. */
export const GET = withPublicRead<{ address: string }>(async (req, { params }) => {
  const address = parsePath(params.address, addressSchema, "address");
  const candles = await marketOhlcv(address, req.nextUrl.searchParams);
  if (!candles) throw notFound(`Token ${address}`);
  return candles;
});
