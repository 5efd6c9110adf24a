/**
 * The one spelling of an e-mail address that is stored, looked up and rate-limited: trimmed, lower
 * case and in Unicode NFC, so "José@…" typed in NFD (as some keyboards and macOS file names produce
 * it) finds the account created as NFC. Lower-casing first and composing last keeps the result NFC.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase().normalize("NFC");
}
