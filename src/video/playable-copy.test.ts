import { describe, expect, it } from "vitest";
import { playableCopySize } from "./playable-copy";

describe("playableCopySize: what og:video says of the copy without probing it", () => {
  it("fits a 4K landscape clip inside 1920 × 1080 and a portrait one inside 1080 × 1920", () => {
    expect(playableCopySize(3840, 2160)).toEqual({ width: 1920, height: 1080 });
    expect(playableCopySize(2160, 3840)).toEqual({ width: 1080, height: 1920 });
  });

  // The figures are what ffmpeg 5.1 (Debian 12) made of colour clips of these sizes with FIT_1080P.
  it("never enlarges a small clip, and keeps both sides even as ffmpeg rounds them", () => {
    expect(playableCopySize(320, 240)).toEqual({ width: 320, height: 240 });
    expect(playableCopySize(4000, 3000)).toEqual({ width: 1440, height: 1080 });
    expect(playableCopySize(1921, 1081)).toEqual({ width: 1920, height: 1080 });
  });
});
