import { describe, expect, it } from "vitest";
import { judgeOrphans, parseVerifyOutput } from "./kill-orphans";

const KEY_A = "originals/ab/ab0e5c1e-7f7a-4c55-9d8e-2f8f0d1b7a11";
const KEY_B = "originals/cd/cd0e5c1e-7f7a-4c55-9d8e-2f8f0d1b7a22";

describe("case 49's orphans", () => {
  it("reads the orphans' keys and the other problems from contact-sheet verify's output", () => {
    const output = [
      "Verifying the library (S3 bucket contact-sheet-load-x)…",
      "Checked 120 photos (40 MB of originals) and 900 variants.",
      `orphan file: ${KEY_A} (52311 bytes) belongs to no photo`,
      "missing variants: photo 1234 lacks variants/12/1234-320.jpg",
      `orphan file: ${KEY_B} (9000 bytes) belongs to no photo`,
      "3 problems found.",
    ].join("\n");
    expect(parseVerifyOutput(output)).toEqual({ orphanKeys: [KEY_A, KEY_B], otherProblems: ["missing variants: photo 1234 lacks variants/12/1234-320.jpg"] });
  });

  it("takes an original stored during the phase up to the kill for the kill's, and any other for unexplained", () => {
    const window = { phaseStartedAt: Date.parse("2026-11-28T05:50:00Z"), killedAt: Date.parse("2026-11-28T05:50:20Z") };
    const judged = judgeOrphans(
      [
        { key: KEY_A, modifiedAt: new Date("2026-11-28T05:50:19Z") },
        // LastModified is whole seconds: a file stored in the kill's last milliseconds reads up to a second later.
        { key: "just-before-the-kill", modifiedAt: new Date("2026-11-28T05:50:21Z") },
        { key: KEY_B, modifiedAt: new Date("2026-11-28T05:50:30Z") },
        { key: "before-the-phase", modifiedAt: new Date("2026-11-28T05:49:40Z") },
        { key: "swept-meanwhile", modifiedAt: null },
      ],
      window,
    );
    expect(judged.expected.map((orphan) => orphan.key)).toEqual([KEY_A, "just-before-the-kill"]);
    expect(judged.unexplained.map((orphan) => orphan.key)).toEqual([KEY_B, "before-the-phase"]);
    expect(judged.gone.map((orphan) => orphan.key)).toEqual(["swept-meanwhile"]);
  });
});
