import { type NextRequest, NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { addressParam } from "@/lib/api/address-param";
import { ApiError } from "@/lib/api/errors";
import { errorResponse, newRequestId } from "@/lib/api/response";
import { isIndexed } from "@/lib/queries/indexed-address";

/** A dashboard page of one address: /tokens/0x… or /wallets/0x…. */
const ADDRESS_PAGE = /^\/(token|wallet)s\/([^/]+)\/?$/;

/**
 * Next.js decodes dynamic path segments before a route handler runs and answers a bare 500
 * when one is not valid percent-encoding; catch that here so the client gets a 400 with the
 * API's error body instead.
 */
function refuseUndecodablePath(req: NextRequest) {
  try {
    decodeURIComponent(req.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    const err = new ApiError("INVALID_PARAMS", "The path is not valid percent-encoding.", "path");
    return errorResponse(err, newRequestId());
  }
}

const notIndexed = (req: NextRequest) => NextResponse.rewrite(new URL("/_address-not-indexed", req.url));

/**
 * A token's or a wallet's page answers 404 when the address is malformed or not indexed. The
 * pages stream (their loading skeletons go out first), and a streamed page can no longer change
 * its status once it finds nothing: so the address is checked here, before the page renders,
 * and a miss is the app's not-found page (a path no route has) with its 404.
 */
async function addressPage(req: NextRequest, kind: "token" | "wallet", raw: string) {
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    segment = "";
  }
  const address = addressParam(segment);
  if (!address) return notIndexed(req);
  try {
    return (await isIndexed(getDb(), kind, address)) ? NextResponse.next() : notIndexed(req);
  } catch {
    // The database cannot say: the page renders, and says what went wrong itself.
    return NextResponse.next();
  }
}

export function proxy(req: NextRequest) {
  const page = ADDRESS_PAGE.exec(req.nextUrl.pathname);
  if (page) return addressPage(req, page[1] as "token" | "wallet", page[2]);
  return refuseUndecodablePath(req);
}

export const config = { matcher: ["/v1/:path*", "/tokens/:address", "/wallets/:address"] };
