// The tables behind the Prisma models, as the planned reads need them:
// each model's table, each field's column, each relation's join. Relations
// and requiredness come from the datamodel the Pothos generator writes;
// table and column names (`@map`, `@@map`) from this project's own
// generator (scripts/prisma-table-names.ts), both run by `prisma generate`.
import { getDatamodel } from "./generated/pothos-types.js";
import { tableNames } from "./generated/table-names.js";

export interface ScalarColumn {
  kind: "scalar";
  /** The Prisma field name. */
  name: string;
  column: string;
  /** Prisma's scalar type (`String`, `Decimal`, `DateTime`, …) or the enum's name. */
  type: string;
  isEnum: boolean;
  isList: boolean;
  isRequired: boolean;
}

export interface RelationJoin {
  kind: "relation";
  name: string;
  /** The related model. */
  target: string;
  isList: boolean;
  isRequired: boolean;
  /** Columns of this model's table equal to the target table's, pairwise: the join. */
  on: { from: string; to: string }[];
}

export interface ModelTable {
  name: string;
  table: string;
  fields: ReadonlyMap<string, ScalarColumn | RelationJoin>;
}

export type DataModel = ReadonlyMap<string, ModelTable>;

/**
 * Every model's table, as the schema declares it. A relation joins on the fields
 * that hold it (`@relation(fields:)`) and the related model's id, which is
 * what every relation of this schema references; a relation that cannot be
 * read so is left out, and so are documents reading through it.
 */
export function readDataModel(): DataModel {
  const { models } = getDatamodel().datamodel;
  const columnOf = (model: string, field: string) => tableNames[model]?.columns[field] ?? null;
  const idOf = (model: string) => {
    const ids = models[model]?.fields.filter((field) => field.isId) ?? [];
    const [id] = ids;
    return ids.length === 1 && id ? columnOf(model, id.name) : null;
  };
  const result = new Map<string, ModelTable>();
  for (const [name, model] of Object.entries(models)) {
    const fields = new Map<string, ScalarColumn | RelationJoin>();
    for (const field of model.fields) {
      if (field.kind === "scalar" || field.kind === "enum") {
        const column = columnOf(name, field.name);
        if (column === null) continue;
        fields.set(field.name, {
          kind: "scalar",
          name: field.name,
          column,
          type: field.type,
          isEnum: field.kind === "enum",
          isList: field.isList,
          isRequired: field.isRequired,
        });
        continue;
      }
      const on = joinOf(name, field, models, columnOf, idOf);
      if (on)
        fields.set(field.name, {
          kind: "relation",
          name: field.name,
          target: field.type,
          isList: field.isList,
          isRequired: field.isRequired,
          on,
        });
    }
    result.set(name, { name, table: tableNames[name]?.table ?? name, fields });
  }
  return result;
}

type PothosModels = ReturnType<typeof getDatamodel>["datamodel"]["models"];
type PothosField = PothosModels[string]["fields"][number];

function joinOf(
  model: string,
  field: PothosField,
  models: PothosModels,
  columnOf: (model: string, field: string) => string | null,
  idOf: (model: string) => string | null,
): { from: string; to: string }[] | null {
  const holding = field.relationFromFields ?? [];
  if (holding.length > 0) {
    // This side holds the foreign key: it references the target's id.
    const to = idOf(field.type);
    const [from] = holding;
    const fromColumn = from === undefined ? null : columnOf(model, from);
    return holding.length === 1 && to && fromColumn ? [{ from: fromColumn, to }] : null;
  }
  // The other side holds it, referencing this model's id.
  const opposite = models[field.type]?.fields.find(
    (candidate) =>
      candidate.relationName === field.relationName &&
      candidate !== field &&
      (candidate.relationFromFields?.length ?? 0) > 0,
  );
  const [to] = opposite?.relationFromFields ?? [];
  const from = idOf(model);
  const toColumn = to === undefined ? null : columnOf(field.type, to);
  return opposite?.relationFromFields?.length === 1 && from && toColumn ? [{ from, to: toColumn }] : null;
}
