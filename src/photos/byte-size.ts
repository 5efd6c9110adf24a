const UNITS = ["bytes", "kB", "MB", "GB", "TB"] as const;

/**
 * Bytes as a person reads them: "0 bytes", "812 kB", "12.4 MB", "1.07 GB" (decimal units, as disks and
 * S3 bills count; three significant figures, so a small library's figures still differ visibly).
 */
export function formatByteSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 bytes";
  if (bytes < 1000) return `${Math.round(bytes)} bytes`;
  const exponent = Math.min(Math.floor(Math.log10(bytes) / 3), UNITS.length - 1);
  const value = bytes / 1000 ** exponent;
  return `${value >= 100 ? Math.round(value) : Number(value.toPrecision(3))} ${UNITS[exponent]}`;
}
