import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CodedPool } from "./client";
import { POOL_CONNECT_TIMEOUT } from "./errors";

// A pool that cannot hand out a connection in time fails with a code the error answer knows (503),
// whichever way it is asked: Kysely's promise, or pg's own pool.query, which asks with a callback.
// A server that accepts connections and never answers makes pg's connect time out.

let silentServer: net.Server;
let port = 0;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  silentServer = net.createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silentServer.listen(0, "127.0.0.1", resolve));
  port = (silentServer.address() as net.AddressInfo).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silentServer.close(resolve));
});

function silentPool(): CodedPool {
  return new CodedPool({ host: "127.0.0.1", port, user: "nobody", database: "none", connectionTimeoutMillis: 100 });
}

describe("CodedPool", () => {
  it("codes a connect timeout asked for with a promise, and remembers when it failed", async () => {
    const pool = silentPool();
    await expect(pool.connect()).rejects.toMatchObject({ code: POOL_CONNECT_TIMEOUT });
    expect(pool.lastConnectFailureAt).toBeGreaterThan(0);
    await pool.end();
  });

  it("codes a connect timeout of pool.query, which asks with a callback", async () => {
    const pool = silentPool();
    await expect(pool.query("select 1")).rejects.toMatchObject({ code: POOL_CONNECT_TIMEOUT });
    expect(pool.lastConnectFailureAt).toBeGreaterThan(0);
    await pool.end();
  });
});
