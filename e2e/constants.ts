// Shared by playwright.config.ts and the specs (kept apart so a spec importing them does no setup).
// E2E_PORT lets two checkouts on one machine run their suites side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_ADMIN = { email: "e2e-admin@example.test", password: "e2e-admin-password", name: "Erin Admin" };
/** The server's data folder; emptied at each start so every run begins on a fresh database. */
export const E2E_DATA_DIRECTORY = ".e2e-data";
