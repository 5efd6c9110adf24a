// A small closed-loop HTTP/1.1 load generator: `connections` keep-alive sockets, each sending the
// next GET as soon as the previous answer is complete. Raw sockets with a minimal response parser,
// because Node's own HTTP client costs more CPU per request than the servers being measured, and on
// a 2-core machine the client shares the CPU with them. The same client measures every target.
import net from "node:net";

export interface LoadResult {
  requests: number;
  bytes: number;
  seconds: number;
  requestsPerSecond: number;
}

const HEADER_END = Buffer.from("\r\n\r\n");
// The end of a chunked body: the last chunk's CRLF, the zero-size chunk, no trailers.
const CHUNKED_END = Buffer.from("\r\n0\r\n\r\n");

/** Runs for `durationMs` and counts complete 200 answers; anything else aborts the run. */
export async function generateLoad(url: string, options: { connections: number; durationMs: number }): Promise<LoadResult> {
  const target = new URL(url);
  const request = Buffer.from(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: image/*\r\n\r\n`);
  const stopAt = Date.now() + options.durationMs;
  const startedAt = performance.now();
  let requests = 0;
  let bytes = 0;

  const runConnection = () =>
    new Promise<void>((resolve, reject) => {
      // `onread` reads into one reused buffer instead of allocating a Buffer per read: at hundreds
      // of megabytes per second that is most of a Node.js client's cost.
      const readBuffer = Buffer.allocUnsafe(1024 * 1024);
      const socket = net.connect({
        port: Number(target.port),
        host: target.hostname,
        onread: { buffer: readBuffer, callback: (size: number, buffer: Uint8Array) => {
            onData(Buffer.from(buffer.buffer, buffer.byteOffset, size));
            return true; // keep reading
          },
        },
      });
      socket.setNoDelay(true);
      let buffered: Buffer = Buffer.alloc(0);
      // Bytes still to come of the current answer's body, once its header has been read.
      let remainingBody = -1;
      // A chunked body (the Next.js route streams) ends with CHUNKED_END; its last bytes so far.
      let isChunked = false;
      let chunkedTail: Buffer = Buffer.alloc(0);

      const sendNext = () => {
        if (Date.now() >= stopAt) {
          socket.end();
          resolve();
          return;
        }
        socket.write(request);
      };
      const fail = (message: string) => {
        socket.destroy();
        reject(new Error(`${url}: ${message}`));
      };

      socket.on("connect", sendNext);
      socket.on("error", (error) => reject(error));
      socket.on("close", () => (Date.now() < stopAt ? reject(new Error(`${url}: the server closed the connection`)) : resolve()));
      const finishAnswer = () => {
        requests += 1;
        remainingBody = -1;
        isChunked = false;
        sendNext();
      };
      const readChunked = (data: Buffer) => {
        bytes += data.length;
        chunkedTail = Buffer.concat([chunkedTail, data.subarray(-CHUNKED_END.length)]).subarray(-CHUNKED_END.length);
        // Good enough for a benchmark: a chunk boundary inside the image data that happens to end a
        // read with these exact 7 bytes would end the answer early, and the next one would fail loudly.
        if (chunkedTail.equals(CHUNKED_END)) finishAnswer();
      };

      function onData(chunk: Buffer): void {
        if (isChunked) return readChunked(chunk);
        if (remainingBody >= 0) {
          // In the body: only count, never copy.
          remainingBody -= chunk.length;
          bytes += chunk.length;
        } else {
          const data = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
          const headerEnd = data.indexOf(HEADER_END);
          if (headerEnd === -1) {
            // Copied: the read buffer is reused by the next read.
            buffered = Buffer.from(data);
            return;
          }
          const head = data.subarray(0, headerEnd).toString("latin1");
          const status = Number(head.slice(9, 12));
          if (status !== 200) return fail(`answered ${status}`);
          const rest = data.subarray(headerEnd + HEADER_END.length);
          buffered = Buffer.alloc(0);
          if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
            isChunked = true;
            chunkedTail = Buffer.alloc(0);
            return readChunked(rest);
          }
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          if (!length) return fail("answered with neither Content-Length nor chunked encoding");
          remainingBody = Number(length[1]) - rest.length;
          bytes += rest.length;
        }
        if (remainingBody < 0) return fail("sent more than Content-Length (pipelining is not used)");
        if (remainingBody === 0) finishAnswer();
      }
    });

  await Promise.all(Array.from({ length: options.connections }, runConnection));
  const seconds = (performance.now() - startedAt) / 1000;
  return { requests, bytes, seconds, requestsPerSecond: requests / seconds };
}
