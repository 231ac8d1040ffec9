import { BuyerApiError, type ProblemBody, retryAfterSeconds } from "./errors.js";
import { ETagCache } from "./etag-cache.js";
import { API_PREFIX, OPERATIONS } from "./generated/operations.js";
import type {
  Input,
  Item,
  ListInput,
  ListOperationId,
  OperationId,
  Success,
  WebhookEvent,
  WebhookEventType,
} from "./types.js";

/** How failed attempts are retried: 429, 503 and connection errors, with `Retry-After` or jittered backoff. */
export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries?: number;
  /** The backoff's first delay; each retry doubles the ceiling, and the delay is drawn below it. */
  baseDelayMs?: number;
  /** The longest wait: a `Retry-After` beyond it is not waited for, and the error is thrown. */
  maxDelayMs?: number;
}

export interface ClientOptions {
  /** The origin, `https://api.example.com`, or the API's base under it (`…/api/public/buyer/v1`). */
  baseUrl: string;
  apiKey: string;
  /** `fetch` to send requests with: the platform's by default. */
  fetch?: typeof fetch;
  retry?: RetryOptions;
  /** Keep GET answers by ETag so that repeated reads are 304s: `true` or a cache of your own. */
  cache?: boolean | ETagCache;
  /** Headers sent with every request (`Accept-Encoding`, a `User-Agent`). */
  headers?: Record<string, string>;
}

export interface CallOptions {
  /** The `Idempotency-Key` of a POST: one is made when absent, and kept for every retry. */
  idempotencyKey?: string;
  /** `If-Match` of a PATCH: the ETag a read gave; a changed record is then 412 `precondition_failed`. */
  ifMatch?: string;
  /** Sent as `X-Request-Id`, and named by the server's logs. */
  requestId?: string;
  signal?: AbortSignal;
}

/** An operation's answer with what its headers say. */
export interface ApiResponse<K extends OperationId> {
  data: Success<K>;
  status: number;
  /** The ETag (GET, PATCH): pass it as `ifMatch` to change the record only as read. */
  etag: string | undefined;
  requestId: string | undefined;
  /** The answer came from the cache after a 304. */
  notModified: boolean;
  /** `Link` of the answer (of the kept one after a 304). */
  link: string | null;
  headers: Headers;
}

type Args<K extends OperationId> =
  object extends Input<K>
    ? [input?: Input<K>, options?: CallOptions]
    : [input: Input<K>, options?: CallOptions];
type ListArgs<K extends OperationId> =
  object extends ListInput<K>
    ? [input?: ListInput<K>, options?: CallOptions]
    : [input: ListInput<K>, options?: CallOptions];

type Method<K> = K extends ListOperationId
  ? (...args: ListArgs<K>) => AsyncIterable<Item<K>>
  : K extends OperationId
    ? (...args: Args<K>) => Promise<Success<K>>
    : never;

/** Every operation, by resource and verb. */
const RESOURCES = {
  orders: { list: "listOrders", get: "getOrder", update: "updateOrder" },
  buyerProducts: { create: "createBuyerProduct", get: "getBuyerProduct" },
  buyerProductApprovals: { list: "listBuyerProductApprovals", get: "getBuyerProductApproval" },
  supplierUsers: { create: "createSupplierUser" },
  taggings: { create: "attachTags" },
  events: { list: "listEvents", get: "getEvent", redeliver: "redeliverEvent" },
  webhookEndpoints: {
    list: "listWebhookEndpoints",
    create: "createWebhookEndpoint",
    get: "getWebhookEndpoint",
    update: "updateWebhookEndpoint",
    delete: "deleteWebhookEndpoint",
    rotateSecret: "rotateWebhookEndpointSecret",
  },
  webhookDeliveries: { list: "listWebhookDeliveries" },
} as const satisfies Record<string, Record<string, OperationId>>;

type ResourceTable = typeof RESOURCES;
type Resources = {
  [R in keyof ResourceTable]: { [V in keyof ResourceTable[R]]: Method<ResourceTable[R][V]> };
};

// Fails to compile when the document has an operation no resource names.
type Named = { [R in keyof ResourceTable]: ResourceTable[R][keyof ResourceTable[R]] }[keyof ResourceTable];
const everyOperationNamed: [Exclude<OperationId, Named>] extends [never]
  ? true
  : Exclude<OperationId, Named> = true;
void everyOperationNamed;

/** The events feed from a checkpoint: the events after `after`, oldest first. */
export interface FeedInput {
  /** The id of the last event the caller handled and stored; absent: every event kept. */
  after?: string;
  type?: WebhookEventType[];
  pageSize?: number;
  /** Stops after this many events. */
  max?: number;
}

const RETRYABLE_STATUSES = new Set([429, 503]);

/** The Buyer Public API v1. */
export class BuyerApi {
  declare readonly orders: Resources["orders"];
  declare readonly buyerProducts: Resources["buyerProducts"];
  declare readonly buyerProductApprovals: Resources["buyerProductApprovals"];
  declare readonly supplierUsers: Resources["supplierUsers"];
  declare readonly taggings: Resources["taggings"];
  declare readonly events: Resources["events"] & {
    /** Events after the stored checkpoint, oldest first, for `for await`. */
    feed(input?: FeedInput, options?: CallOptions): AsyncIterable<WebhookEvent>;
  };
  declare readonly webhookEndpoints: Resources["webhookEndpoints"];
  declare readonly webhookDeliveries: Resources["webhookDeliveries"];

  readonly #origin: string;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #retry: Required<RetryOptions>;
  readonly #cache: ETagCache | undefined;
  readonly #headers: Record<string, string>;

  constructor(options: ClientOptions) {
    const base = options.baseUrl.replace(/\/+$/, "");
    this.#origin = base.endsWith(API_PREFIX) ? base.slice(0, -API_PREFIX.length) : base;
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#retry = { maxRetries: 4, baseDelayMs: 250, maxDelayMs: 30_000, ...options.retry };
    this.#cache = options.cache === true ? new ETagCache() : options.cache || undefined;
    this.#headers = options.headers ?? {};
    const resources: Record<string, Record<string, unknown>> = {};
    for (const [resource, verbs] of Object.entries(RESOURCES)) {
      const methods: Record<string, unknown> = {};
      for (const [verb, operation] of Object.entries(verbs)) {
        methods[verb] = OPERATIONS[operation].list
          ? (input?: Record<string, unknown>, options?: CallOptions) =>
              this.#paginate(operation, input ?? {}, options)
          : async (input?: Record<string, unknown>, options?: CallOptions) =>
              (await this.#send(operation, input ?? {}, options)).data;
      }
      resources[resource] = methods;
    }
    (resources.events as Record<string, unknown>).feed = (input?: FeedInput, options?: CallOptions) =>
      this.#feed(input ?? {}, options);
    Object.assign(this, resources);
  }

  /** Any operation by its `operationId`, with the answer's ETag, request id and headers. */
  request<K extends OperationId>(operation: K, ...[input, options]: Args<K>): Promise<ApiResponse<K>> {
    return this.#send(operation, (input ?? {}) as Record<string, unknown>, options) as Promise<
      ApiResponse<OperationId>
    > as unknown as Promise<ApiResponse<K>>;
  }

  #url(operation: OperationId, input: Record<string, unknown>): { url: string; body: unknown } {
    const { path, query } = OPERATIONS[operation];
    const used = new Set<string>(["body"]);
    const filled = path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
      const value = input[name];
      if (typeof value !== "string" || value === "")
        throw new TypeError(`${operation}: "${name}" is required`);
      used.add(name);
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    const queryNames: readonly string[] = query;
    for (const [name, value] of Object.entries(input)) {
      if (used.has(name) || value === undefined) continue;
      const sent = queryNames.includes(name)
        ? name
        : queryNames.includes(`${name}[]`)
          ? `${name}[]`
          : undefined;
      if (sent === undefined) throw new TypeError(`${operation} takes no parameter "${name}"`);
      for (const item of Array.isArray(value) ? value : [value]) search.append(sent, String(item));
    }
    const text = search.toString();
    return { url: `${this.#origin}${filled}${text ? `?${text}` : ""}`, body: input.body };
  }

  async #send(
    operation: OperationId,
    input: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<ApiResponse<OperationId>> {
    const { url, body } = this.#url(operation, input);
    return this.#exchange(operation, url, body, options);
  }

  async #exchange(
    operation: OperationId,
    url: string,
    body: unknown,
    options: CallOptions,
  ): Promise<ApiResponse<OperationId>> {
    const { method } = OPERATIONS[operation];
    const headers = new Headers(this.#headers);
    headers.set("x-api-key", this.#apiKey);
    headers.set("accept", "application/json, application/problem+json");
    if (body !== undefined) headers.set("content-type", "application/json");
    // A POST's retry carries the key of its first attempt, so the server replays instead of writing again.
    if (method === "POST") headers.set("idempotency-key", options.idempotencyKey ?? crypto.randomUUID());
    if (options.ifMatch !== undefined) headers.set("if-match", options.ifMatch);
    if (options.requestId !== undefined) headers.set("x-request-id", options.requestId);
    const cacheKey =
      method === "GET" && this.#cache ? ETagCache.key(url, headers.get("accept-encoding")) : "";
    const cached = cacheKey ? this.#cache?.get(cacheKey) : undefined;
    if (cached) headers.set("if-none-match", cached.etag);
    // A PATCH sent with If-Match is not repeated after a lost answer: if the first was written, the repeat is a 412.
    const repeatable = !(method === "PATCH" && options.ifMatch !== undefined);
    const init: RequestInit = {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(options.signal ? { signal: options.signal } : {}),
    };

    let lostAnswer = false;
    for (let attempt = 0; ; attempt += 1) {
      let response: Response;
      let text: string;
      try {
        response = await this.#fetch(url, init);
        // A connection lost while the body arrives is a lost answer too.
        text = await response.text();
      } catch (error) {
        const delay = this.#backoff(attempt, undefined);
        if (!repeatable || options.signal?.aborted || delay === undefined) throw error;
        lostAnswer = true;
        await sleep(delay, options.signal);
        continue;
      }
      if (response.status === 304 && cached) {
        return this.#answer(cached.text, response, {
          etag: cached.etag,
          link: cached.link,
          notModified: true,
        });
      }
      if (response.ok) {
        const etag = response.headers.get("etag") ?? undefined;
        const link = response.headers.get("link");
        if (cacheKey && etag) this.#cache?.set(cacheKey, { etag, text, link });
        return this.#answer(text, response, { etag, link, notModified: false });
      }
      const problem = parseProblem(text);
      // A DELETE repeated after a lost answer finds the record already gone: the first one did it.
      if (method === "DELETE" && lostAnswer && response.status === 404) {
        return this.#answer("", response, { etag: undefined, link: null, notModified: false });
      }
      const busy = response.status === 409 && problem.code === "idempotency_request_in_progress";
      if (RETRYABLE_STATUSES.has(response.status) || busy) {
        const delay = this.#backoff(attempt, retryAfterSeconds(response.headers));
        if (delay !== undefined && !options.signal?.aborted) {
          await sleep(delay, options.signal);
          continue;
        }
      }
      throw new BuyerApiError(operation, response.status, problem, response.headers);
    }
  }

  /** The wait before retry `attempt + 1`, or undefined when there is none. */
  #backoff(attempt: number, retryAfter: number | undefined): number | undefined {
    const { maxRetries, baseDelayMs, maxDelayMs } = this.#retry;
    if (attempt >= maxRetries) return undefined;
    // Jitter spreads clients that failed together, so they do not come back together.
    const jitter = Math.random() * baseDelayMs;
    if (retryAfter !== undefined) {
      const wait = retryAfter * 1000 + jitter;
      return wait > maxDelayMs ? undefined : wait;
    }
    return Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  }

  #answer(
    text: string,
    response: Response,
    meta: Pick<ApiResponse<OperationId>, "etag" | "link" | "notModified">,
  ): ApiResponse<OperationId> {
    return {
      ...meta,
      data: (text === "" ? undefined : JSON.parse(text)) as never,
      status: meta.notModified ? 200 : response.status,
      requestId: response.headers.get("x-request-id") ?? undefined,
      headers: response.headers,
    };
  }

  async *#paginate(
    operation: OperationId,
    input: Record<string, unknown>,
    options: CallOptions | undefined,
  ): AsyncGenerator<unknown> {
    const { pageSize, max, ...filters } = input;
    const bound = typeof max === "number" ? max : Number.POSITIVE_INFINITY;
    let url: string | undefined = this.#url(
      operation,
      pageSize === undefined ? filters : { ...filters, limit: pageSize },
    ).url;
    let count = 0;
    while (url !== undefined && count < bound) {
      const answer = await this.#exchange(operation, url, undefined, options ?? {});
      for (const item of answer.data as unknown[]) {
        if (count >= bound) return;
        count += 1;
        yield item;
      }
      url = nextPage(url, answer.link);
    }
  }

  async *#feed(input: FeedInput, options: CallOptions | undefined): AsyncGenerator<WebhookEvent> {
    const { after, max, ...filters } = input;
    // The feed is newest first: read back to the checkpoint, then hand the events over in the order they happened.
    const newer: WebhookEvent[] = [];
    for await (const event of this.#paginate("listEvents", filters, options) as AsyncIterable<WebhookEvent>) {
      if (event.id === after) break;
      newer.push(event);
    }
    const oldestFirst = newer.reverse();
    yield* max === undefined ? oldestFirst : oldestFirst.slice(0, max);
  }
}

/** The next page's URL: the `Link` rel="next" target's query on this client's own base, so a proxy in front stays in the path. */
function nextPage(current: string, link: string | null | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2] ?? "")) {
      const target = new URL(match[1] ?? "", current);
      const url = new URL(current);
      url.search = target.search;
      return url.toString();
    }
  }
  return undefined;
}

function parseProblem(text: string): ProblemBody {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as ProblemBody;
  } catch {
    // Not JSON: a proxy's page, not the API's problem.
  }
  return {};
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
