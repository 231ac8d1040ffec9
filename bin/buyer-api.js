#!/usr/bin/env node
// The CLI is compiled to dist/ by `npm run build`; this shim only loads it.
try {
  await import("../dist/src/cli/main.js");
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/src/cli/main.js")) {
    console.error("buyer-api is not built yet: run `npm run build` first");
    process.exitCode = 1;
  } else {
    throw error;
  }
}
