import { describe, expect, it } from "vitest";
import { photoAccessibleName } from "./photo-accessible-name";

describe("photoAccessibleName", () => {
  const bare = { altText: "", title: "", takenAt: null };
  const takenAt = "2019-05-03T22:30:00.000Z";

  it("prefers the alt text, then the title", () => {
    expect(photoAccessibleName({ ...bare, altText: "A heron on one leg", title: "Heron" })).toBe("A heron on one leg");
    expect(photoAccessibleName({ ...bare, altText: "  ", title: "Heron" })).toBe("Heron");
  });

  it("names a photo without words from its date and place", () => {
    expect(photoAccessibleName({ ...bare, takenAt, placeName: "Lisbon, Portugal" })).toBe("Photo taken on 3 May 2019 in Lisbon, Portugal");
    expect(photoAccessibleName({ ...bare, takenAt })).toBe("Photo taken on 3 May 2019");
    expect(photoAccessibleName({ ...bare, placeName: "Portugal" })).toBe("Photo taken in Portugal");
  });

  it("never leaves a photo nameless", () => {
    expect(photoAccessibleName(bare)).toBe("Untitled photo");
  });

  it("tells untitled photos apart by file name for their owner", () => {
    const owner = (fileName: string) => ({ audience: "owner" as const, fileName });
    expect(photoAccessibleName({ ...bare, takenAt }, owner("IMG_0042.jpg"))).toBe("Photo taken on 3 May 2019 (IMG_0042.jpg)");
    expect(photoAccessibleName({ ...bare, takenAt }, owner("IMG_0043.jpg"))).toBe("Photo taken on 3 May 2019 (IMG_0043.jpg)");
    expect(photoAccessibleName(bare, owner("scan.png"))).toBe("Untitled photo (scan.png)");
    expect(photoAccessibleName({ ...bare, title: "Heron" }, owner("IMG_0042.jpg"))).toBe("Heron");
  });

  it("tells untitled photos apart by number for a visitor, never by file name", () => {
    const visitor = (number: number) => ({ audience: "visitor" as const, number });
    expect(photoAccessibleName({ ...bare, takenAt, placeName: "Lisbon, Portugal" }, visitor(3))).toBe("Photo 3, taken on 3 May 2019 in Lisbon, Portugal");
    expect(photoAccessibleName({ ...bare, takenAt }, visitor(4))).toBe("Photo 4, taken on 3 May 2019");
    expect(photoAccessibleName(bare, visitor(5))).toBe("Photo 5");
    expect(photoAccessibleName({ ...bare, altText: "A heron" }, visitor(5))).toBe("A heron");
  });
});
