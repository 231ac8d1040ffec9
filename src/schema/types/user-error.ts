// Typed refusals for the mutations that answer them in their payload
// (docs/reference/graphql.md "Errors"): the same codes, paths and messages as the
// top-level errors of the original mutations, as fields a generated client types.
import type { FieldProblem } from "../../domain/errors.js";
import { builder, type SchemaTypes } from "../builder.js";
import {
  USER_ERROR_CODES,
  type UserErrorCode,
  type UserErrorShape,
  type UserErrorsExtension,
} from "../domain-errors.js";
import { OrderStatusEnum } from "../enums.js";

const USER_ERROR_DESCRIPTIONS: Record<UserErrorCode, string> = {
  VALIDATION_FAILED: "An input field is wrong: see `field` and `fieldCode`.",
  NOT_FOUND: "The record `field` names is not one of the buyer's.",
  INVALID_TRANSITION: "The order may not move to that status: see `allowedStatuses`.",
  ALREADY_EXISTS: "A record with the value of `field` already exists.",
};

const UserErrorCodeEnum = builder.enumType("UserErrorCode", {
  description:
    "Why a mutation refused the request; the same code a top-level error carries in `extensions.code`.",
  values: Object.fromEntries(
    USER_ERROR_CODES.map((code) => [code, { value: code, description: USER_ERROR_DESCRIPTIONS[code] }]),
  ) as Record<UserErrorCode, { value: UserErrorCode; description: string }>,
});

const FIELD_ERROR_DESCRIPTIONS: Record<FieldProblem["code"], string> = {
  required: "Missing or blank.",
  invalid: "Not a value the field takes (format, null, or a global ID of another type).",
  too_long: "Longer than the field takes.",
  out_of_range: "A number outside the range the field takes.",
  too_many: "A list with more items than the field takes.",
  duplicate: "A list item that is listed before.",
  not_found: "An id of no record of the buyer.",
};

const FieldErrorCodeEnum = builder.enumType("FieldErrorCode", {
  description: "What is wrong with one input field (VALIDATION_FAILED); `code` in REST's `errors[]`.",
  values: Object.fromEntries(
    Object.entries(FIELD_ERROR_DESCRIPTIONS).map(([code, description]) => [
      code.toUpperCase(),
      { value: code, description },
    ]),
  ) as Record<string, { value: FieldProblem["code"]; description: string }>,
});

export const UserErrorRef = builder.objectRef<UserErrorShape>("UserError").implement({
  description:
    "One reason a mutation refused the request. A refused request changes nothing; the payload's other fields are null.",
  fields: (t) => ({
    code: t.expose("code", { type: UserErrorCodeEnum, description: "Why." }),
    field: t.exposeStringList("field", {
      nullable: true,
      description:
        'The path of the input field concerned, from the argument name: `["input", "resourceValues", "0", "value"]`; null when the refusal concerns no one field.',
    }),
    fieldCode: t.expose("fieldCode", {
      type: FieldErrorCodeEnum,
      nullable: true,
      description: "For VALIDATION_FAILED: what is wrong with the field.",
    }),
    message: t.exposeString("message", { description: "For people: what is wrong, in English." }),
    allowedStatuses: t.expose("allowedStatuses", {
      type: [OrderStatusEnum],
      nullable: true,
      description: "For INVALID_TRANSITION: the statuses the order may move to instead.",
    }),
  }),
});

/** The field extension of a mutation that answers refusals in `userErrors`. */
export function answersUserErrors(fieldOf: UserErrorsExtension["fieldOf"] = {}): {
  userErrors: UserErrorsExtension;
} {
  return { userErrors: { fieldOf } };
}

/** What a payload with `userErrors` holds: the outcome, or only the refusals. */
export type WithUserErrors<Outcome> = Partial<Outcome> & { userErrors?: UserErrorShape[] };

/** A payload's `userErrors` field: its refusals, empty when the mutation was done. */
export function userErrorsField<Outcome>(
  t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, WithUserErrors<Outcome>>,
  description: string,
) {
  return t.field({
    type: [UserErrorRef],
    description,
    resolve: (payload) => payload.userErrors ?? [],
  });
}
