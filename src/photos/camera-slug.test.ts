import { describe, expect, it } from "vitest";
import { cameraSlug, earlierCameraSlug, lensSlug, slugify } from "./camera-slug";

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

  it("remembers the URL names cameras had before company words were dropped", () => {
    expect(earlierCameraSlug("OLYMPUS IMAGING CORP.", "E-P3")).toBe("olympus-imaging-corp-e-p3");
    expect(cameraSlug("OLYMPUS IMAGING CORP.", "E-P3")).toBe("olympus-e-p3");
    expect(earlierCameraSlug("EASTMAN KODAK COMPANY", "KODAK CX7530 ZOOM DIGITAL CAMERA")).toBe("eastman-kodak-company-kodak-cx7530-zoom-digital-camera");
    // Unchanged where the model starts with the maker, or the maker had no company words.
    expect(earlierCameraSlug("NIKON CORPORATION", "NIKON D70")).toBe("nikon-d70");
    expect(earlierCameraSlug("Canon", "Canon EOS 40D")).toBe(cameraSlug("Canon", "Canon EOS 40D"));
    expect(earlierCameraSlug("Apple", null)).toBe("apple");
    expect(earlierCameraSlug(null, "E-P3")).toBe("e-p3");
    expect(earlierCameraSlug(null, null)).toBeNull();
  });
});
