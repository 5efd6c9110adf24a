// What the commands that talk to a site over HTTP (import, export) parse alike: the site's address
// and a small concurrency.
import { InvalidArgumentError } from "commander";
import { CommandFailure } from "./command-failure";

export function concurrencyArgument(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 16) throw new InvalidArgumentError("a whole number from 1 to 16");
  return value;
}

export function siteUrl(text: string | undefined): string {
  if (!text) throw new CommandFailure("Name the site: --url https://photos.example.com (or set CONTACT_SHEET_URL).", 2);
  try {
    const url = new URL(text);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http");
    return url.toString();
  } catch {
    throw new CommandFailure(`${text} is not a web address (https://photos.example.com).`, 2);
  }
}
