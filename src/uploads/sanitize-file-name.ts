const MAXIMUM_NAME_LENGTH = 200;

/**
 * The name to show and to offer on download for a file a client uploaded: its last path segment,
 * in NFC, without control characters or bidirectional overrides (which can disguise `gpj.exe` as
 * `exe.jpg`), and at most 200 characters. Never used to store anything: storage keys are generated.
 */
export function sanitizeFileName(clientName: string): string {
  let name = clientName.normalize("NFC");
  try {
    // Clients sometimes send names percent-encoded (`%2e%2e%2f`).
    name = decodeURIComponent(name);
  } catch {
    // Not encoded: keep it as it is.
  }
  name = name.replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "");
  name = name.split(/[\\/]/).pop() ?? "";
  name = name.replace(/^\.+/, "").trim();
  if (name.length > MAXIMUM_NAME_LENGTH) {
    const extension = /\.[\w]{1,10}$/.exec(name)?.[0] ?? "";
    name = name.slice(0, MAXIMUM_NAME_LENGTH - extension.length) + extension;
  }
  return name || "photo";
}
