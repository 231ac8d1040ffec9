import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

export interface ProfileSummary {
  file: string;
  /** Sampled time when the process was not idle. */
  busyMs: number;
  categories: { name: string; ms: number; percent: number }[];
  topFunctions: { name: string; where: string; ms: number; percent: number }[];
}

// Checked in order; the first match names the cost.
const CATEGORIES: [RegExp, string][] = [
  [/^wasm:\/\//, "Prisma query compiler (wasm)"],
  [/\/generated\/prisma\/|\/node_modules\/@prisma\/client\//, "Prisma client (row mapping, Decimal, Date)"],
  [/\/node_modules\/@prisma\/(adapter-pg|driver-adapter-utils)\//, "Prisma pg adapter"],
  [/\/node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-[a-z]+)\//, "node-postgres"],
  [/\/node_modules\/decimal\.js/, "decimal.js"],
  [/\/node_modules\/@pothos\//, "Pothos (selection mapping, resolvers)"],
  [/\/node_modules\/graphql\//, "graphql-js (execute, validate, parse)"],
  [/\/node_modules\/(graphql-yoga|@graphql-yoga|@envelop|@escape\.tech)\//, "Yoga / envelop / armor"],
  [/\/node_modules\/(sofa-api|fets|qs|param-case)\//, "SOFA / fets"],
  [/\/node_modules\/@whatwg-node\//, "whatwg-node (Request/Response over node:http)"],
  [/\/node_modules\/(pino|sonic-boom|fast-redact|thread-stream|on-exit-leak-free)\//, "pino (request log)"],
  [/\/node_modules\/graphql-scalars\//, "graphql-scalars (DateTime)"],
  [/\/node_modules\/([^/]+)\//, "other packages"],
  [/\/(dist\/)?src\/rest\//, "gateway: REST adapter"],
  [/\/(dist\/)?src\/schema\//, "gateway: schema resolvers"],
  [/\/(dist\/)?src\//, "gateway: other"],
  [/\/(dist\/)?bench\//, "peer code"],
  [/^node:internal\/deps\/undici/, "Node: undici (fetch, Request, Headers)"],
  [/^node:(_http|internal\/http|http)/, "Node: http"],
  [/^node:(net|internal\/(stream|streams|net))/, "Node: streams and sockets"],
  [/^node:/, "Node: other internals"],
];

function categorise(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  if (functionName === "(garbage collector)") return "garbage collection";
  if (functionName === "(program)") return "V8 / native (program)";
  if (url === "") return functionName === "stringify" ? "JSON.stringify" : "V8 builtins and native code";
  for (const [pattern, name] of CATEGORIES) if (pattern.test(url)) return name;
  return "other";
}

/** The newest .cpuprofile in `dir`, or null. */
export function newestProfile(dir: string): string | null {
  try {
    const files = readdirSync(dir)
      .filter((file) => file.endsWith(".cpuprofile"))
      .map((file) => path.join(dir, file));
    files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    return files[0] ?? null;
  } catch {
    return null;
  }
}

/** Self time by where the code comes from, and the hottest functions, from a `node --cpu-prof` file. */
export function summariseProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples.length);

  const categories = new Map<string, number>();
  const functions = new Map<string, { name: string; where: string; ms: number }>();
  let busyMs = 0;
  for (const node of profile.nodes) {
    const ms = (hits.get(node.id) ?? 0) * msPerSample;
    if (ms === 0 || node.callFrame.functionName === "(idle)") continue;
    busyMs += ms;
    const category = categorise(node);
    categories.set(category, (categories.get(category) ?? 0) + ms);
    const where = node.callFrame.url
      ? `${node.callFrame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(dist\/)?/, "")}:${node.callFrame.lineNumber + 1}`
      : "(native)";
    const name = node.callFrame.functionName || "(anonymous)";
    const key = `${name} ${where}`;
    const entry = functions.get(key) ?? { name, where, ms: 0 };
    entry.ms += ms;
    functions.set(key, entry);
  }
  const percent = (ms: number) => Math.round((ms / busyMs) * 1000) / 10;
  const round = (ms: number) => Math.round(ms);
  return {
    file,
    busyMs: round(busyMs),
    categories: [...categories.entries()]
      .map(([name, ms]) => ({ name, ms: round(ms), percent: percent(ms) }))
      .sort((a, b) => b.ms - a.ms),
    topFunctions: [...functions.values()]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top)
      .map((entry) => ({ ...entry, ms: round(entry.ms), percent: percent(entry.ms) })),
  };
}
