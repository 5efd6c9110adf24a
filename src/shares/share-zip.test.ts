import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { unzipEntries } from "@/tests/helpers/unzip";
import { makeZip, predictLength } from "client-zip";
import { writeZip, zipLength } from "./share-zip-writer";
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

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const all: Uint8Array[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}

/** Every chunk a ZIP writer yields, except those of `skip` (the entries' data, compared by identity). */
async function framing(chunks: AsyncIterable<Uint8Array>, skip: ArrayBufferLike): Promise<{ length: number; framing: Buffer }> {
  let length = 0;
  const kept: Uint8Array[] = [];
  for await (const chunk of chunks) {
    length += chunk.length;
    if (chunk.buffer !== skip) kept.push(chunk);
  }
  return { length, framing: Buffer.concat(kept) };
}

function clientZipChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  return {
    async *[Symbol.asyncIterator]() {
      for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value;
    },
  };
}

describe("the ZIP writer", () => {
  const lastModified = new Date(2026, 10, 27, 13, 37, 42);

  it("writes client-zip's bytes and length for ordinary entries", async () => {
    const files = [
      { name: "a.jpg", bytes: Buffer.from("first") },
      { name: "Grüße (2).jpg", bytes: Buffer.alloc(70_000, 9) },
      { name: "empty.jpg", bytes: Buffer.alloc(0) },
    ];
    const ours = Buffer.concat(await collect(writeZip((async function* () {
      for (const file of files) yield { name: file.name, size: file.bytes.length, lastModified, data: [file.bytes] };
    })())));
    const theirs = Buffer.from(await new Response(makeZip(files.map((file) => ({ name: file.name, input: new Uint8Array(file.bytes), lastModified })), { buffersAreUTF8: true })).arrayBuffer());
    expect(ours.equals(theirs)).toBe(true);
    const sizes = files.map((file) => ({ name: file.name, size: file.bytes.length }));
    expect(zipLength(sizes)).toBe(ours.length);
    expect(zipLength(sizes)).toBe(Number(predictLength(sizes)));
  });

  it("writes client-zip's Zip64 records for an entry and offsets past 4 GiB", async () => {
    const zeros = new Uint8Array(1 << 20);
    const big = 2 ** 32 + 5;
    const entries = [
      { name: "big.jpg", size: big },
      { name: "after.jpg", size: 3 },
    ];
    const data = (size: number) => ({
      async *[Symbol.asyncIterator]() {
        for (let sent = 0; sent < size; sent += zeros.length) yield sent + zeros.length <= size ? zeros : zeros.subarray(0, size - sent);
      },
    });
    const ours = await framing(writeZip((async function* () {
      for (const entry of entries) yield { ...entry, lastModified, data: data(entry.size) };
    })()), zeros.buffer);
    const theirs = await framing(
      clientZipChunks(makeZip((async function* () {
        for (const entry of entries) yield { name: entry.name, size: entry.size, lastModified, input: data(entry.size) };
      })(), { buffersAreUTF8: true })),
      zeros.buffer,
    );
    expect(ours.length).toBe(theirs.length);
    expect(ours.framing.equals(theirs.framing)).toBe(true);
    expect(zipLength(entries)).toBe(ours.length);
    expect(zipLength(entries)).toBe(Number(predictLength(entries)));
  }, 180_000);

  it("refuses an entry that does not have the size it promised", async () => {
    const zip = writeZip((async function* () {
      yield { name: "short.jpg", size: 10, lastModified, data: [new Uint8Array(9)] };
    })());
    await expect(collect(zip)).rejects.toThrow("not the 10 promised");
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
