import { expect } from "vitest";

/** A lower-case canonical UUID, as every id in a response is written. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The contract's date-time: `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const anyUuid = () => expect.stringMatching(UUID);
export const anyDateTime = () => expect.stringMatching(DATE_TIME);

export interface FieldErrorBody {
  field: string;
  code: string;
  message: string;
}

/** RFC 9457 problem details as decisions.md §2 defines them. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id: string;
  errors?: FieldErrorBody[];
  allowed_statuses?: string[];
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/**
 * Asserts a problem response: status, media type, every member of the body
 * (request_id matching the X-Request-Id header) and, when given, exactly these
 * field errors (in any order) by REST field name and code, each with a message.
 */
export function expectProblem(
  response: ApiResponse,
  status: number,
  code: string,
  fieldErrors?: readonly (readonly [field: string, code: string])[],
): ProblemBody {
  expect({ status: response.status, body: response.body }).toMatchObject({ status, body: { code } });
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const requestId = response.headers.get("x-request-id");
  expect(requestId).toBeTruthy();
  const problem = response.body as ProblemBody;
  const expected: Record<string, unknown> = {
    type: "about:blank",
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
    request_id: requestId,
  };
  if (fieldErrors) {
    // Every problem, in any order.
    expected.errors = expect.toSatisfy(
      (errors: unknown) => Array.isArray(errors) && errors.length === fieldErrors.length,
      `exactly ${fieldErrors.length} field errors`,
    );
    expect(problem.errors).toEqual(
      expect.arrayContaining(
        fieldErrors.map(([field, fieldCode]) => ({ field, code: fieldCode, message: expect.any(String) })),
      ),
    );
  }
  if (problem.allowed_statuses !== undefined) expected.allowed_statuses = expect.any(Array);
  if (!fieldErrors && problem.errors !== undefined) expected.errors = expect.any(Array);
  expect(problem).toStrictEqual(expected);
  expect(problem.title).not.toBe("");
  expect(problem.detail).not.toBe("");
  return problem;
}

/** The REST field names in a problem's `errors`. */
export function errorFields(response: ApiResponse): string[] {
  return ((response.body as ProblemBody).errors ?? []).map((error) => error.field);
}

/** The body as an array of records (list endpoints). */
export function listBody(response: ApiResponse): Record<string, unknown>[] {
  expect(Array.isArray(response.body)).toBe(true);
  return response.body as Record<string, unknown>[];
}

/** The body as a record. */
export function objectBody(response: ApiResponse): Record<string, unknown> {
  expect(response.body).toBeTypeOf("object");
  expect(Array.isArray(response.body)).toBe(false);
  return response.body as Record<string, unknown>;
}

/** The ids of a list body, in order. */
export function idsOf(response: ApiResponse): string[] {
  return listBody(response).map((item) => String(item.id));
}

/** The target of `Link: <...>; rel="next"`, or null when there is none. */
export function nextLink(response: ApiResponse): string | null {
  const link = response.headers.get("link");
  if (link === null) return null;
  const match = /^<([^>]+)>;\s*rel="next"$/.exec(link);
  expect(match, `Link header ${link}`).not.toBeNull();
  return match?.[1] ?? null;
}

/** The UTC midnight starting `date` (YYYY-MM-DD), plus `ms` milliseconds. */
export function utc(date: string, ms = 0): Date {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + ms);
}
