import { writeZip, zipLength } from "./share-zip-writer";

/**
 * The share ZIP's bytes: STORED entries (JPEGs do not shrink, and storing keeps the server's CPU
 * out of the way), streamed entry by entry with data descriptors, Zip64 when an entry or the
 * archive passes 4 GiB, and an exact length computed up front from the names and sizes, so the
 * answer carries a Content-Length and the browser shows progress.
 *
 * The format is client-zip's (a small, well-kept streaming ZIP library whose predictLength gives
 * the exact length; it was the first choice). Measured, its CRC-32 in JavaScript capped the ZIP at
 * about a quarter of the storage read rate, so src/shares/share-zip-writer.ts writes the same bytes
 * with zlib's native CRC-32, and the tests hold it to client-zip's output and predicted length.
 * Entries are pulled lazily, so only one is open at a time; cancelling the answer aborts `signal`,
 * which destroys the storage stream in hand (src/photos/download-copy-plan.ts).
 */
export interface ZipEntry {
  name: string;
  size: number;
  /** Opens the entry's bytes when the archive reaches it; must yield exactly `size` bytes. */
  open(signal: AbortSignal): AsyncIterable<Uint8Array>;
}

export interface ZipStream {
  length: number;
  body: ReadableStream<Uint8Array>;
}

/**
 * The archive of `entries`, in their order. `beforeEntry` runs before each entry is opened (the
 * share's gate is asked again there, so revoking a link stops a ZIP in progress); when it throws,
 * the stream errors and the connection is cut, which the browser shows as a failed download.
 */
export function makeZipStream(entries: ZipEntry[], options: { lastModified: Date; beforeEntry?: () => Promise<void> }): ZipStream {
  const length = zipLength(entries);
  const abort = new AbortController();

  async function* inputs() {
    for (const entry of entries) {
      await options.beforeEntry?.();
      abort.signal.throwIfAborted();
      yield { name: entry.name, size: entry.size, lastModified: options.lastModified, data: entry.open(abort.signal) };
    }
  }

  const zip = writeZip(inputs());
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await zip.next();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          abort.abort(error);
          controller.error(error);
        }
      },
      async cancel(reason) {
        abort.abort(reason);
        await zip.return(undefined).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return { length, body };
}
