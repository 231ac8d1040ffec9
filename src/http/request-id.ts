import { randomUUID } from "node:crypto";

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** An incoming X-Request-Id is kept when it is a sane token, so callers can correlate logs. */
export function pickRequestId(incoming: string | null): string {
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
