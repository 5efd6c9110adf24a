import { makeZip, predictLength } from "client-zip";

/**
 * The share ZIP's bytes, with client-zip: STORED entries (JPEGs do not shrink, and storing keeps
 * the server's CPU out of the way), streamed entry by entry with data descriptors, Zip64 when an
 * entry or the archive passes 4 GiB, and an exact length computed up front from the names and
 * sizes (predictLength), so the answer carries a Content-Length and the browser shows progress.
 *
 * Why client-zip: it is small (one file, no dependencies), works on web streams in Node 20, can
 * predict the exact length, and pulls its inputs lazily from an async iterable, so only one entry
 * is open at a time. archiver/yazl/zip-stream cannot predict the length of a stream they have
 * not seen; fflate would need its own length arithmetic. Its one gap, cancellation of the entry
 * being read, is closed here: cancelling the answer aborts `signal`, which destroys the storage
 * stream in hand (src/photos/download-copy-plan.ts).
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
  const metadata = entries.map((entry) => ({ name: entry.name, size: entry.size }));
  const length = Number(predictLength(metadata));
  const abort = new AbortController();

  async function* inputs() {
    for (const entry of entries) {
      await options.beforeEntry?.();
      abort.signal.throwIfAborted();
      yield { name: entry.name, size: entry.size, lastModified: options.lastModified, input: entry.open(abort.signal) };
    }
  }

  const reader = makeZip(inputs(), { buffersAreUTF8: true }).getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          abort.abort(error);
          controller.error(error);
        }
      },
      async cancel(reason) {
        abort.abort(reason);
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return { length, body };
}
