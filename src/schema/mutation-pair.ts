// Every mutation comes in two fields (docs/reference/graphql.md "Errors"): one that
// reports refusals as top-level errors, and its twin that answers the same
// refusals in its payload's `userErrors`. A mutation is written once, as a
// `MutationPair`, and both fields come from it here.
import type { ArgBuilder, FieldMap, InputFieldMap, InputShapeFromFields, ObjectRef } from "@pothos/core";
import type PrismaTypes from "../db/generated/pothos-types.js";
import { builder, type SchemaTypes } from "./builder.js";
import type { GraphQLContext } from "./context.js";
import type { UserErrorsExtension } from "./domain-errors.js";
import { answersUserErrors, userErrorsField, type WithUserErrors } from "./types/user-error.js";

/** The selection Pothos passes a field that answers a record of `Model`. */
export interface RecordQuery<Model extends keyof PrismaTypes> {
  include?: PrismaTypes[Model]["Include"];
  select?: PrismaTypes[Model]["Select"];
}

/** Reads one record of `Model` by id with a field's selection. */
export type RecordLoader<Model extends keyof PrismaTypes, Id = string> = (
  query: RecordQuery<Model>,
  id: Id,
  context: GraphQLContext,
) => Promise<PrismaTypes[Model]["Shape"]>;

/** What the throwing field answers: the outcome as it is, or the record whose id the outcome is, read with the field's selection. */
export type MutationAnswer<Outcome, Model extends keyof PrismaTypes> =
  | { type: ObjectRef<SchemaTypes, Outcome> | "UUID" }
  | { record: Model; load: RecordLoader<Model, Outcome> };

export interface MutationPair<
  Args extends InputFieldMap,
  Outcome,
  Payload extends object,
  Model extends keyof PrismaTypes,
> {
  /** The field that reports refusals as top-level errors. */
  name: string;
  description: string;
  /** The twin that answers VALIDATION_FAILED, NOT_FOUND, … in its payload's `userErrors`. */
  twin: string;
  /** What the twin answers in `userErrors`, after "<name> with typed errors: " in its description. */
  typedErrors: string;
  /** For the refusals that concern no input field of their own: the input field each is about. */
  fieldOf?: UserErrorsExtension["fieldOf"];
  /** Both fields' arguments (called once per field: Pothos arguments belong to one field). */
  args: (arg: ArgBuilder<SchemaTypes>) => Args;
  /** What the mutation does; it throws its refusals. */
  run: (args: InputShapeFromFields<Args>, context: GraphQLContext) => Promise<Outcome>;
  answer: MutationAnswer<Outcome, Model>;
  payload: ObjectRef<SchemaTypes, WithUserErrors<Payload>>;
  /** The twin's payload for a done mutation. */
  toPayload: (outcome: Outcome) => Payload;
}

/** Registers the mutation's two fields: `name`, which throws, and `twin`, which answers `userErrors`. */
export function mutationPair<
  Args extends InputFieldMap,
  Outcome,
  Payload extends object,
  Model extends keyof PrismaTypes = never,
>(mutation: MutationPair<Args, Outcome, Payload, Model>): void {
  const { name, description, args, run, answer } = mutation;
  builder.mutationField(name, (t) => {
    if ("record" in answer) {
      const { record, load } = answer;
      return t.prismaField({
        type: record,
        description,
        args: args(t.arg),
        // Typed at the call, for its model: Pothos cannot name the shape of a model given as a type parameter.
        resolve: (query, _root, fieldArgs, context) =>
          run(fieldArgs, context).then((id) => load(query, id, context)) as never,
      });
    }
    return t.field({
      type: answer.type,
      description,
      args: args(t.arg),
      // The generic outcome defeats Pothos' resolver typing; `answer.type` holds exactly an Outcome.
      resolve: (_root, fieldArgs, context) => run(fieldArgs, context) as never,
    });
  });
  const { twin, typedErrors, fieldOf, payload, toPayload } = mutation;
  builder.mutationField(twin, (t) =>
    t.field({
      type: payload,
      description: `${name} with typed errors: ${typedErrors}`,
      args: args(t.arg),
      extensions: answersUserErrors(fieldOf),
      // Refusals never reach here: the domainErrors plugin answers them as `{ userErrors }`.
      resolve: (_root, fieldArgs, context) =>
        run(fieldArgs, context).then((outcome) => ({ ...toPayload(outcome), userErrors: [] })) as never,
    }),
  );
}

export interface PayloadTypeOptions<Payload extends object> {
  description: string;
  /** The `userErrors` field's description. */
  userErrors: string;
  /** The outcome's fields, each nullable: null when refused. */
  fields: (t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, WithUserErrors<Payload>>) => FieldMap;
}

/** A twin's payload type: the outcome's fields, and `userErrors`. */
export function payloadType<Payload extends object>(
  name: string,
  { description, userErrors, fields }: PayloadTypeOptions<Payload>,
) {
  return builder.objectRef<WithUserErrors<Payload>>(name).implement({
    description,
    fields: (t) => ({ ...fields(t), userErrors: userErrorsField(t, userErrors) }),
  });
}

export interface RecordOrNullOptions<Model extends keyof PrismaTypes, Payload> {
  type: Model;
  description: string;
  /** The record's id in the payload; absent when refused. */
  id: (payload: Payload) => string | undefined;
  /** A `RecordLoader`, or one that answers null for a record that is gone. */
  load: (
    query: RecordQuery<Model>,
    id: string,
    context: GraphQLContext,
  ) => Promise<PrismaTypes[Model]["Shape"] | null>;
}

/** A payload's field answering the record the mutation wrote, with its selection; null when refused. */
export function recordOrNull<Model extends keyof PrismaTypes, Payload extends object>(
  t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, WithUserErrors<Payload>>,
  { type, description, id, load }: RecordOrNullOptions<Model, WithUserErrors<Payload>>,
) {
  return t.prismaField({
    type,
    nullable: true,
    description,
    resolve: (query, payload, _args, context) => {
      const recordId = id(payload);
      // Typed at the call, for its model, as in `mutationPair`.
      return (recordId ? load(query, recordId, context) : null) as never;
    },
  });
}

/** A payload's field holding one value of the outcome as it is, of GraphQL type `type`; null when refused. */
export function valueOrNull<Payload extends object, Key extends keyof Payload & string>(
  t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, WithUserErrors<Payload>>,
  key: Key,
  type: ObjectRef<SchemaTypes, Payload[Key]> | "String" | "UUID",
  description: string,
) {
  return t.field({
    type,
    nullable: true,
    description,
    // The generic key defeats Pothos' resolver typing; `type` holds exactly a Payload[Key].
    resolve: (payload) => (payload[key] ?? null) as never,
  });
}

/** The twin's payload of a mutation that answers one record: that record's field, and `userErrors`. */
export interface RecordPayload {
  name: string;
  description: string;
  /** The `userErrors` field's description. */
  userErrors: string;
  /** The field that answers the record (null when refused), and its description. */
  field: string;
  fieldDescription: string;
}

/** A mutation whose outcome is the id of the record it wrote: the throwing field answers that record. */
export function recordMutationPair<Args extends InputFieldMap, Model extends keyof PrismaTypes>(
  mutation: Omit<
    MutationPair<Args, string, { recordId: string }, Model>,
    "answer" | "payload" | "toPayload"
  > & {
    record: Model;
    load: RecordLoader<Model>;
    payload: RecordPayload;
  },
): void {
  const { record, load, payload, ...pair } = mutation;
  const { name, description, userErrors, field, fieldDescription } = payload;
  mutationPair({
    ...pair,
    answer: { record, load },
    payload: payloadType<{ recordId: string }>(name, {
      description,
      userErrors,
      fields: (t) => ({
        [field]: recordOrNull(t, {
          type: record,
          description: fieldDescription,
          id: (done) => done.recordId,
          load,
        }),
      }),
    }),
    toPayload: (recordId) => ({ recordId }),
  });
}
