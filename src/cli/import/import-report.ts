// What the import tells whoever runs it: a progress bar on a terminal (cli-progress: counts, bytes,
// rate and ETA, redrawn in place on stderr), plain lines otherwise (a log file, CI), or with --json
// one JSON line per file and a final summary line on stdout, for scripts. Failures are always told,
// naming the file.
import { SingleBar } from "cli-progress";

/** `exported` and `unchanged` are `contact-sheet export`'s, which reports through the same reporters. */
export type FileStatus = "uploaded" | "duplicate" | "skipped" | "failed" | "new" | "exported" | "unchanged";

export interface FileOutcome {
  path: string;
  status: FileStatus;
  photoId?: string;
  reason?: string;
  bytes?: number;
}

/** The summary line, exactly as issue 28 names its keys. */
export interface ImportSummary {
  uploaded: number;
  duplicates: number;
  skipped: number;
  failed: number;
  albumsCreated: number;
}

export interface ImportReporter {
  /** A phase starts: how many files and bytes it goes through. */
  startPhase(label: string, files: number, bytes: number): void;
  /** Work done in the phase so far (absolute figures). */
  progress(files: number, bytes: number): void;
  endPhase(): void;
  file(outcome: FileOutcome): void;
  /** A sentence for the person running it (the plan, an album step that failed). */
  note(text: string): void;
  summary(summary: ImportSummary, dryRun: boolean): void;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function describe(outcome: FileOutcome): string {
  const detail = outcome.reason ? `: ${outcome.reason}` : outcome.photoId ? ` (photo ${outcome.photoId})` : "";
  return `${outcome.status.padEnd(9)} ${outcome.path}${detail}`;
}

function summaryText(summary: ImportSummary, dryRun: boolean): string {
  const verb = dryRun ? "would upload" : "uploaded";
  return `${verb} ${summary.uploaded}, ${summary.duplicates} already there, ${summary.skipped} skipped, ${summary.failed} failed, ${summary.albumsCreated} album${summary.albumsCreated === 1 ? "" : "s"} ${dryRun ? "to create" : "created"}${dryRun ? " (dry run: nothing was changed)" : ""}`;
}

/** --json: one line per file and the summary line on stdout; notes go to stderr so stdout stays JSON. */
export function jsonReporter(out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): ImportReporter {
  return {
    startPhase: () => {},
    progress: () => {},
    endPhase: () => {},
    file: (outcome) => out.write(`${JSON.stringify(outcome)}\n`),
    note: (text) => err.write(`${text}\n`),
    summary: (summary, dryRun) => out.write(`${JSON.stringify(dryRun ? { ...summary, dryRun: true } : summary)}\n`),
  };
}

/** Not a terminal: every file that did not simply go through, and each phase, as a plain line. */
export function lineReporter(out: NodeJS.WritableStream = process.stdout, options: { everyFile: boolean } = { everyFile: true }): ImportReporter {
  return {
    startPhase: (label, files, bytes) => out.write(`${label}: ${files} file${files === 1 ? "" : "s"}, ${formatBytes(bytes)}\n`),
    progress: () => {},
    endPhase: () => {},
    file: (outcome) => {
      if (options.everyFile || outcome.status === "failed") out.write(`${describe(outcome)}\n`);
    },
    note: (text) => out.write(`${text}\n`),
    summary: (summary, dryRun) => out.write(`${summaryText(summary, dryRun)}\n`),
  };
}

/** A terminal: one bar redrawn in place; failures and notes printed above it. */
export function terminalReporter(stream: NodeJS.WriteStream = process.stderr): ImportReporter {
  let bar: SingleBar | null = null;
  let files = { done: 0, total: 0 };
  let totalBytes = 0;
  let startedAt = 0;
  const payload = (bytes: number) => {
    const seconds = Math.max((Date.now() - startedAt) / 1000, 0.001);
    return { files: `${files.done}/${files.total}`, bytes: `${formatBytes(bytes)}/${formatBytes(totalBytes)}`, rate: `${formatBytes(bytes / seconds)}/s` };
  };
  const above = (text: string) => {
    if (bar) bar.stop();
    stream.write(`${text}\n`);
    if (bar) {
      bar = null;
      resume();
    }
  };
  let label = "";
  let lastBytes = 0;
  const resume = () => {
    bar = new SingleBar({
      stream,
      format: `${label.padEnd(9)} [{bar}] {percentage}% | {files} files | {bytes} | {rate} | ETA {eta_formatted}`,
      barsize: 24,
      hideCursor: true,
      etaBuffer: 50,
    });
    bar.start(Math.max(totalBytes, 1), lastBytes, payload(lastBytes));
  };
  return {
    startPhase: (phaseLabel, fileCount, bytes) => {
      label = phaseLabel;
      files = { done: 0, total: fileCount };
      totalBytes = bytes;
      lastBytes = 0;
      startedAt = Date.now();
      resume();
    },
    progress: (doneFiles, bytes) => {
      files.done = doneFiles;
      lastBytes = bytes;
      bar?.update(bytes, payload(bytes));
    },
    endPhase: () => {
      bar?.stop();
      bar = null;
    },
    file: (outcome) => {
      if (outcome.status === "failed") above(describe(outcome));
    },
    note: (text) => above(text),
    summary: (summary, dryRun) => above(summaryText(summary, dryRun)),
  };
}
