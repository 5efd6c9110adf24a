import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The site file the README tells operators to use; the bench runs exactly it, with its ports swapped. */
export const NGINX_SITE_FILE = path.resolve(import.meta.dirname, "../../../docs/operations/nginx-contact-sheet.conf");

export interface RunningNginx {
  url: string;
  pid: number;
  /** The access log (status and upstream per request), for the report when something failed. */
  accessLog: string;
  stop(): Promise<void>;
}

/** Debian's nginx binary, or a clear message how to get it (`apt-get install -y nginx-light`). */
export function findNginx(): string {
  for (const candidate of [process.env.NGINX_PATH, "/usr/sbin/nginx", "/usr/bin/nginx"]) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  throw new Error("bench:load needs nginx in front of the two instances: apt-get install -y nginx-light (or set NGINX_PATH).");
}

/** The site file with the bench's ports in place of the documented 3001, 3002 and 80. */
export function siteConfigFor(appPorts: [number, number], listenPort: number): string {
  const site = fs.readFileSync(NGINX_SITE_FILE, "utf8");
  const replaced = site
    .replace("server 127.0.0.1:3001 ", `server 127.0.0.1:${appPorts[0]} `)
    .replace("server 127.0.0.1:3002 ", `server 127.0.0.1:${appPorts[1]} `)
    .replace("listen 80;", `listen 127.0.0.1:${listenPort};`);
  if (replaced === site || !replaced.includes(String(appPorts[1]))) throw new Error(`${NGINX_SITE_FILE} no longer has the ports the bench replaces`);
  return replaced;
}

/**
 * nginx in the foreground as this user, with its pid, logs and temporary folders in `directory`
 * and the site file included as a distribution's nginx.conf would. worker_connections leaves room
 * for the fault row's 500 slow connections on top of the readers (each proxied request takes two).
 */
export async function startNginx(directory: string, appPorts: [number, number], listenPort: number): Promise<RunningNginx> {
  const binary = findNginx();
  fs.mkdirSync(path.join(directory, "temp"), { recursive: true });
  fs.writeFileSync(path.join(directory, "contact-sheet.conf"), siteConfigFor(appPorts, listenPort));
  const accessLog = path.join(directory, "access.log");
  const mainConfig = [
    "daemon off;",
    // As root, nginx's workers would run as nobody, who may not enter the bench's private folders:
    // the tus location reads each chunk into client_body_temp_path before passing it on.
    ...(process.getuid?.() === 0 ? ["user root;"] : []),
    "worker_processes 1;",
    `pid ${path.join(directory, "nginx.pid")};`,
    `error_log ${path.join(directory, "error.log")} warn;`,
    "events { worker_connections 4096; }",
    "http {",
    `  access_log ${accessLog};`,
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${path.join(directory, "temp", kind)};`),
    `  include ${path.join(directory, "contact-sheet.conf")};`,
    "}",
    "",
  ].join("\n");
  const configPath = path.join(directory, "nginx.conf");
  fs.writeFileSync(configPath, mainConfig);
  execFileSync(binary, ["-t", "-q", "-c", configPath, "-p", directory], { stdio: "inherit" });
  const child: ChildProcess = spawn(binary, ["-c", configPath, "-p", directory], { stdio: ["ignore", "inherit", "inherit"] });
  const url = `http://127.0.0.1:${listenPort}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}; see ${path.join(directory, "error.log")}`);
    try {
      await fetch(`${url}/api/health`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error("nginx did not start listening within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    // QUIT: nginx's graceful stop, which also ends its worker process.
    child.kill("SIGQUIT");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  return { url, pid: child.pid ?? 0, accessLog, stop };
}
