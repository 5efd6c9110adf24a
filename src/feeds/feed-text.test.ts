import { describe, expect, it } from "vitest";
import type { PhotoVariantRow } from "@/src/db/database";
import { cleanFeedLine, cleanFeedText, toFeedField } from "./feed-text";
import { pickPublishedVariant } from "./published-variant";

describe("cleanFeedText and cleanFeedLine", () => {
  it("drops what XML 1.0 cannot carry and keeps everything else, markup included (the libraries escape it)", () => {
    expect(cleanFeedText("a\u0000b\u0007c\u000bd\u001fe\ufffff")).toBe("abcdef");
    expect(cleanFeedText("<script>]]>&\"' 📷 é\n\tx")).toBe("<script>]]>&\"' 📷 é\n\tx");
    expect(cleanFeedText("lone \ud800 and \udc00 surrogates")).toBe("lone  and  surrogates");
  });

  it("makes one line of a title: line breaks and tabs become a space", () => {
    expect(cleanFeedLine("  One\r\nTwo\rThree\nFour\tFive\u2028Six  ")).toBe("One Two Three Four Five Six");
    expect(cleanFeedLine("\r\n")).toBe("");
  });
});

describe("toFeedField", () => {
  const hostile = "<script>alert(1)</script> ]]> & ]]>\r\nline two\u0000";

  it("escapes markup for RSS descriptions, which readers render as HTML", () => {
    expect(toFeedField(hostile, "rss-html")).toBe("&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; ]]&gt;\r\nline two");
  });

  it("keeps plain-text fields as written, one line for titles", () => {
    expect(toFeedField(hostile, "line")).toBe("<script>alert(1)</script> ]]> & ]]> line two");
    expect(toFeedField(` ${hostile} `, "text")).toBe("<script>alert(1)</script> ]]> & ]]>\r\nline two");
  });
});

function variant(format: PhotoVariantRow["format"], width: number): PhotoVariantRow {
  return { photo_id: "p", format, width, height: width, storage_key: `v/${format}-${width}`, byte_size: width };
}

describe("pickPublishedVariant", () => {
  it("takes the JPEG nearest 1280 wide, never another format", () => {
    expect(pickPublishedVariant([variant("jpeg", 320), variant("jpeg", 1280), variant("jpeg", 2560), variant("avif", 1280)])?.width).toBe(1280);
    expect(pickPublishedVariant([variant("jpeg", 320), variant("jpeg", 960), variant("webp", 1280)])?.width).toBe(960);
    expect(pickPublishedVariant([variant("jpeg", 640), variant("jpeg", 1920)])?.width).toBe(1920);
    expect(pickPublishedVariant([variant("jpeg", 1024), variant("jpeg", 1536)])?.width).toBe(1536);
  });

  it("answers null when there is no JPEG", () => {
    expect(pickPublishedVariant([variant("webp", 1280), variant("avif", 640)])).toBeNull();
    expect(pickPublishedVariant([])).toBeNull();
  });
});
