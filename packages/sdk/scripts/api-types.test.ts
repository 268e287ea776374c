import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateApiTypes, TYPES_FILE } from "./api-types";

describe("the SDK's generated types", () => {
  it("are what the current OpenAPI document generates (run `npm run sdk:types` after changing the API)", async () => {
    expect(readFileSync(TYPES_FILE, "utf8") === (await generateApiTypes())).toBe(true);
  });
});
