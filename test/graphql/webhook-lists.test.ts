// The webhook lists (endpoints, events, deliveries): the buyer's rows only,
// newest first, paged forward, their arguments checked before anything is read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { graphql, graphqlData } from "./helpers.js";

interface EndpointPage {
  webhookEndpoints: {
    totalCount: number;
    nodes: { url: string }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

describe("webhook lists over GraphQL", () => {
  let test: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let othersEndpointId: string;

  const createEndpoint = async (key: string, path: string) => {
    const data = await graphqlData<{ createWebhookEndpoint: { endpoint: { id: string } } }>(
      test.app,
      "mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }",
      { key, variables: { input: { url: `https://93.184.215.14/${path}`, enabledEvents: ["*"] } } },
    );
    return data.createWebhookEndpoint.endpoint.id;
  };

  beforeAll(async () => {
    test = await createTestApp();
    buyer = await seedBuyer(test.database, "Lists");
    other = await seedBuyer(test.database, "Other");
    for (const path of ["first", "second", "third"]) await createEndpoint(buyer.apiKey, path);
    othersEndpointId = await createEndpoint(other.apiKey, "others");
  });
  afterAll(() => test.close());

  it("pages through the buyer's endpoints newest first, without another buyer's", async () => {
    const query = `query($after: String) { webhookEndpoints(first: 2, after: $after) {
      totalCount nodes { url } pageInfo { hasNextPage endCursor } } }`;
    const first = await graphqlData<EndpointPage>(test.app, query, { key: buyer.apiKey });
    expect(first.webhookEndpoints.totalCount).toBe(3);
    expect(first.webhookEndpoints.nodes.map((node) => node.url)).toEqual([
      "https://93.184.215.14/third",
      "https://93.184.215.14/second",
    ]);
    expect(first.webhookEndpoints.pageInfo.hasNextPage).toBe(true);
    const next = await graphqlData<EndpointPage>(test.app, query, {
      key: buyer.apiKey,
      variables: { after: first.webhookEndpoints.pageInfo.endCursor },
    });
    expect(next.webhookEndpoints.nodes.map((node) => node.url)).toEqual(["https://93.184.215.14/first"]);
    expect(next.webhookEndpoints.pageInfo.hasNextPage).toBe(false);
  });

  it("refuses a bad page size and unknown event types in one answer, naming each argument", async () => {
    const refused = await graphql(
      test.app,
      `{ events(first: 0, filter: { type: ["order.created", "order.deleted"] }) { totalCount } }`,
      { key: buyer.apiKey },
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const problems = (refused.errors?.[0]?.extensions?.fieldErrors ?? []) as { path: unknown[] }[];
    expect(problems.map((problem) => problem.path.join("."))).toEqual(["first", "filter.type.1"]);
  });

  it("answers NOT_FOUND for the deliveries of another buyer's endpoint, after checking the page size", async () => {
    const query = `query($endpointId: UUID!, $first: Int) {
      webhookDeliveries(endpointId: $endpointId, first: $first) { totalCount } }`;
    const notFound = await graphql(test.app, query, {
      key: buyer.apiKey,
      variables: { endpointId: othersEndpointId },
    });
    expect(notFound.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const badSize = await graphql(test.app, query, {
      key: buyer.apiKey,
      variables: { endpointId: othersEndpointId, first: 501 },
    });
    expect(badSize.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const own = await graphqlData<{ webhookDeliveries: { totalCount: number } }>(test.app, query, {
      key: other.apiKey,
      variables: { endpointId: othersEndpointId },
    });
    expect(own.webhookDeliveries.totalCount).toBe(0);
  });

  it("answers UNAUTHENTICATED without a key before looking at the arguments", async () => {
    for (const query of [
      "{ webhookEndpoints(first: 0) { totalCount } }",
      '{ events(first: 0, filter: { type: ["order.deleted"] }) { totalCount } }',
      `{ webhookDeliveries(endpointId: "${othersEndpointId}", first: 0) { totalCount } }`,
    ]) {
      const refused = await graphql(test.app, query, { key: null });
      expect(refused.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    }
  });
});
