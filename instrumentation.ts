// Next.js calls register() once when the server starts, before it serves a request.
export async function register(): Promise<void> {
  // The Edge runtime has no database or file system; boot only in Node.js.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootServerOrExit } = await import("./src/server/boot");
  await bootServerOrExit();
}
