import { type NextRequest, NextResponse } from "next/server";
import { ApiError, errorBody } from "@/lib/api/errors";
import { randomBase62 } from "@/lib/keys/secret";

/**
 * Next.js decodes dynamic path segments before a route handler runs and answers a bare 500
 * when one is not valid percent-encoding; catch that here so the client gets a 400 with the
 * API's error body instead.
 */
export function proxy(req: NextRequest) {
  try {
    decodeURIComponent(req.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    const requestId = `req_${randomBase62(20)}`;
    const err = new ApiError("INVALID_PARAMS", "The path is not valid percent-encoding.", "path");
    return NextResponse.json(errorBody(err, requestId), { status: 400, headers: { "X-Request-Id": requestId } });
  }
}

export const config = { matcher: "/v1/:path*" };
