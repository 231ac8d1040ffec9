export {
  type ApiResponse,
  BuyerApi,
  type CallOptions,
  type ClientOptions,
  type FeedInput,
  type RetryOptions,
} from "./client.js";
export { BuyerApiError, type ProblemBody } from "./errors.js";
export { type CachedAnswer, ETagCache } from "./etag-cache.js";
export type {
  ErrorCode,
  FieldError,
  Input,
  Item,
  ListInput,
  OperationId,
  Schemas,
  Success,
  WebhookEvent,
  WebhookEventOf,
  WebhookEventType,
} from "./types.js";
export {
  type VerifyOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
} from "./webhooks.js";
