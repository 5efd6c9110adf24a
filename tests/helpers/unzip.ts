import yauzl from "yauzl";

/** Every entry of a ZIP, read back with yauzl (which checks the central directory against the local headers). */
export async function unzipEntries(zip: Buffer): Promise<Array<{ name: string; bytes: Buffer; crc32: number; method: number }>> {
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true }, (error, opened) => (error ? reject(error) : resolve(opened))));
  const entries: Array<{ name: string; bytes: Buffer; crc32: number; method: number }> = [];
  await new Promise<void>((resolve, reject) => {
    file.on("error", reject);
    file.on("end", resolve);
    file.on("entry", (entry: yauzl.Entry) => {
      file.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const parts: Buffer[] = [];
        stream.on("data", (part: Buffer) => parts.push(part));
        stream.on("error", reject);
        stream.on("end", () => {
          entries.push({ name: entry.fileName, bytes: Buffer.concat(parts), crc32: entry.crc32, method: entry.compressionMethod });
          file.readEntry();
        });
      });
    });
    file.readEntry();
  });
  return entries;
}
