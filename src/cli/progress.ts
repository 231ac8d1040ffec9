import cliProgress from "cli-progress";
import type { ProgressListener } from "../import/write.js";

/** Below this many rows an import takes a moment; a bar would only flicker. */
const MIN_ROWS_FOR_BAR = 5_000;

export interface Progress {
  listener: ProgressListener;
  stop(): void;
}

/** A progress bar on stderr, shown only on a terminal so that logs and pipes stay clean. */
export function importProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { listener: () => {}, stop() {} };
  let bar: cliProgress.SingleBar | null = null;
  return {
    listener(done, total) {
      if (total < MIN_ROWS_FOR_BAR) return;
      if (!bar) {
        bar = new cliProgress.SingleBar(
          { stream, format: "writing [{bar}] {percentage}% | {value}/{total} rows | {duration_formatted}" },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, done);
      } else {
        bar.update(done);
      }
    },
    stop() {
      bar?.stop();
    },
  };
}
