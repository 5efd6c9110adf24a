import type pino from "pino";

export type LogFormat = "json" | "pretty";

/**
 * JSON lines for machines (a log collector, a file, a pipe), readable lines for a person at a
 * terminal. LOG_FORMAT decides when set; otherwise whether stdout is a terminal.
 */
export function chooseLogFormat(configured: LogFormat | undefined, stdoutIsTerminal: boolean): LogFormat {
  return configured ?? (stdoutIsTerminal ? "pretty" : "json");
}

/**
 * The pino transport for the readable format: pino-pretty, which pino loads by name from
 * node_modules in its worker thread (pino is a server external package, so this works in the built
 * server too). Nothing loads pino-pretty in the JSON case.
 */
export function prettyTransport(): pino.TransportSingleOptions {
  return {
    target: "pino-pretty",
    options: { colorize: true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname,service", singleLine: false },
  };
}
