import { describe, expect, it } from "vitest";
import { photoAccessibleName } from "./photo-accessible-name";

describe("photoAccessibleName", () => {
  const bare = { altText: "", title: "", takenAt: null };

  it("prefers the alt text, then the title", () => {
    expect(photoAccessibleName({ ...bare, altText: "A heron on one leg", title: "Heron" })).toBe("A heron on one leg");
    expect(photoAccessibleName({ ...bare, altText: "  ", title: "Heron" })).toBe("Heron");
  });

  it("names a photo without words from its date and place", () => {
    const takenAt = "2019-05-03T22:30:00.000Z";
    expect(photoAccessibleName({ ...bare, takenAt, placeName: "Lisbon, Portugal" })).toBe("Photo taken on 3 May 2019 in Lisbon, Portugal");
    expect(photoAccessibleName({ ...bare, takenAt })).toBe("Photo taken on 3 May 2019");
    expect(photoAccessibleName({ ...bare, placeName: "Portugal" })).toBe("Photo taken in Portugal");
  });

  it("never leaves a photo nameless", () => {
    expect(photoAccessibleName(bare)).toBe("Untitled photo");
  });
});
