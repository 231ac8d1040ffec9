-- Rate-limit counters need no crash safety: after a crash or a failover the
-- current minute's counts start again from zero, which is harmless. Without
-- WAL, the upsert every request makes commits without waiting for a flush.
ALTER TABLE "rate_limit_windows" SET UNLOGGED;
