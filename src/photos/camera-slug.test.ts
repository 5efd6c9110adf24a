import { describe, expect, it } from "vitest";
import { cameraSlug, lensSlug, slugify } from "./camera-slug";

describe("camera and lens slugs", () => {
  it("names a camera once, in lower case words", () => {
    expect(cameraSlug("Canon", "Canon EOS 40D")).toBe("canon-eos-40d");
    expect(cameraSlug("NIKON CORPORATION", "NIKON D70")).toBe("nikon-d70");
    expect(cameraSlug("FUJIFILM", "FinePix E500")).toBe("fujifilm-finepix-e500");
    expect(cameraSlug("Apple", null)).toBe("apple");
    expect(cameraSlug(null, null)).toBeNull();
  });

  it("folds accents and drops what is not a letter or digit", () => {
    expect(slugify("Zeiss Planar T* 1,4/50 ZÉ")).toBe("zeiss-planar-t-1-4-50-ze");
    expect(lensSlug("iPhone 6 back camera 4.15mm f/2.2")).toBe("iphone-6-back-camera-4-15mm-f-2-2");
    expect(lensSlug("***")).toBeNull();
    expect(lensSlug(null)).toBeNull();
  });

  it("keeps slugs short, without a dangling separator", () => {
    const slug = slugify(`${"a".repeat(79)} b`);
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith("-")).toBe(false);
  });
});
