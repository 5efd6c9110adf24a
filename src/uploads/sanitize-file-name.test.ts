import { describe, expect, it } from "vitest";
import { sanitizeFileName } from "./sanitize-file-name";

describe("sanitizeFileName (SECURITY 15, 16)", () => {
  it.each([
    ["IMG_0001.HEIC", "IMG_0001.HEIC"],
    ["../../etc/passwd", "passwd"],
    ["..\\..\\x", "x"],
    ["/absolute/path/photo.jpg", "photo.jpg"],
    ["%2e%2e%2fsecret.jpg", "secret.jpg"],
    ["na\u0000me.jpg", "name.jpg"],
    ["\u202egpj.exe", "gpj.exe"],
    ["CON.jpg", "CON.jpg"],
    ["photo.jpg.php", "photo.jpg.php"],
    ["", "photo"],
    ["...", "photo"],
    ["Zu\u0308rich.jpg", "Zürich.jpg"],
    ["🌅 sunset.jpg", "🌅 sunset.jpg"],
  ])("%j → %j", (input, expected) => {
    expect(sanitizeFileName(input)).toBe(expected);
  });

  it("caps a 10 kB name and keeps its extension", () => {
    const name = sanitizeFileName(`${"a".repeat(10_000)}.jpg`);
    expect(name.length).toBe(200);
    expect(name.endsWith(".jpg")).toBe(true);
  });
});
