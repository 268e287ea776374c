import { readDb } from "@/db/read-replicas";
import { cached } from "@/lib/api/cache";
import { notFound } from "@/lib/api/errors";
import { route, withApiKey } from "@/lib/api/handler";
import { JsonBody } from "@/lib/api/json-body";
import { parsePath, parseQuery } from "@/lib/api/params";
import { addressSchema } from "@/lib/api/schemas/common";
import { walletEventListQuery } from "@/lib/api/schemas/events";
import { walletEventListJson } from "@/lib/queries/events";
import { walletExists } from "@/lib/queries/wallets";

/** One wallet's trade history (items carry no wallet_address). */
export const { GET, POST, PUT, PATCH, DELETE } = route<{ address: string }>({
  GET: withApiKey(async (_req, { url, key, params }) => {
    const q = parseQuery(url, walletEventListQuery);
    const address = parsePath(params.address, addressSchema, "address");
    const db = readDb();
    return cached(key.dataVersion, url.pathname + url.search, async () => {
      if (!(await walletExists(db, address))) throw notFound(`Wallet ${address}`);
      return JsonBody.fromText(await walletEventListJson(db, address, q));
    });
  }),
});
