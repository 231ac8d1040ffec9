// One attempt of one delivery, as the worker's sender makes it to a real
// receiver on a loopback socket: what counts as delivered, what an endpoint's
// failure is recorded as, and that no connection outlives its attempt's time.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { generateSigningSecret } from "../../src/domain/webhook-secrets.js";
import { createWebhookSender, type SignedMessage, type WebhookSender } from "../../src/webhooks/send.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

const TIMEOUT_MS = 500;
const permissive = { allowHttp: true, allowPrivateNetworks: true };

describe("a delivery attempt", { timeout: 30_000 }, () => {
  let receiver: Receiver;
  let sender: WebhookSender;
  const secret = generateSigningSecret();

  const message = (): SignedMessage => ({
    id: randomUUID(),
    body: JSON.stringify({ type: "order.updated", data: { object: { id: randomUUID() } } }),
    secrets: [secret],
  });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.setSecret(secret);
    sender = createWebhookSender({
      timeoutMs: TIMEOUT_MS,
      policy: permissive,
      userAgent: "sender-test",
      idleConnectionsPerOrigin: 2,
    });
  });
  afterEach(() => {
    receiver.received.length = 0;
    receiver.answerAlways(200);
  });
  afterAll(async () => {
    sender?.close();
    await receiver?.close();
  });

  it("is delivered on a 2xx: a signed JSON POST with the event's id as webhook-id", async () => {
    const sent = message();
    expect(await sender.send(receiver.url, sent)).toMatchObject({ statusCode: 200, error: null });
    const [received] = receiver.received;
    expect(received?.verified).toBe(true);
    expect(received?.text).toBe(sent.body);
    expect(received?.headers).toMatchObject({
      "webhook-id": sent.id,
      "content-type": "application/json",
      "user-agent": "sender-test",
    });
  });

  it.each([500, 404, 302])(
    "fails on an answer of %i, named by its status; a redirect is not followed",
    async (status) => {
      receiver.answerAlways(status);
      expect(await sender.send(receiver.url, message())).toMatchObject({
        statusCode: status,
        error: `HTTP ${status}`,
      });
      expect(receiver.received).toHaveLength(1);
    },
  );

  it("fails with no status when no answer comes within its time, and leaves no connection open", async () => {
    receiver.answerAlways("hang");
    expect(await sender.send(receiver.url, message())).toMatchObject({
      statusCode: null,
      error: `no answer within ${TIMEOUT_MS} ms`,
    });
    await vi.waitFor(async () => expect(await receiver.openConnections()).toBe(0), { timeout: 5_000 });
  });

  it("counts a 2xx whose body never ends as delivered, and closes that connection once its time is up", async () => {
    receiver.answerAlways("unfinished body");
    expect(await sender.send(receiver.url, message())).toMatchObject({ statusCode: 200, error: null });
    await vi.waitFor(async () => expect(await receiver.openConnections()).toBe(0), { timeout: 5_000 });
  });

  it("never connects to an address the URL policy refuses", async () => {
    const strict = createWebhookSender({
      timeoutMs: TIMEOUT_MS,
      policy: { allowHttp: true, allowPrivateNetworks: false },
      userAgent: "sender-test",
      idleConnectionsPerOrigin: 1,
    });
    try {
      const before = receiver.connectionsAccepted();
      const outcome = await strict.send(receiver.url, message());
      expect(outcome.statusCode).toBeNull();
      expect(outcome.error).toMatch(/^refused: .*loopback/);
      expect(receiver.connectionsAccepted()).toBe(before);
      expect(receiver.received).toEqual([]);
    } finally {
      strict.close();
    }
  });

  it("keeps its connections for the next attempts to the same origin", async () => {
    const before = receiver.connectionsAccepted();
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect(await sender.send(receiver.url, message())).toMatchObject({ statusCode: 200 });
    // One connection serves them all; a second only should the first idle out between two attempts.
    expect(receiver.connectionsAccepted() - before).toBeLessThanOrEqual(2);
    expect(receiver.received).toHaveLength(5);
  });
});
