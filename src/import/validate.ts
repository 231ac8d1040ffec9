// Validation of a whole import file: its shape (parse.ts) and then every
// reference, against the file itself and the database. Nothing is written here;
// a file with no problems becomes an ImportPlan for write.ts.
import { hashApiKey, visibleKeyPrefix } from "../auth/api-key-format.js";
import type { SqlQuery } from "../db/sql-connection.js";
import { TAGGABLE_RECORDS, TAGGABLE_TYPES, type TaggableType } from "../domain/tagging.js";
import { orList } from "../domain/word-lists.js";
import {
  type ExistingRecords,
  findApiKeyOwners,
  findExisting,
  findSupplierUserEmails,
  type LookupKind,
} from "../services/import-lookups.js";
import type {
  ApprovalRecord,
  BuyerProductRecord,
  BuyerRecord,
  DeliverySiteRecord,
  OrderRecord,
  OrderTypeRecord,
  ProductRecord,
  RecordKind,
  SupplierRecord,
  SupplierUserRecord,
  TagGroupRecord,
  TaggingRecord,
  TagRecord,
} from "./format.js";
import { type Entry, type ParsedFile, parseImportFile, rawUuid } from "./parse.js";
import type { ImportProblem } from "./problems.js";

export interface ImportPlan {
  buyers: BuyerRecord[];
  apiKeys: { buyer_id: string; hash: string; prefix: string }[];
  suppliers: SupplierRecord[];
  connections: { buyer_id: string; supplier_id: string; relationship: string }[];
  supplierUsers: (SupplierUserRecord & { contact_email_key: string })[];
  tagGroups: TagGroupRecord[];
  tags: TagRecord[];
  products: ProductRecord[];
  buyerProducts: BuyerProductRecord[];
  approvals: (ApprovalRecord & { buyer_id: string })[];
  deliverySites: DeliverySiteRecord[];
  orderTypes: OrderTypeRecord[];
  orders: OrderRecord[];
  taggings: (TaggingRecord & { taggable_type: TaggableType; buyer_id: string })[];
}

export type ValidationResult = { ok: true; plan: ImportPlan } | { ok: false; problems: ImportProblem[] };

const NOUN: Record<LookupKind, string> = {
  buyers: "buyer",
  suppliers: "supplier",
  supplier_users: "supplier user",
  tag_groups: "tag group",
  tags: "tag",
  products: "product",
  buyer_products: "buyer product",
  buyer_product_approvals: "buyer product approval",
  delivery_sites: "delivery site",
  order_types: "order type",
  orders: "order",
};

/** The kind of record each taggable type is: its table. */
const taggableKind = (type: TaggableType): LookupKind => TAGGABLE_RECORDS[type].table;

interface Reference {
  field: string;
  to: LookupKind;
  /** The record's field naming the buyer that must also own the referenced record. */
  sameBuyerAs?: string;
}

/** The references of each kind, except connections and taggings which need more than this. */
const REFERENCES: Partial<Record<RecordKind, Reference[]>> = {
  supplier_users: [
    { field: "supplier_id", to: "suppliers" },
    { field: "created_by_buyer_id", to: "buyers" },
  ],
  tag_groups: [{ field: "buyer_id", to: "buyers" }],
  tags: [
    { field: "buyer_id", to: "buyers" },
    { field: "tag_group_id", to: "tag_groups", sameBuyerAs: "buyer_id" },
  ],
  buyer_products: [
    { field: "buyer_id", to: "buyers" },
    { field: "product_id", to: "products" },
  ],
  buyer_product_approvals: [
    { field: "buyer_product_id", to: "buyer_products" },
    { field: "supplier_id", to: "suppliers" },
  ],
  delivery_sites: [{ field: "buyer_id", to: "buyers" }],
  orders: [
    { field: "buyer_id", to: "buyers" },
    { field: "supplier_id", to: "suppliers" },
    { field: "buyer_product_approval_id", to: "buyer_product_approvals", sameBuyerAs: "buyer_id" },
    { field: "delivery_site_id", to: "delivery_sites", sameBuyerAs: "buyer_id" },
    { field: "order_type_id", to: "order_types" },
  ],
  taggings: [{ field: "tag_id", to: "tags" }],
};

type FileIndex = { [K in LookupKind]: Map<string, Entry<unknown>> };

function field(record: unknown, name: string): string | null {
  const value = (record as Record<string, unknown>)[name];
  return typeof value === "string" ? value : null;
}

/** Indexes each kind by id; a repeated id is a problem (it would be written twice). */
function indexFile(file: ParsedFile, problems: ImportProblem[]): FileIndex {
  const index = {} as FileIndex;
  for (const kind of Object.keys(NOUN) as LookupKind[]) {
    const byId = new Map<string, Entry<unknown>>();
    for (const entry of file[kind] as Entry<unknown>[]) {
      if (entry.id === null) continue;
      const first = byId.get(entry.id);
      if (first) {
        problems.push({
          path: `${kind}[${entry.index}].id`,
          message: `repeats the id of ${kind}[${first.index}]`,
        });
      } else {
        byId.set(entry.id, entry);
      }
    }
    index[kind] = byId;
  }
  return index;
}

function valid<T>(entries: Entry<T>[]): { index: number; record: T }[] {
  return entries.filter((entry): entry is Entry<T> & { record: T } => entry.record !== null);
}

/**
 * A reference held by a record; for a malformed record, the value as written
 * when it is a UUID, so that its dangling references are reported as well.
 */
function referenceOf(entry: Entry<unknown>, name: string): string | null {
  return entry.record !== null ? field(entry.record, name) : rawUuid(entry.raw, name);
}

class Resolver {
  constructor(
    private readonly index: FileIndex,
    private readonly existing: ExistingRecords,
  ) {}

  exists(kind: LookupKind, id: string): boolean {
    return this.index[kind].has(id) || this.existing[kind].has(id);
  }

  /**
   * The buyer owning a record: a buyer id, null when it has none, undefined
   * when it is unknown (missing, or malformed and already reported). The file
   * wins over the database because the file is written last.
   */
  ownerOf(kind: LookupKind, id: string): string | null | undefined {
    const entry = this.index[kind].get(id);
    if (!entry) return this.existing[kind].get(id);
    if (entry.record === null) return undefined;
    if (kind === "buyer_product_approvals") {
      const buyerProductId = field(entry.record, "buyer_product_id");
      return buyerProductId === null ? undefined : this.ownerOf("buyer_products", buyerProductId);
    }
    if (kind === "supplier_users") return field(entry.record, "created_by_buyer_id");
    return field(entry.record, "buyer_id");
  }

  /** The kinds of taggable record that hold `id`, in the file or the database. */
  taggableTypes(id: string): TaggableType[] {
    return TAGGABLE_TYPES.filter((type) => this.exists(taggableKind(type), id));
  }
}

function wantedIds(file: ParsedFile, index: FileIndex): { [K in LookupKind]: Set<string> } {
  const wanted = Object.fromEntries(Object.keys(NOUN).map((kind) => [kind, new Set<string>()])) as {
    [K in LookupKind]: Set<string>;
  };
  const want = (kind: LookupKind, id: string | null) => {
    if (id !== null && !index[kind].has(id)) wanted[kind].add(id);
  };
  for (const [kind, references] of Object.entries(REFERENCES) as [RecordKind, Reference[]][]) {
    for (const entry of file[kind] as Entry<unknown>[]) {
      for (const reference of references) want(reference.to, referenceOf(entry, reference.field));
    }
  }
  for (const { record } of valid(file.suppliers)) {
    for (const connection of record.connections) want("buyers", connection.buyer_id);
  }
  for (const { record } of valid(file.taggings)) {
    // Looked up everywhere, even when the file holds it: the same id in two
    // tables would make the taggable's type ambiguous.
    for (const type of TAGGABLE_TYPES) wanted[taggableKind(type)].add(record.taggable_id);
  }
  return wanted;
}

function checkReferences(file: ParsedFile, resolver: Resolver, problems: ImportProblem[]): void {
  for (const [kind, references] of Object.entries(REFERENCES) as [RecordKind, Reference[]][]) {
    for (const entry of file[kind] as Entry<unknown>[]) {
      for (const reference of references) {
        const id = referenceOf(entry, reference.field);
        if (id === null) continue;
        const path = `${kind}[${entry.index}].${reference.field}`;
        if (!resolver.exists(reference.to, id)) {
          problems.push({ path, message: `no ${NOUN[reference.to]} ${id} in the file or the database` });
          continue;
        }
        if (reference.sameBuyerAs) {
          const owner = resolver.ownerOf(reference.to, id);
          const buyer = referenceOf(entry, reference.sameBuyerAs);
          if (owner !== undefined && buyer !== null && owner !== buyer) {
            problems.push({ path, message: `${NOUN[reference.to]} ${id} belongs to another buyer` });
          }
        }
      }
    }
  }
  for (const { index, record } of valid(file.suppliers)) {
    const seen = new Map<string, number>();
    record.connections.forEach((connection, position) => {
      const path = `suppliers[${index}].connections[${position}].buyer_id`;
      const earlier = seen.get(connection.buyer_id);
      if (earlier !== undefined) {
        problems.push({ path, message: `repeats the buyer of connections[${earlier}]` });
      } else if (!resolver.exists("buyers", connection.buyer_id)) {
        problems.push({ path, message: `no buyer ${connection.buyer_id} in the file or the database` });
      }
      seen.set(connection.buyer_id, earlier ?? position);
    });
  }
}

function planTaggings(
  file: ParsedFile,
  resolver: Resolver,
  problems: ImportProblem[],
): ImportPlan["taggings"] {
  const taggings: ImportPlan["taggings"] = [];
  const seen = new Map<string, number>();
  for (const { index, record } of valid(file.taggings)) {
    const pair = `${record.taggable_id} ${record.tag_id}`;
    const earlier = seen.get(pair);
    if (earlier !== undefined) {
      problems.push({ path: `taggings[${index}]`, message: `repeats taggings[${earlier}]` });
      continue;
    }
    seen.set(pair, index);
    const path = `taggings[${index}].taggable_id`;
    const types = resolver.taggableTypes(record.taggable_id);
    const [type] = types;
    if (type === undefined) {
      problems.push({
        path,
        message: `no ${orList(TAGGABLE_TYPES.map((type) => NOUN[taggableKind(type)]))} ${record.taggable_id} in the file or the database`,
      });
      continue;
    }
    if (types.length > 1) {
      problems.push({ path, message: `is the id of records of several kinds (${types.join(", ")})` });
      continue;
    }
    const owner = resolver.ownerOf(taggableKind(type), record.taggable_id);
    const tagOwner = resolver.ownerOf("tags", record.tag_id);
    if (owner === undefined || tagOwner === undefined || tagOwner === null) continue;
    if (owner !== tagOwner) {
      problems.push({ path, message: `${type} ${record.taggable_id} belongs to another buyer than the tag` });
      continue;
    }
    taggings.push({ ...record, taggable_type: type, buyer_id: tagOwner });
  }
  return taggings;
}

async function planApiKeys(
  file: ParsedFile,
  sql: SqlQuery,
  problems: ImportProblem[],
): Promise<ImportPlan["apiKeys"]> {
  const keys: (ImportPlan["apiKeys"][number] & { path: string })[] = [];
  const seen = new Map<string, string>();
  for (const { index, record } of valid(file.buyers)) {
    record.api_keys.forEach((key, position) => {
      const path = `buyers[${index}].api_keys[${position}]`;
      const hash = hashApiKey(key);
      const earlier = seen.get(hash);
      if (earlier !== undefined) {
        problems.push({ path, message: `repeats the key at ${earlier}` });
        return;
      }
      seen.set(hash, path);
      keys.push({ buyer_id: record.id, hash, prefix: visibleKeyPrefix(key), path });
    });
  }
  const owners = await findApiKeyOwners(
    sql,
    keys.map((key) => key.hash),
  );
  for (const key of keys) {
    const owner = owners.get(key.hash);
    if (owner !== undefined && owner !== key.buyer_id) {
      problems.push({ path: key.path, message: "this key is already issued to another buyer" });
    }
  }
  return keys.map(({ buyer_id, hash, prefix }) => ({ buyer_id, hash, prefix }));
}

/** One user per email per supplier, across the file and what is stored. */
async function planSupplierUsers(
  file: ParsedFile,
  index: FileIndex,
  sql: SqlQuery,
  problems: ImportProblem[],
): Promise<ImportPlan["supplierUsers"]> {
  const users = valid(file.supplier_users).map(({ index: position, record }) => ({
    position,
    user: { ...record, contact_email_key: record.contact_email.trim().toLowerCase() },
  }));
  const seen = new Map<string, number>();
  for (const { position, user } of users) {
    const key = `${user.supplier_id} ${user.contact_email_key}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push({
        path: `supplier_users[${position}].contact_email`,
        message: `repeats the email of supplier_users[${earlier}] under the same supplier`,
      });
    } else {
      seen.set(key, position);
    }
  }
  const stored = await findSupplierUserEmails(
    sql,
    users.map(({ user }) => ({ supplierId: user.supplier_id, emailKey: user.contact_email_key })),
  );
  for (const { position, user } of users) {
    const holder = stored.get(`${user.supplier_id} ${user.contact_email_key}`);
    // A stored holder that the file itself moves to another email frees the address.
    if (holder !== undefined && holder !== user.id && !index.supplier_users.has(holder)) {
      problems.push({
        path: `supplier_users[${position}].contact_email`,
        message: `supplier user ${holder} already has this email under the same supplier`,
      });
    }
  }
  return users.map(({ user }) => user);
}

function records<T>(entries: Entry<T>[]): T[] {
  return valid(entries).map(({ record }) => record);
}

/**
 * Validates `input` completely, reading what it refers to through `sql`.
 * Every problem is reported, each by the JSON path of the bad value.
 */
export async function validateImport(input: unknown, sql: SqlQuery): Promise<ValidationResult> {
  const { file, problems } = parseImportFile(input);
  const index = indexFile(file, problems);
  const existing = await findExisting(sql, wantedIds(file, index));
  const resolver = new Resolver(index, existing);
  checkReferences(file, resolver, problems);
  const taggings = planTaggings(file, resolver, problems);
  const apiKeys = await planApiKeys(file, sql, problems);
  const supplierUsers = await planSupplierUsers(file, index, sql, problems);
  if (problems.length > 0) return { ok: false, problems };

  const suppliers = records(file.suppliers);
  return {
    ok: true,
    plan: {
      buyers: records(file.buyers),
      apiKeys,
      suppliers,
      connections: suppliers.flatMap((supplier) =>
        supplier.connections.map((connection) => ({ ...connection, supplier_id: supplier.id })),
      ),
      supplierUsers,
      tagGroups: records(file.tag_groups),
      tags: records(file.tags),
      products: records(file.products),
      buyerProducts: records(file.buyer_products),
      approvals: records(file.buyer_product_approvals).map((approval) => ({
        ...approval,
        // Checked above: the buyer product exists and its owner is known.
        buyer_id: resolver.ownerOf("buyer_products", approval.buyer_product_id) as string,
      })),
      deliverySites: records(file.delivery_sites),
      orderTypes: records(file.order_types),
      orders: records(file.orders),
      taggings,
    },
  };
}
