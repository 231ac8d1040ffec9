import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "prisma/config";

const root = path.dirname(fileURLToPath(import.meta.url));

// Prisma's engine binaries cannot be downloaded here. `prisma generate` only
// needs the variable to name an existing file; the stub fails loudly if any
// command really tries to run the schema engine (migrations are applied by
// `npm run db:migrate`, authored by `npm run db:migration`).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(root, "scripts/schema-engine-unavailable.sh");

export default defineConfig({
  schema: path.join(root, "prisma/schema.prisma"),
  migrations: { path: path.join(root, "prisma/migrations") },
});
