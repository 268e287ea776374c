import { generateDataset } from "@/scripts/dataset";
const t = performance.now();
await generateDataset({ tokens: 10000, wallets: 20000, events: 500000, seed: 1, now: new Date("2026-03-01T12:00:00Z") }, { add() {} });
console.log(((performance.now() - t) / 1000).toFixed(1), "s");
