import { describe, expect, it } from "vitest";
import { declaredTypeForName, skipReasonForName } from "./importable-files";

describe("skipReasonForName", () => {
  it("offers the image types the upload page takes, in any case", () => {
    for (const name of ["a.jpg", "b.JPEG", "c.png", "d.webp", "e.avif", "f.HEIC", "g.heif", "h.tif", "i.tiff", "j.gif"]) expect(skipReasonForName(name), name).toBeNull();
  });

  it("skips hidden files and other types, saying why", () => {
    expect(skipReasonForName(".DS_Store")).toBe("hidden file");
    expect(skipReasonForName("._IMG_1.jpg")).toBe("hidden file");
    expect(skipReasonForName("IMG_1.jpg.xmp")).toBe("unsupported type (.xmp)");
    expect(skipReasonForName("README")).toBe("unsupported type (no extension)");
  });

  it("declares the type the upload page would", () => {
    expect(declaredTypeForName("a.JPG")).toBe("image/jpeg");
    expect(declaredTypeForName("a.tif")).toBe("image/tiff");
    expect(declaredTypeForName("a.heic")).toBe("image/heic");
  });
});
