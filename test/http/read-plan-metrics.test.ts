// How GET /metrics says each read runs: every REST read and persisted GraphQL
// operation once, planned (answered from its SQL rows) or executed and why;
// the planned reads that failed; and GraphQL queries executed rather than
// planned, by a fixed list of reasons that all show from the start.
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/http/metrics.js";
import { EXECUTED_QUERY_REASONS } from "../../src/http/read-plan-metrics.js";

describe("the planned reads in the metrics", () => {
  it("show each REST read once as planned, or executed with its reason", async () => {
    const metrics = createMetrics();
    metrics.observeReadPlans([
      { operationId: "listOrders", reason: null },
      { operationId: "getSupplier", reason: "root_field" },
    ]);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^rest_read_execution\{operation="listOrders",execution="planned",reason=""\} 1$/m);
    expect(text).toMatch(
      /^rest_read_execution\{operation="getSupplier",execution="executed",reason="root_field"\} 1$/m,
    );
  });

  it("show each persisted document's operations likewise", async () => {
    const metrics = createMetrics();
    metrics.observeDocumentPlans([
      { document: "sha256:abc", operation: "RecentOrders", reason: null },
      { document: "sha256:abc", operation: "Schema", reason: "introspection" },
    ]);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'graphql_document_execution{document="sha256:abc",operation="RecentOrders",execution="planned",reason=""} 1',
    );
    expect(text).toContain(
      'graphql_document_execution{document="sha256:abc",operation="Schema",execution="executed",reason="introspection"} 1',
    );
  });

  it("count planned reads that failed, REST by operation and GraphQL in all", async () => {
    const metrics = createMetrics();
    metrics.countPlannedReadFailure("listOrders");
    metrics.countPlannedReadFailure("listOrders");
    metrics.countPlannedDocumentFailure();
    const text = await metrics.registry.metrics();
    expect(text).toContain('rest_planned_read_failures_total{operation="listOrders"} 2');
    expect(text).toMatch(/^graphql_planned_read_failures_total 1$/m);
  });

  it("count executed GraphQL queries by reason, every reason showing from the start at 0", async () => {
    const metrics = createMetrics();
    const before = await metrics.registry.metrics();
    for (const reason of EXECUTED_QUERY_REASONS)
      expect(before).toContain(`graphql_executed_queries_total{reason="${reason}"} 0`);
    metrics.countExecutedQuery("arguments");
    metrics.countExecutedQuery("failed");
    metrics.countExecutedQuery("failed");
    const after = await metrics.registry.metrics();
    expect(after).toContain('graphql_executed_queries_total{reason="arguments"} 1');
    expect(after).toContain('graphql_executed_queries_total{reason="failed"} 2');
    expect(after).toContain('graphql_executed_queries_total{reason="root_field"} 0');
  });
});
