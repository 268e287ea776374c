import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generateApiTypes, TYPES_FILE } from "./api-types";

/** Writes the SDK's generated types; run from the repository root (`npm run sdk:types`). */
const source = await generateApiTypes();
mkdirSync(path.dirname(TYPES_FILE), { recursive: true });
writeFileSync(TYPES_FILE, source);
console.log(`wrote ${TYPES_FILE} (${source.length} bytes)`);
