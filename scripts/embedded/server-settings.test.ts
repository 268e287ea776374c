import { describe, expect, it } from "vitest";
import { indexerServerSettings } from "./server-settings";

const GB = 1024 ** 3;
const settingsOf = (flags: string[]) =>
  Object.fromEntries(flags.filter((_, i) => i % 2 === 1).map((f) => f.split("=") as [string, string]));

describe("indexerServerSettings", () => {
  it.each([
    [0.25 * GB, "128MB"],
    [2 * GB, "512MB"],
    [24 * GB, "6144MB"],
    [256 * GB, "8192MB"],
  ])("gives a machine of %d bytes %s of shared buffers", (memory, sharedBuffers) => {
    expect(settingsOf(indexerServerSettings(memory))).toEqual({
      shared_buffers: sharedBuffers,
      max_wal_size: "8GB",
      checkpoint_timeout: "15min",
    });
  });

  it("passes each setting as one -c flag", () => {
    const flags = indexerServerSettings(24 * GB);
    expect(flags.filter((_, i) => i % 2 === 0)).toEqual(["-c", "-c", "-c"]);
  });
});
