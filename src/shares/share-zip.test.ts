import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { unzipEntries } from "@/tests/helpers/unzip";
import { makeZipStream, type ZipEntry } from "./share-zip";
import { numberedStem, sanitiseFileStem, sharedPhotoFileName, shareZipFileName, UniqueFileNames } from "./share-zip-names";

async function readAll(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value);
  return Buffer.concat(parts);
}

function bufferEntry(name: string, bytes: Buffer): ZipEntry {
  return {
    name,
    size: bytes.length,
    async *open() {
      for (let start = 0; start < bytes.length; start += 1000) yield bytes.subarray(start, start + 1000);
    },
  };
}

describe("the share ZIP stream", () => {
  it("is exactly as long as announced, STORED, and unzips to the entries with their CRCs", async () => {
    const files = [Buffer.alloc(0), Buffer.from("hello"), Buffer.alloc(123_457, 7), Buffer.from("é".repeat(500))];
    const names = ["empty.jpg", "Grüße 001.jpg", "big.jpg", "日本.jpg"];
    const { length, body } = makeZipStream(files.map((bytes, index) => bufferEntry(names[index], bytes)), { lastModified: new Date("2026-01-02T03:04:05Z") });
    const zip = await readAll(body);
    expect(zip.length).toBe(length);
    const entries = await unzipEntries(zip);
    expect(entries.map((entry) => entry.name)).toEqual(names);
    for (const [index, entry] of entries.entries()) {
      expect(entry.method).toBe(0);
      expect(entry.bytes.equals(files[index])).toBe(true);
      expect(entry.crc32).toBe(crc32(files[index]));
    }
  });

  it("stops reading the entry in hand when the answer is cancelled", async () => {
    let chunksRead = 0;
    let stopped = false;
    const endless: ZipEntry = {
      name: "endless.jpg",
      size: 1e9,
      async *open(signal) {
        signal.addEventListener("abort", () => (stopped = true));
        while (!signal.aborted) {
          chunksRead += 1;
          yield new Uint8Array(65_536);
        }
      },
    };
    const { body } = makeZipStream([endless], { lastModified: new Date() });
    const reader = body.getReader();
    for (let index = 0; index < 5; index += 1) await reader.read();
    await reader.cancel("client went away");
    const readWhenCancelled = chunksRead;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(true);
    expect(chunksRead).toBeLessThanOrEqual(readWhenCancelled + 1);
  });

  it("errors, rather than going on, when the gate closes between entries", async () => {
    let calls = 0;
    const { body } = makeZipStream([bufferEntry("a.jpg", Buffer.from("a")), bufferEntry("b.jpg", Buffer.from("b"))], {
      lastModified: new Date(),
      beforeEntry: async () => {
        calls += 1;
        if (calls === 2) throw new Error("revoked");
      },
    });
    await expect(readAll(body)).rejects.toThrow("revoked");
  });
});

describe("downloaded file names", () => {
  it("are the title made safe, or a neutral numbering, never a path", () => {
    expect(sanitiseFileStem(" ../../etc/passwd ")).toBe("etc passwd");
    expect(sanitiseFileStem("a\u202eb\u0000c:d*e?f\"g<h>i|j\\k")).toBe("a b c d e f g h i j k");
    expect(sanitiseFileStem("...")).toBe("");
    expect(sanitiseFileStem("CON")).toBe("CON photo");
    expect(Array.from(sanitiseFileStem("🌅".repeat(300))).length).toBe(100);
    expect(sharedPhotoFileName({ title: "Sunset at Étretat" }, "Wedding", 1, 20)).toBe("Sunset at Étretat.jpg");
    expect(sharedPhotoFileName({ title: "" }, "Anna & Ben / 2026", 7, 200)).toBe("Anna & Ben 2026 007.jpg");
    expect(numberedStem("", 12, 1500)).toBe("Photo 0012");
    expect(shareZipFileName("  ")).toBe("Photos.zip");
  });

  it("are unique within one ZIP, whatever the case", () => {
    const names = new UniqueFileNames();
    expect(["Sunset.jpg", "sunset.jpg", "Sunset.jpg", "Sunset (2).jpg"].map((name) => names.take(name))).toEqual([
      "Sunset.jpg",
      "sunset (2).jpg",
      "Sunset (3).jpg",
      "Sunset (2) (2).jpg",
    ]);
  });
});
