// Stands in for the "server-only" package outside Next.js, where its guard would throw.
export {};
