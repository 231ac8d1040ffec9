// PGlite is PostgreSQL inside one process: a second process that opens the
// same folder neither sees the first one's writes nor keeps its own. Every
// process that opens a PGlite folder holds this lock first, a file beside the
// folder naming the holder, so that a second one is refused before it writes.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";

export interface LockHolder {
  pid: number;
  /** How the holder was started, to name it to whoever is refused. */
  command: string;
  /** Where the holder serves HTTP, once it does. */
  url?: string;
}

/** Another process holds the folder: the message says which, and what to do instead. */
export class DataDirectoryInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
  ) {
    const who = holder
      ? `process ${holder.pid} (${holder.command}${holder.url ? `, serving ${holder.url}` : ""})`
      : "another process";
    super(
      `the PGlite database ${dataDir} is in use by ${who}; PGlite serves one process: ` +
        `stop it first, then run this again (lock file ${lockPathOf(dataDir)})`,
    );
  }
}

export interface DataDirectoryLock {
  release(): void;
}

/** Locks held by this process, by lock file: released on exit, refused a second time. */
const held = new Map<string, LockHolder>();
let releaseOnExit = false;

export function lockPathOf(dataDir: string): string {
  return `${path.resolve(dataDir)}.lock`;
}

function currentCommand(): string {
  const [, script = "", ...args] = process.argv;
  const relative = path.relative(process.cwd(), script);
  const shown = relative !== "" && !relative.startsWith("..") ? relative : script;
  return [shown, ...args].join(" ").slice(0, 200);
}

function readHolder(lockPath: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<LockHolder>;
    if (typeof parsed.pid !== "number" || typeof parsed.command !== "string") return null;
    return {
      pid: parsed.pid,
      command: parsed.command,
      url: typeof parsed.url === "string" ? parsed.url : undefined,
    };
  } catch {
    // Being written by a process that has just created it, or not ours: held.
    return null;
  }
}

/** False only when no process with that id runs: EPERM means one runs as someone else. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A lock whose holder has ended (killed, crashed) is stale. One naming this
 * process's own id but not held here is too: a container restarted gives its
 * process the same id as the one before.
 */
function isStale(lockPath: string, holder: LockHolder): boolean {
  if (holder.pid === process.pid) return !held.has(lockPath);
  return !isRunning(holder.pid);
}

function createExclusively(lockPath: string, holder: LockHolder): boolean {
  let descriptor: number;
  try {
    // O_EXCL: of two processes creating it at once, exactly one succeeds.
    descriptor = openSync(lockPath, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(descriptor, JSON.stringify(holder));
  } finally {
    closeSync(descriptor);
  }
  return true;
}

function removeIfOurs(lockPath: string): void {
  if (readHolder(lockPath)?.pid !== process.pid) return;
  try {
    unlinkSync(lockPath);
  } catch {
    // Already gone.
  }
}

/** Takes the folder's lock, or throws DataDirectoryInUseError naming its holder. */
export function lockDataDirectory(dataDir: string): DataDirectoryLock {
  const lockPath = lockPathOf(dataDir);
  const holder: LockHolder = { pid: process.pid, command: currentCommand() };
  mkdirSync(path.dirname(lockPath), { recursive: true });
  if (!createExclusively(lockPath, holder)) {
    const current = readHolder(lockPath);
    if (current === null || !isStale(lockPath, current)) throw new DataDirectoryInUseError(dataDir, current);
    try {
      unlinkSync(lockPath);
    } catch {
      // Another process removed the stale lock first; creating decides between us.
    }
    if (!createExclusively(lockPath, holder)) {
      throw new DataDirectoryInUseError(dataDir, readHolder(lockPath));
    }
  }
  held.set(lockPath, holder);
  if (!releaseOnExit) {
    releaseOnExit = true;
    // Whatever way the process ends with Node still running it, the lock goes.
    process.once("exit", () => {
      for (const lock of held.keys()) removeIfOurs(lock);
    });
  }
  return {
    release() {
      if (!held.delete(lockPath)) return;
      removeIfOurs(lockPath);
    },
  };
}

/** Adds the address this process serves HTTP at to the locks it holds, for the message another process gets. */
export function noteServingUrl(url: string): void {
  for (const [lockPath, holder] of held) {
    holder.url = url;
    writeFileSync(lockPath, JSON.stringify(holder));
  }
}
