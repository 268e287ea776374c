import { generateDataset } from "@/scripts/dataset/generate";
const counts: Record<string, number> = {};
const t = Date.now();
let bytes = 0;
let peak = 0;
const [tokens, wallets, events] = process.argv.slice(2).map(Number);
await generateDataset({ tokens, wallets, events, seed: 1, now: new Date("2026-03-01T12:00:00Z") }, {
  add(t, r) { counts[t] = (counts[t] ?? 0) + 1; for (const v of r) bytes += v === null ? 2 : v.length + 1; },
  async drain() { peak = Math.max(peak, process.memoryUsage().rss); },
});
console.log(counts, (Date.now() - t) / 1000, "s", Math.round(bytes / 1e6), "MB text", Math.round(peak / 1e6), "MB peak rss");
