import net from "node:net";

/**
 * A TCP proxy the bench can switch off: while off it cuts every open connection and refuses new
 * ones (closes them at once), as a store whose network went away looks to the app. The instances
 * reach S3 only through it.
 */
export interface TcpSwitch {
  port: number;
  setForwarding(isOn: boolean): void;
  close(): Promise<void>;
}

export async function startTcpSwitch(target: { host: string; port: number }): Promise<TcpSwitch> {
  let isForwarding = true;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!isForwarding) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const forget = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", forget);
    upstream.on("error", forget);
    client.on("close", forget);
    upstream.on("close", forget);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    setForwarding(isOn) {
      isForwarding = isOn;
      if (!isOn) for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
