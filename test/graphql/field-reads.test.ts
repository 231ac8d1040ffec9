// Every field is described once: a field that declares what it reads of its
// parent's row (src/schema/field-reads.ts) gets its Prisma `select` and its
// resolver from that declaration and from nothing else, and every path it
// declares exists in the Prisma model and is loaded by that select. Normal
// execution and the planned reads then cannot disagree about the field.
import { type GraphQLField, type GraphQLObjectType, isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { getDatamodel } from "../../src/db/generated/pothos-types.js";
import { readOptionsOf } from "../../src/schema/field-reads.js";
import { schema } from "../../src/schema/index.js";
import { type RowPath, type RowRead, rowReadOf } from "../../src/schema/read-metadata.js";

const { models } = getDatamodel().datamodel;

interface DeclaredField {
  where: string;
  parent: GraphQLObjectType;
  field: GraphQLField<unknown, unknown>;
  read: RowRead;
  model: string | undefined;
}

function declaredFields(): DeclaredField[] {
  return Object.values(schema.getTypeMap()).flatMap((type) => {
    if (!isObjectType(type)) return [];
    const model = type.extensions.pothosPrismaModel;
    return Object.values(type.getFields()).flatMap((field) => {
      const read = rowReadOf(field.extensions);
      return read
        ? [
            {
              where: `${type.name}.${field.name}`,
              parent: type,
              field,
              read,
              model: typeof model === "string" ? model : undefined,
            },
          ]
        : [];
    });
  });
}

function pathsOf(read: RowRead): RowPath[] {
  switch (read.kind) {
    case "path":
      return [read.path, ...Object.values(read.fallbacks ?? {})];
    case "object":
      return [
        ...Object.values(read.properties).map((property) =>
          "differs" in property ? property.differs : property,
        ),
        ...read.presentWhen,
      ];
    case "text":
      return read.parts.flatMap((part) => (typeof part === "object" && "path" in part ? [part.path] : []));
    case "globalId":
      return [["id"]];
    case "json":
      return [read.path];
    case "keyedRows":
    case "counts":
      return Object.values(read.rows.key).map((property) => [property]);
    case "computed":
      return [...read.paths];
  }
}

/** Why what a keyed read reads of its rows' model is not in that model; null when it is. */
function keyedProblem(read: RowRead): string | null {
  if (read.kind !== "keyedRows" && read.kind !== "counts") return null;
  const model = models[read.rows.model];
  if (!model) return `no model ${read.rows.model}`;
  const fieldOf = (name: string) => model.fields.find((field) => field.name === name);
  const columns = [...Object.keys(read.rows.key), ...(read.kind === "counts" ? [read.by] : [])];
  const notColumn = columns.find(
    (name) => fieldOf(name)?.kind !== "scalar" && fieldOf(name)?.kind !== "enum",
  );
  if (notColumn) return `${read.rows.model} has no column ${notColumn}`;
  if (read.kind === "keyedRows") {
    const through = fieldOf(read.through);
    if (through?.kind !== "object" || through.isList)
      return `${read.rows.model} has no to-one ${read.through}`;
  }
  return null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The model a path of to-one relations leads to from `model`. */
function modelAt(model: string | undefined, path: RowPath): string | undefined {
  let current = model;
  for (const step of path) {
    const field = models[current ?? ""]?.fields.find((candidate) => candidate.name === step);
    current = field?.kind === "object" && !field.isList ? field.type : undefined;
  }
  return current;
}

/** Whether `path` of a row of `model` ends at one of its columns, through to-one relations. */
function isColumn(model: string | undefined, path: RowPath): boolean {
  const last = path.at(-1);
  const field = models[modelAt(model, path.slice(0, -1)) ?? ""]?.fields.find(
    (candidate) => candidate.name === last,
  );
  return field !== undefined && field.kind !== "object" && !field.isList;
}

/** Why `path` of a row of `model` is not a path the model has and `select` loads; null when it is. */
function pathProblem(model: string, path: RowPath, select: unknown): string | null {
  let current = model;
  let selection = select;
  for (let index = 0; index < path.length; index += 1) {
    const step = path[index];
    if (typeof step !== "string") return `${String(step)} follows no list relation`;
    const field = models[current]?.fields.find((candidate) => candidate.name === step);
    if (!field) return `${current} has no field ${step}`;
    if (!isRecord(selection)) return `the select loads nothing of ${current}`;
    const entry = selection[step];
    if (field.kind !== "object") {
      if (index !== path.length - 1) return `${step} is a column with more path after it`;
      return entry === true ? null : `the select does not load ${step}`;
    }
    if (!isRecord(entry)) return `the select does not load the relation ${step}`;
    current = field.type;
    selection = entry.select;
    if (field.isList && typeof path[index + 1] === "number") index += 1;
  }
  return null;
}

/** The select as plugin-prisma sees it: a function of the context is called with a viewer's. */
function selectOf(field: GraphQLField<unknown, unknown>): unknown {
  const select: unknown = Reflect.get(field.extensions.pothosOptions ?? {}, "select");
  if (typeof select !== "function") return select;
  // A relation loaded with the field's own selection (`readsRow`) is loaded, whatever that selection is.
  return select({}, { viewer: { buyerId: "00000000-0000-4000-8000-000000000001" } }, () => ({ select: {} }));
}

describe("fields declared once", () => {
  const fields = declaredFields();

  it("finds the declared fields of orders, buyer products and nodes", () => {
    expect(fields.map(({ where }) => where)).toEqual(
      expect.arrayContaining([
        "DeliverySite.address",
        "Order.url",
        "Order.profileConnectionRelationship",
        "Order.buyerProduct",
        "Supplier.relationship",
        "WebhookEvent.data",
        "Order.resourceValues",
        "Order.additionalData",
        "OrderAdditionalData.product",
        "OrderAdditionalData.supplier",
        "BuyerProduct.resourceValues",
        "BuyerProduct.autoMatch",
        "Order.id",
        "BuyerProduct.id",
        "Order.tags",
        "BuyerProduct.tags",
        "BuyerProductApproval.tags",
        "SupplierUser.tags",
        "TaggingResult.tags",
        "DetachTagsResult.tags",
        "BuyerProduct.approvalCounts",
        "Order.allowedNextStatuses",
        "OrderEvent.changes",
        "Product.name",
        "BuyerProduct.product",
        "Order.product",
      ]),
    );
  });

  it("gives a declared field no resolver or select of its own", () => {
    const described = fields.flatMap(({ where, field, read }) => {
      const options = readOptionsOf(read);
      const own = field.extensions.pothosOptions;
      const resolve: unknown = Reflect.get(own ?? {}, "resolve");
      const select: unknown = Reflect.get(own ?? {}, "select");
      if (!options) return [`${where}: a declaration no reads… made`];
      if (resolve !== options.resolve) return [`${where}: a resolver beside its declaration`];
      if (select !== options.select) return [`${where}: a select beside its declaration`];
      return [];
    });
    expect(described).toEqual([]);
  });

  it("computes values from columns only, and falls back only from a row's columns to its parent's", () => {
    const problems = fields.flatMap(({ where, read, model }) => {
      const columnProblems = (of: string | undefined, paths: readonly RowPath[]) =>
        paths.flatMap((path) =>
          isColumn(of, path) ? [] : [`${where} ${JSON.stringify(path)}: not a column`],
        );
      if (read.kind === "computed") return columnProblems(model, read.paths);
      if (read.kind !== "path" || !read.fallbacks) return [];
      const rowModel = modelAt(model, read.path);
      return Object.entries(read.fallbacks).flatMap(([column, path]) => [
        ...columnProblems(rowModel, [[column]]),
        ...columnProblems(model, [path]),
      ]);
    });
    expect(problems).toEqual([]);
  });

  it("declares only paths its model has and its select loads", () => {
    const problems = fields.flatMap(({ where, parent, field, read, model }) =>
      pathsOf(read).flatMap((path) => {
        if (model === undefined) {
          // Keyed rows name an object a resolver made by its own fields.
          if (read.kind === "keyedRows" || read.kind === "counts") {
            const [property] = path;
            const own = typeof property === "string" && path.length === 1 && property in parent.getFields();
            return own ? [] : [`${where}: ${String(property)} is no field of ${parent.name}`];
          }
          // A field of an object made of a row hands that object on: it reads no path of its own.
          return path.length === 0 ? [] : [`${where}: a path on a type with no model`];
        }
        const problem = pathProblem(model, path, selectOf(field));
        return problem ? [`${where} ${JSON.stringify(path)}: ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it("declares keyed rows by columns their model has, and a to-one relation or a column of it", () => {
    const problems = fields.flatMap(({ where, read }) => {
      const problem = keyedProblem(read);
      return problem ? [`${where}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });
});
