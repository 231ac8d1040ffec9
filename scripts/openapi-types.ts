// npm run openapi:types: writes the typed-client types for the current document.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { API_TYPES_FILE, renderApiTypes } from "../tools/api-types.js";

mkdirSync(path.dirname(API_TYPES_FILE), { recursive: true });
writeFileSync(API_TYPES_FILE, await renderApiTypes());
console.log(`wrote ${API_TYPES_FILE}`);
