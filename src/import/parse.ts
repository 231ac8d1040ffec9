// First pass over an import file: its shape, record by record, without the database.
import { z } from "zod";
import {
  type ParsedRecords,
  RECORD_KINDS,
  RECORD_SCHEMAS,
  type RecordKind,
  TOP_LEVEL_KEYS,
} from "./format.js";
import { type ImportProblem, issueMessage, problemsFromIssues } from "./problems.js";

/**
 * One record of the file. `record` is null when the record is malformed (its
 * problems are reported); `id` is still kept when it is a valid UUID, so that
 * references to a malformed record do not also read as dangling, and `raw`
 * lets its other references be checked too.
 */
export interface Entry<T> {
  index: number;
  id: string | null;
  record: T | null;
  raw: unknown;
}

export type ParsedFile = { [K in RecordKind]: Entry<ParsedRecords[K]>[] };

const uuid = z.uuid();

/** A field of a record as written, when it is a UUID; ids are compared lowercase. */
export function rawUuid(value: unknown, field: string): string | null {
  if (typeof value !== "object" || value === null || !(field in value)) return null;
  const id = (value as Record<string, unknown>)[field];
  return typeof id === "string" && uuid.safeParse(id).success ? id.toLowerCase() : null;
}

function parseKind<K extends RecordKind>(kind: K, value: unknown, problems: ImportProblem[]): ParsedFile[K] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push({ path: kind, message: "must be a list" });
    return [];
  }
  const schema = RECORD_SCHEMAS[kind];
  const entries: Entry<ParsedRecords[K]>[] = [];
  value.forEach((item: unknown, index) => {
    const result = schema.safeParse(item, { error: issueMessage });
    if (result.success) {
      const record = result.data as ParsedRecords[K];
      entries.push({ index, id: "id" in record ? record.id : null, record, raw: item });
    } else {
      problems.push(...problemsFromIssues(result.error.issues, [kind, index]));
      entries.push({ index, id: rawUuid(item, "id"), record: null, raw: item });
    }
  });
  return entries as ParsedFile[K];
}

/** Checks the file's shape and every record's fields; reports every problem, not the first. */
export function parseImportFile(input: unknown): { file: ParsedFile; problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  const empty = Object.fromEntries(RECORD_KINDS.map((kind) => [kind, []])) as unknown as ParsedFile;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    problems.push({ path: "", message: "the file must hold one JSON object" });
    return { file: empty, problems };
  }
  const top = input as Record<string, unknown>;
  for (const key of Object.keys(top)) {
    if (!TOP_LEVEL_KEYS.includes(key)) {
      problems.push({ path: key, message: `unknown top-level key (expected ${TOP_LEVEL_KEYS.join(", ")})` });
    }
  }
  if (top.version === undefined) problems.push({ path: "version", message: "is required and must be 1" });
  else if (top.version !== 1) problems.push({ path: "version", message: "must be 1" });
  const file = { ...empty };
  for (const kind of RECORD_KINDS) {
    (file as Record<RecordKind, unknown>)[kind] = parseKind(kind, top[kind], problems);
  }
  return { file, problems };
}
