// The rules for a buyer's webhook endpoint, whoever sets it: the REST and
// GraphQL APIs and the operators' CLI, through src/services/webhook-endpoints.ts.
import { validationFailed } from "./errors.js";
import { InputChecks } from "./input-checks.js";
import { ALL_EVENTS, isWebhookEventType, WEBHOOK_EVENT_TYPES } from "./webhook-events.js";
import { MAX_WEBHOOK_URL_LENGTH } from "./webhook-url.js";

export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 1000;

type Path = (string | number)[];

export interface EndpointFields {
  url?: string | null;
  enabledEvents?: readonly string[] | null;
  description?: string | null;
}

export interface CheckedEndpointFields {
  url?: string;
  enabledEvents?: string[];
  description?: string | null;
}

/** What is wrong with a URL of a fitting length, DNS included, or null. */
export type UrlCheck = (url: string) => Promise<string | null>;

/**
 * Checks what a create (`required`) or an update sets, reporting every
 * problem at once under `base` (`["input"]`); throws VALIDATION_FAILED.
 */
export async function checkEndpointFields(
  fields: EndpointFields,
  checkUrl: UrlCheck,
  options: { required: boolean; base: Path },
): Promise<CheckedEndpointFields> {
  const checks = new InputChecks();
  const at = (...path: Path) => [...options.base, ...path];
  const checked: CheckedEndpointFields = {};

  if (fields.url === null || (fields.url === undefined && options.required)) {
    checks.add(at("url"), "required", "is required");
  } else if (fields.url !== undefined) {
    const url = fields.url.trim();
    // Too long is `too_long`, as for every other text; only a URL of a fitting length is looked at.
    if ([...url].length > MAX_WEBHOOK_URL_LENGTH) {
      checks.add(at("url"), "too_long", `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
    } else {
      const problem = await checkUrl(url);
      if (problem) checks.add(at("url"), "invalid", problem);
    }
    checked.url = url;
  }

  if (fields.enabledEvents === null || (fields.enabledEvents === undefined && options.required)) {
    checks.add(at("enabledEvents"), "required", `is required: event types, or ["${ALL_EVENTS}"] for all`);
  } else if (fields.enabledEvents !== undefined) {
    const events = fields.enabledEvents.map((event) => event.trim());
    if (events.length === 0) {
      checks.add(at("enabledEvents"), "required", `must name at least one event type, or "${ALL_EVENTS}"`);
    }
    const seen = new Set<string>();
    for (const [index, event] of events.entries()) {
      if (seen.has(event)) checks.add(at("enabledEvents", index), "duplicate", "is listed twice");
      seen.add(event);
      if (event === ALL_EVENTS) {
        if (events.length > 1)
          checks.add(at("enabledEvents", index), "invalid", `"${ALL_EVENTS}" must stand alone`);
      } else if (!isWebhookEventType(event)) {
        checks.add(
          at("enabledEvents", index),
          "invalid",
          `is not an event type; use one of ${WEBHOOK_EVENT_TYPES.join(", ")}, or "${ALL_EVENTS}"`,
        );
      }
    }
    checked.enabledEvents = events;
  }

  if (fields.description !== undefined) {
    checked.description =
      checks.optionalText(at("description"), fields.description, MAX_WEBHOOK_DESCRIPTION_LENGTH) ?? null;
  }
  if (checks.problems.length) throw validationFailed(checks.problems);
  return checked;
}
