// nginx as the baseline a bench compares /media with: one file served as people run nginx for
// static files (sendfile, no access log, keep-alive), in the foreground with a config of our own,
// stopped at the bench's clean-up. Shared by bench:media and bench:video.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { findFreePort } from "../../tests/helpers/server-process";
import { makeTemporaryDirectory, onCleanup } from "./bench-app";

function findNginx(): string | null {
  for (const candidate of ["/usr/sbin/nginx", "/usr/bin/nginx"]) if (fs.existsSync(candidate)) return candidate;
  const found = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();
  return found || null;
}

/** nginx from Debian's package, installed when missing and we may (root); null when it cannot be had. */
export function ensureNginx(): string | null {
  const existing = findNginx();
  if (existing) return existing;
  if (process.getuid?.() !== 0) return null;
  console.log("nginx is not installed: installing the Debian package…");
  spawnSync("apt-get", ["install", "-y", "-q", "nginx-light"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return findNginx();
}

interface ServedFile {
  /** The nginx binary (ensureNginx). */
  binary: string;
  /** Where the file is served, the same path /media answers it at. */
  urlPath: string;
  /** The file to serve (copied into nginx's own folder). */
  file: string;
  contentType: string;
  /** Headers /media sends too, so both answers weigh the same. */
  headers?: Record<string, string>;
}

/** Starts nginx serving one file; answers its URL once a HEAD there answers 200 with the file's length. */
export async function serveFileWithNginx({ binary, urlPath, file, contentType, headers = {} }: ServedFile): Promise<string> {
  const prefix = makeTemporaryDirectory("contact-sheet-bench-nginx-");
  const target = path.join(prefix, "root", urlPath);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(file, target);
  // nginx's workers drop to `nobody` when started as root: the copy must be readable to them.
  for (let directory = path.dirname(target); directory.startsWith(prefix); directory = path.dirname(directory)) fs.chmodSync(directory, 0o755);
  fs.chmodSync(target, 0o644);
  const port = await findFreePort();
  const headerLines = Object.entries(headers).map(([name, value]) => `    add_header ${name} "${value}";`);
  // One worker: the app is one Node.js process (one core for JavaScript); the load needs the other.
  fs.writeFileSync(
    path.join(prefix, "nginx.conf"),
    `worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  types { }
  default_type ${contentType};
  server {
    listen 127.0.0.1:${port};
    root ${prefix}/root;
${headerLines.join("\n")}
  }
}
`,
  );
  const child: ChildProcess = spawn(binary, ["-p", prefix, "-c", path.join(prefix, "nginx.conf"), "-e", path.join(prefix, "error.log")], { stdio: ["ignore", "inherit", "inherit"] });
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        // QUIT: graceful stop of the master and its worker.
        child.kill("SIGQUIT");
        setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      }),
  );
  const url = `http://127.0.0.1:${port}${urlPath}`;
  const size = String(fs.statSync(file).size);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}; see ${prefix}/error.log`);
    try {
      const response = await fetch(url, { method: "HEAD" });
      if (response.status === 200 && response.headers.get("content-length") === size) return url;
      throw new Error(`nginx answered ${response.status} with ${response.headers.get("content-length")} bytes`);
    } catch (error) {
      if (attempt === 49) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return url;
}
