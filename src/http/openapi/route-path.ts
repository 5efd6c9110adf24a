/**
 * The URL paths a route file answers at, in OpenAPI's template form: `app/api/photos/[id]/route.ts`
 * gives `/api/photos/{id}`. Route groups `(name)` add nothing to the URL; a catch-all `[...key]`
 * becomes one parameter that holds several segments; an optional catch-all `[[...path]]` answers
 * both without it and with it, so it gives two paths (the bare one first).
 */
export function toOpenApiPaths(routeFile: string): string[] {
  const segments = routeFile.replace(/^app\//, "").replace(/\/?route\.ts$/, "").split("/").filter(Boolean);
  const urlSegments = segments.filter((segment) => !/^\(.+\)$/.test(segment));
  const last = urlSegments.at(-1) ?? "";
  const optionalCatchAll = /^\[\[\.\.\.(.+)\]\]$/.exec(last);
  const toTemplate = (segment: string) => segment.replace(/^\[(?:\.\.\.)?(.+?)\]$/, "{$1}");
  if (optionalCatchAll) {
    const bare = `/${urlSegments.slice(0, -1).map(toTemplate).join("/")}`;
    return [bare, `${bare}/{${optionalCatchAll[1]}}`];
  }
  return [`/${urlSegments.map(toTemplate).join("/")}`];
}

/** The names of a path template's parameters, in order: `/api/photos/{id}` gives `["id"]`. */
export function listPathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
}
