import type { components, operations } from "./generated/api-types.js";
import type { OPERATIONS } from "./generated/operations.js";

/** The `operationId` of every operation of the document. */
export type OperationId = keyof operations & keyof typeof OPERATIONS;

/** An object type of `T`, or `{}` where the document has none. */
type Present<T> = [Exclude<T, undefined>] extends [never] ? unknown : Exclude<T, undefined>;

type ParametersOf<K extends OperationId> = operations[K]["parameters"];

/** `order_status[]` is written `order_status` in a call; the client sends the document's name. */
type WithoutBrackets<T> = { [P in keyof T as P extends `${infer Name}[]` ? Name : P]: T[P] };

export type PathParameters<K extends OperationId> = Present<ParametersOf<K>["path"]>;
export type QueryParameters<K extends OperationId> = WithoutBrackets<Present<ParametersOf<K>["query"]>>;

type RequestBodyOf<K extends OperationId> = operations[K] extends { requestBody?: infer R } ? R : never;
type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : never;

/** The JSON body an operation takes, under `body`: required when the document requires it. */
export type BodyInput<K extends OperationId> = [JsonOf<Exclude<RequestBodyOf<K>, undefined>>] extends [never]
  ? unknown
  : undefined extends RequestBodyOf<K>
    ? { body?: JsonOf<Exclude<RequestBodyOf<K>, undefined>> }
    : { body: JsonOf<Exclude<RequestBodyOf<K>, undefined>> };

/** What a call of the operation takes: its path and query parameters by name, and its `body`. */
export type Input<K extends OperationId> = PathParameters<K> & QueryParameters<K> & BodyInput<K>;

type ResponsesOf<K extends OperationId> = operations[K]["responses"];
type SuccessStatus = 200 | 201 | 202 | 204;
type ContentOf<R> = R extends { content: { "application/json": infer B } } ? B : undefined;

/** The body of the operation's success: the record, the page's array, or `undefined` for 204. */
export type Success<K extends OperationId> = {
  [S in keyof ResponsesOf<K>]: S extends SuccessStatus ? ContentOf<ResponsesOf<K>[S]> : never;
}[keyof ResponsesOf<K>];

type ProblemOf<R> = R extends { content: { "application/problem+json": infer P } } ? P : never;

/** The problem bodies the operation's error responses can carry. */
export type ProblemFor<K extends OperationId> = {
  [S in keyof ResponsesOf<K>]: S extends SuccessStatus | 304 ? never : ProblemOf<ResponsesOf<K>[S]>;
}[keyof ResponsesOf<K>];

type CodeOf<P> = P extends { code: infer C } ? C : never;

/**
 * The `code`s the operation's problems can have, as the document lists them,
 * and `unexpected_response` for an answer that is no problem at all (a proxy's page).
 */
export type ErrorCode<K extends OperationId> = CodeOf<ProblemFor<K>> | "unexpected_response";

/** Operations answered with a page of a list (`limit`, `cursor`, `Link`). */
export type ListOperationId = {
  [K in OperationId]: (typeof OPERATIONS)[K]["list"] extends true ? K : never;
}[OperationId];

/** One item of a list operation's page. */
export type Item<K extends OperationId> = Success<K> extends readonly (infer I)[] ? I : never;

/** A list's input: its filters, the page size, and a bound on the items read. */
export type ListInput<K extends OperationId> = Omit<Input<K>, "limit"> & {
  /** Items per request (the `limit` query parameter); the server's default when absent. */
  pageSize?: number;
  /** Stops after this many items, however many pages that is. */
  max?: number;
};

export type FieldError = components["schemas"]["FieldError"];
export type WebhookEvent = components["schemas"]["WebhookEvent"];
export type WebhookEventType = WebhookEvent["type"];
/** The event of one type, e.g. `WebhookEventOf<"order.updated">`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
export type Schemas = components["schemas"];
