import type { ExifTool } from "exiftool-vendored";

/**
 * The one ExifTool process of this process, started on first use (a RAW upload) and ended with the
 * process. exiftool-vendored runs ExifTool's own Perl script, shipped in its npm package
 * (exiftool-vendored.pl: nothing is downloaded at install time), with the system's perl.
 *
 * Why ExifTool for RAW files and not exifr, which reads every other format here: on ExifTool's own
 * sample files exifr reads nothing from CR3 and RAF ("Unknown file format") and no ISO from RW2,
 * while ExifTool reads make, model, exposure, ISO and date from all six (DNG, CR2, CR3, NEF, RAF,
 * RW2). It also finds every maker's embedded previews, which no JavaScript reader does. The cost,
 * measured on this machine: about 0.2 s to start the process once, then tens of milliseconds per
 * file, against exifr's 1-10 ms; small beside a RAW's decode.
 */
let exiftool: Promise<ExifTool> | null = null;

/** Seconds one ExifTool task may take before it is abandoned (and its process replaced). */
const TASK_TIMEOUT_MILLISECONDS = 30_000;

/**
 * The library itself is loaded here, on first use, not when the module is: only RAW files and
 * iPhone stills need it, and loading it cost every server and worker start about 0.4 s.
 */
export function getExifTool(): Promise<ExifTool> {
  exiftool ??= import("exiftool-vendored").then(
    ({ ExifTool }) =>
      new ExifTool({
        maxProcs: 1,
        taskTimeoutMillis: TASK_TIMEOUT_MILLISECONDS,
        // A long-lived worker reads many files; a fresh process now and then bounds Perl's memory.
        maxTasksPerProcess: 500,
      }),
  );
  return exiftool;
}

/** Ends the ExifTool process, if one was started (tests, and scripts that must exit). */
export async function endExifTool(): Promise<void> {
  const running = exiftool;
  exiftool = null;
  await (await running)?.end();
}
