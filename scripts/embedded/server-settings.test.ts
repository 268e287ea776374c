import { describe, expect, it } from "vitest";
import { indexerServerSettings, settingFlags } from "./server-settings";

const GB = 1024 ** 3;

describe("indexerServerSettings", () => {
  it.each([
    [0.25 * GB, "128MB"],
    [2 * GB, "512MB"],
    [24 * GB, "6144MB"],
    [256 * GB, "8192MB"],
  ])("gives a machine of %d bytes %s of shared buffers", (memory, sharedBuffers) => {
    expect(indexerServerSettings(memory)).toEqual({
      shared_buffers: sharedBuffers,
      max_wal_size: "8GB",
      checkpoint_timeout: "15min",
    });
  });

  it("passes each setting as one -c flag", () => {
    expect(settingFlags(indexerServerSettings(24 * GB))).toEqual([
      "-c",
      "shared_buffers=6144MB",
      "-c",
      "max_wal_size=8GB",
      "-c",
      "checkpoint_timeout=15min",
    ]);
  });
});
