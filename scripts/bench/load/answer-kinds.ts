// What bench:load counts as a failure among the answers its clients saw, in one place (the rule is
// printed by the bench and written in the README's bench:load line):
//
//   500          always a bug: an error nobody handled.
//   other 5xx    a bug too: 502 or 504 from nginx (a request the deployment lost or let hang), or
//                a 503 without Retry-After (an answer that does not say when to come back).
//   503 shed     503 with Retry-After: the designed answer (SECURITY.md 23, 25, 26) while a
//                dependency is down or the server sheds what it cannot take in time. While a fault
//                lasts it is what a client should see. Under plain load (case 48, 49's traffic, a
//                fault row's traffic once the site has recovered) it is not a bug, but case 48 asks
//                for zero 5xx at the load it names: shedding there means the deployment did not
//                carry that load on this machine, reported as "not met (capacity)", apart from bugs.
//   507          the designed answer while the upload disk is full (SECURITY.md 22); anywhere
//                else it counts as other 5xx.

/** One answer's kind for the tables; status 0 is a network failure (no answer at all). */
export type AnswerKind = "answered" | "500" | "503 shed" | "507" | "other 5xx" | "network";

export interface AnsweredStatus {
  status: number;
  /** Whether the answer carried a Retry-After header. */
  hasRetryAfter: boolean;
}

export function answerKind({ status, hasRetryAfter }: AnsweredStatus): AnswerKind {
  if (status === 0) return "network";
  if (status < 500) return "answered";
  if (status === 500) return "500";
  if (status === 503 && hasRetryAfter) return "503 shed";
  if (status === 507) return "507";
  return "other 5xx";
}

export type ServerErrorCounts = Record<"500" | "503 shed" | "507" | "other 5xx", number>;

export function countServerErrors(answers: AnsweredStatus[]): ServerErrorCounts {
  const counts: ServerErrorCounts = { "500": 0, "503 shed": 0, "507": 0, "other 5xx": 0 };
  for (const answer of answers) {
    const kind = answerKind(answer);
    if (kind !== "answered" && kind !== "network") counts[kind] += 1;
  }
  return counts;
}

/** When the answers were seen: under load alone, or while a fault lasted (and which answers it was designed to give). */
export type Circumstance = { kind: "load" } | { kind: "fault"; disk: boolean };

export interface Judgement {
  /** Bugs: each a sentence for the summary. */
  failures: string[];
  /** 503 shed under plain load: the designed answer, but case 48 asks for none at its load. */
  shed: number;
}

/** The rule above, for one window of answers (`label` names it in the sentences). */
export function judgeAnswers(label: string, answers: AnsweredStatus[], circumstance: Circumstance): Judgement {
  const counts = countServerErrors(answers);
  const failures: string[] = [];
  if (counts["500"] > 0) failures.push(`${label}: ${counts["500"]} answers were 500 (a bug, always)`);
  // A full disk's 507 is designed only while the disk row lasts; elsewhere it is as wrong as a 502.
  const isDesigned507 = circumstance.kind === "fault" && circumstance.disk;
  const other = counts["other 5xx"] + (isDesigned507 ? 0 : counts["507"]);
  if (other > 0) failures.push(`${label}: ${other} answers were 5xx other than 500, 503 with Retry-After${isDesigned507 ? " and 507" : ""} (502/504: a request lost or left hanging; 503 without Retry-After)`);
  return { failures, shed: circumstance.kind === "load" ? counts["503 shed"] : 0 };
}

/** The rule in three lines, as the bench prints it before the run. */
export const RULE_TEXT = [
  "how 5xx are judged: 500 and 'other 5xx' (502, 504, 503 without Retry-After, 507 outside the disk-full row) are bugs and fail the run;",
  "  '503 shed' (503 with Retry-After) is the designed answer while a fault lasts; under plain load it is not a bug, but SECURITY.md 48 asks",
  "  for zero 5xx at its load, so any there make the result 'not met (capacity)' (exit code 2) unless a bug already failed it (exit code 1).",
].join("\n");
