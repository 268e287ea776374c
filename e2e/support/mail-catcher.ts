import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type CaughtEmail = { to: string | string[]; subject: string; text: string };

/**
 * A Resend-compatible endpoint on loopback for the app's RESEND_BASE_URL: POST /emails keeps
 * the message, GET /emails lists them for the tests (which run in other processes).
 */
export async function startMailCatcher() {
  const caught: CaughtEmail[] = [];
  const server = createServer(async (req, res) => {
    if (req.method === "POST" && req.url === "/emails") {
      let body = "";
      for await (const chunk of req) body += chunk;
      caught.push(JSON.parse(body) as CaughtEmail);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `email_${caught.length}` }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(caught));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
