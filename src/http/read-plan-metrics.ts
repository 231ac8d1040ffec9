// The metrics of planned reads: how each REST read and persisted GraphQL
// operation runs, the queries executed rather than planned and why, and the
// planned reads that failed.
import { Counter, Gauge, type Registry } from "prom-client";
import { PLAN_REFUSALS } from "../schema/planner/writers.js";

/**
 * Why a GraphQL query was executed rather than answered by its planned read:
 * the planner's refusals, its arguments refused (execution words the error),
 * or its planned read failed. A fixed list, so the label set stays bounded.
 */
export const EXECUTED_QUERY_REASONS = [...PLAN_REFUSALS, "arguments", "failed"] as const;

export type ExecutedQueryReason = (typeof EXECUTED_QUERY_REASONS)[number];

/** What the process counts of planned reads (part of Metrics). */
export interface PlannedReadMetrics {
  /** Records, once at startup, whether each REST read is planned (reason null) or executed, and why. */
  observeReadPlans(plans: readonly { operationId: string; reason: string | null }[]): void;
  /** Counts a planned read that failed, its request then executed. */
  countPlannedReadFailure(operationId: string): void;
  /** Records, once at startup, whether each persisted GraphQL document's operation is planned (reason null) or executed, and why. */
  observeDocumentPlans(
    plans: readonly { document: string; operation: string; reason: string | null }[],
  ): void;
  /** Counts a planned GraphQL read that failed, its operation then executed. */
  countPlannedDocumentFailure(): void;
  /** Counts a GraphQL query executed rather than answered by its planned read, by why. */
  countExecutedQuery(reason: ExecutedQueryReason): void;
}

/** The labels of a planned read: planned (no reason), or executed and why. */
function executionLabels(reason: string | null): { execution: "planned" | "executed"; reason: string } {
  return reason === null ? { execution: "planned", reason: "" } : { execution: "executed", reason };
}

/** How each REST read runs: planned into SQL, or executed (docs/design/performance.md, "Planned reads"). */
export function plannedReadMetrics(registry: Registry): PlannedReadMetrics {
  const plans = new Gauge({
    name: "rest_read_execution",
    help: "1 for each REST read: `planned` (answered from its SQL rows) or `executed`, with the reason",
    labelNames: ["operation", "execution", "reason"] as const,
    // Every worker plans the same: a cluster's scrape shows each read once.
    aggregator: "max",
    registers: [registry],
  });
  const failures = new Counter({
    name: "rest_planned_read_failures_total",
    help: "Planned reads that failed, by operation; each of those requests failed as an execution would",
    labelNames: ["operation"] as const,
    registers: [registry],
  });
  const documentPlans = new Gauge({
    name: "graphql_document_execution",
    help: "1 for each operation of a persisted GraphQL document (manifest): `planned` or `executed`, with the reason",
    labelNames: ["document", "operation", "execution", "reason"] as const,
    aggregator: "max",
    registers: [registry],
  });
  // Operation names are the client's to choose, so they are not a label.
  const documentFailures = new Counter({
    name: "graphql_planned_read_failures_total",
    help: "Planned GraphQL reads that failed; each of those operations was executed instead",
    registers: [registry],
  });
  const executedQueries = new Counter({
    name: "graphql_executed_queries_total",
    help: "GraphQL queries executed rather than answered by their planned read, by reason (docs/reference/graphql.md)",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  // Every reason shows from the start, at 0.
  for (const reason of EXECUTED_QUERY_REASONS) executedQueries.inc({ reason }, 0);
  return {
    observeDocumentPlans(planned) {
      for (const { document, operation, reason } of planned)
        documentPlans.set({ document, operation, ...executionLabels(reason) }, 1);
    },
    countPlannedDocumentFailure() {
      documentFailures.inc();
    },
    countExecutedQuery(reason) {
      executedQueries.inc({ reason });
    },
    observeReadPlans(planned) {
      for (const { operationId, reason } of planned)
        plans.set({ operation: operationId, ...executionLabels(reason) }, 1);
    },
    countPlannedReadFailure(operationId) {
      failures.inc({ operation: operationId });
    },
  };
}
