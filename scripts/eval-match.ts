// npm run eval:match: precision and recall of auto-match on the labelled cases
// in test/fixtures/auto-match-eval.json. Runs on in-memory PGlite, or on a
// scratch database (created and dropped) when DATABASE_URL names a PostgreSQL server.
import { createTestDatabase } from "../test/support/test-database.js";
import { evaluate, formatReport, loadEvaluationFixture } from "../tools/match-evaluation.js";

const database = await createTestDatabase();
try {
  const report = await evaluate(database, await loadEvaluationFixture());
  process.stdout.write(`auto-match evaluation on ${database.target.kind}\n${formatReport(report)}`);
  // A wrong match attaches a buyer's material to another chemical's approvals: fail loudly.
  if (report.precision < 1) process.exitCode = 1;
} finally {
  await database.close();
}
