// The pools' settings at the configuration table's defaults, for tests that
// open a database themselves: openDatabase has no defaults of its own.
import { poolOptions } from "../../src/config/database-options.js";
import { DEFAULT_CONFIG } from "../../src/config.js";

export const CONFIGURED_POOL = poolOptions(DEFAULT_CONFIG);
