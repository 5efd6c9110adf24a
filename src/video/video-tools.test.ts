import { describe, expect, it } from "vitest";
import { checkVideoTools, safeInputArguments } from "./video-tools";

describe("checkVideoTools", () => {
  it("finds the system's ffmpeg and ffprobe", async () => {
    const status = await checkVideoTools({ ffmpegPath: "ffmpeg", ffprobePath: "ffprobe" });
    expect(status).toMatchObject({ available: true, isSettled: true });
    expect(status.message).toMatch(/^ffmpeg version .*; ffprobe version /);
  });

  it("says what to install or set when one is missing, and that this holds until a restart", async () => {
    const status = await checkVideoTools({ ffmpegPath: "ffmpeg", ffprobePath: "/nonexistent/ffprobe" });
    expect(status).toEqual({
      available: false,
      isSettled: true,
      message: 'ffprobe was not found at "/nonexistent/ffprobe": videos are refused until it is installed (Debian: apt-get install ffmpeg) or FFPROBE_PATH names it.',
    });
  });

  it("asks again after a run that failed for another reason", async () => {
    // /bin/false runs and fails: not a missing program, so not settled.
    expect(await checkVideoTools({ ffmpegPath: "/bin/false", ffprobePath: "ffprobe" })).toMatchObject({ available: false, isSettled: false });
  });
});

describe("safeInputArguments", () => {
  it("allows only the file protocol, forces the detected demuxer and names the input as a file", () => {
    expect(safeInputArguments("/data/tmp/http:x.mp4", "mp4")).toEqual(["-protocol_whitelist", "file", "-f", "mov", "-enable_drefs", "0", "-i", "file:/data/tmp/http:x.mp4"]);
    expect(safeInputArguments("/a.webm", "webm")).toEqual(["-protocol_whitelist", "file", "-f", "matroska", "-i", "file:/a.webm"]);
  });
});
