import { describe, expect, it } from "vitest";
import { dateFolder, ExportPathPlanner, safeFileName } from "./export-file-names";

describe("an exported photo's file name", () => {
  it("is one safe segment on every system", () => {
    expect(safeFileName("../../etc/passwd")).toBe("___.._etc_passwd");
    expect(safeFileName("..")).toBe("photo");
    expect(safeFileName(".hidden.jpg")).toBe("_hidden.jpg");
    expect(safeFileName("a\u0000b\u001fc\u202e.jpg")).toBe("abc.jpg");
    expect(safeFileName('what: "now"? <a|b>*.jpg')).toBe("what_ _now__ _a_b__.jpg");
    expect(safeFileName("trailing. . ")).toBe("trailing");
    expect(safeFileName("CON.jpg")).toBe("_CON.jpg");
    expect(safeFileName("nul")).toBe("_nul");
    expect(safeFileName("   ")).toBe("photo");
  });

  it("fits 150 bytes without cutting a character, keeping the extension", () => {
    const name = safeFileName(`${"é".repeat(200)}.jpeg`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(150);
    expect(name.endsWith("é.jpeg")).toBe(true);
  });

  it("goes under the year and month taken, else uploaded", () => {
    expect(dateFolder("2019-05-03T14:32+02:00", "2024-01-01T00:00:00.000Z")).toBe("photos/2019/05");
    expect(dateFolder(null, "2024-01-02T00:00:00.000Z")).toBe("photos/2024/01");
  });

  it("numbers names that collide in a folder, without regard to case, and keeps an earlier export's paths", () => {
    const planner = new ExportPathPlanner(new Map([["kept", "photos/2019/05/IMG_1.jpg"]]));
    const at = (id: string, originalName: string) => planner.pathFor({ id, originalName, takenAt: "2019-05-03T14:32", uploadedAt: "2024-01-01T00:00:00Z" });
    expect(at("kept", "anything.jpg")).toBe("photos/2019/05/IMG_1.jpg");
    expect(at("a", "img_1.JPG")).toBe("photos/2019/05/img_1 (2).JPG");
    expect(at("b", "IMG_1.jpg")).toBe("photos/2019/05/IMG_1 (3).jpg");
    expect(at("c", "other.jpg")).toBe("photos/2019/05/other.jpg");
  });
});
