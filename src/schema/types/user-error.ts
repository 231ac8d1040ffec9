// Typed refusals for the mutations that answer them in their payload
// (docs/graphql.md "Errors"): the same codes, paths and messages as the
// top-level errors of the original mutations, as fields a generated client types.
import type { FieldProblem } from "../../domain/errors.js";
import { builder } from "../builder.js";
import {
  USER_ERROR_CODES,
  type UserErrorCode,
  type UserErrorShape,
  type UserErrorsExtension,
} from "../domain-errors.js";
import { OrderStatusEnum } from "../enums.js";

const UserErrorCodeEnum = builder.enumType("UserErrorCode", {
  description:
    "Why a mutation refused the request; the same code a top-level error carries in `extensions.code`.",
  values: Object.fromEntries(USER_ERROR_CODES.map((code) => [code, { value: code }])) as Record<
    UserErrorCode,
    { value: UserErrorCode }
  >,
});

const FIELD_ERROR_CODES: FieldProblem["code"][] = [
  "required",
  "invalid",
  "too_long",
  "out_of_range",
  "too_many",
  "duplicate",
  "not_found",
];

const FieldErrorCodeEnum = builder.enumType("FieldErrorCode", {
  description: "What is wrong with one input field (VALIDATION_FAILED); `code` in REST's `errors[]`.",
  values: Object.fromEntries(
    FIELD_ERROR_CODES.map((code) => [code.toUpperCase(), { value: code }]),
  ) as Record<string, { value: FieldProblem["code"] }>,
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
