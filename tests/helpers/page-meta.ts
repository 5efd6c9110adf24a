// Reads a page as a link preview would: its og:/twitter: meta tags, its description and
// its alternate links (oEmbed discovery), with HTML entities decoded.

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'", "#x27": "'" };

function decode(text: string): string {
  return text.replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (ENTITIES[name.toLowerCase()]) return ENTITIES[name.toLowerCase()];
    if (name.startsWith("#x")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
    return whole;
  });
}

function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-zA-Z:-]+)="([^"]*)"/g)) attributes[match[1].toLowerCase()] = decode(match[2]);
  return attributes;
}

export interface PageMeta {
  /** og:* and twitter:* and description, each name with every value it has, in order. */
  tags: Map<string, string[]>;
  /** <link rel="alternate" type="application/json+oembed"> hrefs. */
  oembedLinks: string[];
  /** Everything a preview could read: the tags' values and the oEmbed links, one per line. */
  text: string;
}

/**
 * The tags anywhere in the document (Next.js streams metadata into <body> for browsers), or only
 * in <head> (`headOnly`, as link-preview crawlers and WordPress read them).
 */
export function readPageMeta(html: string, { headOnly = false } = {}): PageMeta {
  const head = headOnly ? html.slice(0, Math.max(html.indexOf("</head>"), 0)) : html;
  const tags = new Map<string, string[]>();
  for (const match of head.matchAll(/<meta\s[^>]*>/g)) {
    const attributes = attributesOf(match[0]);
    const name = attributes.property ?? attributes.name;
    if (!name || attributes.content === undefined) continue;
    if (!name.startsWith("og:") && !name.startsWith("twitter:") && name !== "description") continue;
    tags.set(name, [...(tags.get(name) ?? []), attributes.content]);
  }
  const oembedLinks: string[] = [];
  for (const match of head.matchAll(/<link\s[^>]*>/g)) {
    const attributes = attributesOf(match[0]);
    if (attributes.rel === "alternate" && attributes.type === "application/json+oembed" && attributes.href) oembedLinks.push(attributes.href);
  }
  const text = [...[...tags].map(([name, values]) => `${name}: ${values.join(" | ")}`), ...oembedLinks].join("\n");
  return { tags, oembedLinks, text };
}

/** The first value of a tag, or undefined. */
export function metaValue(meta: PageMeta, name: string): string | undefined {
  return meta.tags.get(name)?.[0];
}

/**
 * Waits until the page offers an og:image: a photo's image waits for processing's larger variants
 * (seconds after the photo turns ready), rather than being made blurry from the first small one.
 */
export async function waitForOgImage(request: (path: string) => Promise<Response>, path: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const meta = readPageMeta(await (await request(path)).text());
    if (meta.tags.has("og:image")) return;
    if (Date.now() > deadline) throw new Error(`${path} offered no og:image in time:\n${meta.text}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
