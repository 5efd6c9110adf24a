import net from "node:net";

const CONNECT_TIMEOUT_MS = 5000;

/**
 * `count` connections that each send a request's first line and then one header line every few
 * seconds, never finishing (a slowloris): they hold a connection each for as long as the server
 * lets them. Answers a handle that closes them all.
 */
export async function openSlowConnections(port: number, count: number): Promise<{ close(): void; opened: number }> {
  const sockets: net.Socket[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          // A connection nginx never accepts (its backlog full) would otherwise keep this waiting for the kernel's SYN retries.
          const gaveUp = setTimeout(() => {
            socket.destroy();
            resolve();
          }, CONNECT_TIMEOUT_MS);
          const socket = net.connect(port, "127.0.0.1", () => {
            clearTimeout(gaveUp);
            socket.write("GET / HTTP/1.1\r\nHost: slow.example\r\n");
            resolve();
          });
          socket.on("error", () => {
            clearTimeout(gaveUp);
            resolve();
          });
          sockets.push(socket);
        }),
    ),
  );
  let line = 0;
  const drip = setInterval(() => {
    for (const socket of sockets) if (!socket.destroyed) socket.write(`X-Slow-${line}: 1\r\n`);
    line += 1;
  }, 5000);
  return {
    opened: sockets.filter((socket) => !socket.destroyed).length,
    close() {
      clearInterval(drip);
      for (const socket of sockets) socket.destroy();
    },
  };
}
