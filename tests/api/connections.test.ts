import { Agent, get as httpGet } from "node:http";
import { expect, inject, it } from "vitest";

/** A GET through `agent`: its status, and whether it went on a connection already open. */
const get = (url: string, agent: Agent) =>
  new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
    const req = httpGet(url, { agent }, (res) => {
      res.resume().on("end", () => resolve({ status: res.statusCode!, reused: req.reusedSocket }));
    });
    req.on("error", reject);
  });

// A client (Node's own agent, a browser, a proxy) keeps an idle connection a few seconds and then
// reuses it. Were the server to drop it first, at Node's 5 s, the two would race and the client
// would read ECONNRESET on a request it never got an answer to.
it("keeps an idle connection open past Node's 5 s, and answers the next request on it", async () => {
  const url = `${inject("baseUrl")}/v1/status`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1, timeout: 60_000 });
  try {
    expect(await get(url, agent)).toEqual({ status: 200, reused: false });
    await new Promise((r) => setTimeout(r, 6_000));
    expect(await get(url, agent)).toEqual({ status: 200, reused: true });
  } finally {
    agent.destroy();
  }
});
