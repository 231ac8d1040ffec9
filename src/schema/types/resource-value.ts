import { type InputChecks, NON_BLANK_JSON_SCHEMA } from "../../domain/input-checks.js";
import { builder } from "../builder.js";

export interface ResourceValueShape {
  provider: string;
  value: string;
}

export const MAX_RESOURCE_VALUES = 50;

export const ResourceValueRef = builder.objectRef<ResourceValueShape>("ResourceValue").implement({
  description: "An identifier of this record in an external system.",
  fields: (t) => ({
    provider: t.exposeString("provider", { description: "Name of the external system." }),
    value: t.exposeString("value", { description: "The identifier in that system." }),
  }),
});

export const ResourceValueInput = builder.inputType("ResourceValueInput", {
  description: "An identifier of a record in an external system.",
  fields: (t) => ({
    provider: t.string({
      required: true,
      description: "Name of the external system; not blank.",
      extensions: { jsonSchema: NON_BLANK_JSON_SCHEMA },
    }),
    value: t.string({
      required: true,
      description: "The identifier in that system; not blank.",
      extensions: { jsonSchema: NON_BLANK_JSON_SCHEMA },
    }),
  }),
});

/** At most 50 values, each with a non-blank provider and value; returns them trimmed. */
export function checkResourceValues(
  checks: InputChecks,
  path: (string | number)[],
  values: ResourceValueShape[],
): ResourceValueShape[] {
  if (values.length > MAX_RESOURCE_VALUES) {
    checks.add(path, "too_many", `must have at most ${MAX_RESOURCE_VALUES} items`);
  }
  return values.map((item, index) => ({
    provider: checks.requiredText([...path, index, "provider"], item.provider),
    value: checks.requiredText([...path, index, "value"], item.value),
  }));
}
