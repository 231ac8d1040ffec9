import type { ObjectRef } from "@pothos/core";
import { type DomainError, notFound, validationFailed } from "../../domain/errors.js";
import { InputChecks } from "../../domain/input-checks.js";
import {
  isTaggingRefusal,
  MAX_TAGS_PER_CALL,
  TAGGABLE_TYPES,
  type TaggableType,
  type TaggingRefusal,
} from "../../domain/tagging.js";
import { orList } from "../../domain/word-lists.js";
import { attachTags, detachTags, type TaggingCall } from "../../services/tagging.js";
import { builder, type SchemaTypes } from "../builder.js";
import { allOf, isValue, ordered } from "../conditions.js";
import { relationConnection } from "../connection-fields.js";
import { connectionType } from "../connection-types.js";
import type { GraphQLContext } from "../context.js";
import { readsKeyedRows } from "../field-reads.js";
import { NODE_TYPES, type NodeTypeName, takesIdsOf } from "../global-ids.js";
import { mutationPair, payloadType, valueOrNull } from "../mutation-pair.js";
import { namedRootConnection } from "../named-list.js";
import { executedReadExtension, type KeyedRows } from "../read-metadata.js";
import { requireViewer } from "../require-viewer.js";
import { taggingsOf } from "../tag-loader.js";

const TagGroupRef = builder.prismaObject("TagGroup", {
  description: "A named group of the buyer's tags.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The group's id." }),
    name: t.exposeString("name", { description: "The group's name." }),
    tags: relationConnection(t, {
      type: TagConnectionRef,
      relation: "tags",
      description: "The tags in this group, newest first.",
    }),
  }),
});

export const TagRef = builder.prismaObject("Tag", {
  description: "A label the buyer attaches to records.",
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The tag's id." }),
    name: t.exposeString("name", { description: "The tag's name." }),
    category: t.exposeString("category", {
      description: "A free category set by the operator, e.g. compliance.",
    }),
    tagGroup: t.relation("tagGroup", { description: "The group the tag belongs to." }),
  }),
});

/** The viewer's taggings of one of its records of `type`: they name it by its id and type, which no relation joins. */
function recordTaggings(type: TaggableType): KeyedRows {
  return {
    model: "Tagging",
    key: { taggableId: "id" },
    where: (viewer) => allOf([isValue("buyerId", viewer.buyerId), isValue("taggableType", type)]),
  };
}

/** The viewer's taggings of the record a tagging result names. */
const TAGGINGS_OF_RESULT: KeyedRows = {
  model: "Tagging",
  key: { taggableId: "taggableId", taggableType: "taggableType" },
  where: (viewer) => isValue("buyerId", viewer.buyerId),
};

/** A record's tags by name, the id breaking ties. */
const BY_NAME = ordered(["name", "asc"], ["id", "asc"]);

/** Every record a buyer can tag, named by its id or its global ID. */
const TAGGABLE_IDS = takesIdsOf(
  ...NODE_TYPES.filter((type: NodeTypeName): type is NodeTypeName & TaggableType =>
    (TAGGABLE_TYPES as readonly string[]).includes(type),
  ),
);

/** The fields a tagging result begins with: the record's type and id. */
function taggedRecordFields(
  t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, { taggableType: string; taggableId: string }>,
  taggableIdDescription: string,
) {
  return {
    taggableType: t.exposeString("taggableType", { description: `${orList(TAGGABLE_TYPES)}.` }),
    taggableId: t.expose("taggableId", { type: "UUID", description: taggableIdDescription }),
  };
}

const TaggingResultRef = builder
  .objectRef<{ taggableType: string; taggableId: string; addedTagIds: string[] }>("TaggingResult")
  .implement({
    description: "The tags on a record after attaching.",
    fields: (t) => ({
      ...taggedRecordFields(t, "The tagged record."),
      addedTagIds: t.exposeStringList("addedTagIds", {
        description: "Tags this call attached; tags that were already on the record are not listed.",
        // Read by the OpenAPI generator: what the String type cannot say.
        extensions: { jsonSchema: { items: { type: "string", format: "uuid" } } },
      }),
      tags: t.field({
        type: [TagRef],
        description: "Every tag now on the record, by name.",
        ...readsKeyedRows(TAGGINGS_OF_RESULT, "tag", BY_NAME),
      }),
    }),
  });

builder.queryField("taggedRecord", (t) =>
  t.field({
    type: TaggingResultRef,
    nullable: true,
    description:
      "The buyer's tags on one of its records, as attachTags answers; `addedTagIds` lists the tags attached " +
      "at `attachedAt` (the time of one attachTags call), empty without it. Null when the record has none " +
      "of the buyer's tags. Events (tagging.created) show taggings this way.",
    extensions: executedReadExtension(
      "it is made of the record's taggings, which no relation joins, and picks those of one attachTags call",
    ),
    args: {
      taggableId: t.arg({ type: "UUID", required: true, description: "The tagged record." }),
      attachedAt: t.arg({ type: "DateTime", description: "When the tags to list as added were attached." }),
    },
    resolve: async (_root, { taggableId, attachedAt }, context) => {
      const taggings = await taggingsOf(context, taggableId);
      const [first] = taggings;
      if (!first) return null;
      return {
        taggableType: first.taggableType,
        taggableId,
        addedTagIds: attachedAt
          ? taggings.filter((row) => row.createdAt.getTime() === attachedAt.getTime()).map((row) => row.tagId)
          : [],
      };
    },
  }),
);

/** The input of attaching or detaching: one of the buyer's records and some of the buyer's tags. */
function tagsInput(name: string, description: string, taggableIdDescription: string) {
  return builder.inputType(name, {
    description,
    fields: (t) => ({
      taggableId: t.field({
        type: "UUID",
        required: true,
        description: taggableIdDescription,
        extensions: TAGGABLE_IDS,
      }),
      tagIds: t.field({
        type: ["UUID"],
        required: true,
        description: `1 to ${MAX_TAGS_PER_CALL} of the buyer's tags.`,
      }),
    }),
  });
}

const AttachTagsInput = tagsInput(
  "AttachTagsInput",
  "Tags to attach to one of the buyer's records.",
  "The record to tag: its id or global ID.",
);
const DetachTagsInput = tagsInput(
  "DetachTagsInput",
  "Tags to remove from one of the buyer's records.",
  "The record: its id or global ID.",
);

/** The checks attachTags and detachTags share, before a record is looked up. */
function checkTagIds(tagIds: string[]): void {
  const checks = new InputChecks();
  if (tagIds.length === 0) checks.add(["input", "tagIds"], "required", "must list at least one tag");
  if (tagIds.length > MAX_TAGS_PER_CALL) {
    checks.add(["input", "tagIds"], "too_many", `must list at most ${MAX_TAGS_PER_CALL} tags`);
  }
  if (checks.problems.length) throw validationFailed(checks.problems);
}

function taggingRefusal(outcome: TaggingRefusal): DomainError {
  if (outcome.kind === "taggable_not_found") return notFound("Taggable record");
  return validationFailed(
    outcome.indexes.map((index) => ({
      path: ["input", "tagIds", index],
      code: "not_found" as const,
      message: "is not one of the buyer's tags",
    })),
  );
}

type TagsValues = typeof AttachTagsInput.$inferInput;

/** `attachTags` or `detachTags` for a mutation's input: refusals thrown, the change answered with its record. */
async function changeTagsFrom<Changed extends { kind: "attached" | "detached" }>(
  context: GraphQLContext,
  input: TagsValues,
  change: TaggingCall<Changed | TaggingRefusal>,
): Promise<Changed & { taggableId: string }> {
  const viewer = requireViewer(context);
  checkTagIds(input.tagIds);
  const outcome = await change(context.prisma, viewer, input.taggableId, input.tagIds);
  if (isTaggingRefusal(outcome)) throw taggingRefusal(outcome);
  return { ...outcome, taggableId: input.taggableId };
}

const TagConnectionRef = connectionType(
  "Tag",
  TagRef,
  "A page of the buyer's tags, in the order of the field that answers it.",
);
const TagGroupConnectionRef = connectionType(
  "TagGroup",
  TagGroupRef,
  "A page of the buyer's tag groups, in the order of the field that answers it.",
);

builder.queryField("tags", (t) =>
  namedRootConnection(t, {
    type: TagConnectionRef,
    model: "Tag",
    listed: "The buyer's tags",
    where: (viewer) => isValue("buyerId", viewer.buyerId),
  }),
);

builder.queryField("tagGroups", (t) =>
  namedRootConnection(t, {
    type: TagGroupConnectionRef,
    model: "TagGroup",
    listed: "The buyer's tag groups",
    where: (viewer) => isValue("buyerId", viewer.buyerId),
  }),
);

const DetachTagsResultRef = builder
  .objectRef<{ taggableType: string; taggableId: string; removedTagIds: string[] }>("DetachTagsResult")
  .implement({
    description: "The tags on a record after detaching.",
    fields: (t) => ({
      ...taggedRecordFields(t, "The record."),
      removedTagIds: t.exposeStringList("removedTagIds", {
        description: "Tags this call removed; tags that were not on the record are not listed.",
      }),
      tags: t.field({
        type: [TagRef],
        description: "Every tag still on the record, by name.",
        ...readsKeyedRows(TAGGINGS_OF_RESULT, "tag", BY_NAME),
      }),
    }),
  });

/** attachTags or detachTags, and its twin `tagsAttach` or `tagsDetach` with its payload. */
function taggingMutation<Result>(mutation: {
  name: string;
  description: string;
  twin: string;
  /** How the twin's payload says the change: "attaching". */
  changing: string;
  input: typeof AttachTagsInput;
  change: (context: GraphQLContext, input: TagsValues) => Promise<Result>;
  answer: ObjectRef<SchemaTypes, Result>;
  /** The twin's `result` field's description. */
  result: string;
}) {
  const { name, description, twin, changing, input, change, answer, result } = mutation;
  const payload = payloadType<{ result: Result }>(`${twin.charAt(0).toUpperCase()}${twin.slice(1)}Payload`, {
    description: `The tags on the record after ${changing}, or why the call was refused.`,
    userErrors: "Why the call was refused; empty when it was made.",
    fields: (t) => ({
      result: valueOrNull(t, "result", answer, result),
    }),
  });
  mutationPair({
    name,
    description,
    twin,
    typedErrors:
      "VALIDATION_FAILED (per tag id) and NOT_FOUND (field `input.taggableId`) come in `userErrors`, not as " +
      "top-level errors.",
    fieldOf: { NOT_FOUND: ["input", "taggableId"] },
    args: (arg) => ({ input: arg({ type: input, required: true, description: "The record and the tags." }) }),
    run: (args, context) => change(context, args.input),
    answer: { type: answer },
    payload,
    toPayload: (done) => ({ result: done }),
  });
}

taggingMutation({
  name: "attachTags",
  description:
    "Attaches tags to a record. Attaching a tag that is already there is not an error. tagsAttach does " +
    "the same and answers refusals in `userErrors`.",
  twin: "tagsAttach",
  changing: "attaching",
  input: AttachTagsInput,
  change: (context, input) => changeTagsFrom(context, input, attachTags),
  answer: TaggingResultRef,
  result: "The tags on the record now; null when refused.",
});

taggingMutation({
  name: "detachTags",
  description:
    "Removes tags from a record. Removing a tag that is not there is not an error. " +
    "Errors: NOT_FOUND when the record is not one of the buyer's; VALIDATION_FAILED " +
    "(extensions.fieldErrors) when tagIds is empty, too long, or names a tag that is not the buyer's. " +
    "tagsDetach does the same and answers these in `userErrors`.",
  twin: "tagsDetach",
  changing: "detaching",
  input: DetachTagsInput,
  change: (context, input) => changeTagsFrom(context, input, detachTags),
  answer: DetachTagsResultRef,
  result: "The tags still on the record; null when refused.",
});

// Every record a buyer can tag shows its tags.
for (const model of TAGGABLE_TYPES) {
  builder.prismaObjectField(model, "tags", (t) =>
    t.field({
      type: [TagRef],
      description: "The buyer's tags on this record, by name.",
      ...readsKeyedRows(recordTaggings(model), "tag", BY_NAME),
    }),
  );
}
