// Importing a folder `contact-sheet export` wrote: its shares.json gives each share link's settings
// and photos (by SHA-256), never its key or password hash. Each link is made again for the
// importing user through the owner's API (POST /api/shares): a new key, the same title, message,
// photos in the link's order (or the album it was made from, when the link held exactly that
// album's photos, so "take a new snapshot" keeps working), downloads, ZIP, EXIF, location and
// proofing switches, view limit and expiry.
//
// A link that asked for a password comes back LOCKED: with a random password that is never shown or
// kept, so it opens for nobody until its owner sets a new one. Made open instead, a link whose
// visitors were meant to need a password would show its photos to anyone holding the new link.
// Revoked, it could never be opened again (a revoked link stays revoked), which would cost the
// owner its settings. A link that was revoked, or whose expiry has passed, comes back revoked.
//
// A rerun makes no second copy: links already on the site with the same settings and photo count
// (per kind, counted) are taken as made. Nothing here prints a link's URL: it holds the key, which
// is a secret; the owner finds the new links on the Shares page (/admin/shares).
import { randomBytes } from "node:crypto";
import { exportShareSchema, type ExportShare } from "@/src/export/export-api.schemas";
import type { ExportAlbum } from "@/src/export/export-api.schemas";
import { MAX_SHARE_PHOTOS } from "@/src/shares/shares-owner.types";
import { EXPORT_FILES } from "../export/export-format";
import { albumPathKeyOf } from "./export-albums";
import { readExportFolderList } from "./export-folder";
import type { SiteApi, SiteShare } from "./site-api";

export function readExportShares(paths: readonly string[]): ExportShare[] {
  return readExportFolderList(paths, EXPORT_FILES.shares, "shares", exportShareSchema, "an export's share list");
}

export interface SharesRestored {
  created: number;
  /** Of those, the ones locked until their owner sets a new password. */
  locked: number;
  /** Already on the site from an earlier run. */
  present: number;
  failures: string[];
  notes: string[];
}

/** What a link is, for "is it already there": its settings and how many photos it opens, not its id, key or dates. */
function signatureOf(link: { title: string; message: string; albumId: string | null; photoCount: number; hasPassword: boolean; download: string; allowZip: boolean; showExif: boolean; showLocation: boolean; allowPicks: boolean; pickLimit: number | null; maxViews: number | null; revoked: boolean }): string {
  return JSON.stringify([link.title, link.message, link.albumId, link.photoCount, link.hasPassword, link.download, link.allowZip, link.showExif, link.showLocation, link.allowPicks, link.pickLimit, link.maxViews, link.revoked]);
}

function siteSignature(share: SiteShare): string {
  return signatureOf({ ...share, revoked: share.revokedAt !== null });
}

/** A password nobody knows (256 random bits): the link is locked until its owner sets one. */
function lockingPassword(): string {
  return randomBytes(32).toString("base64url");
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

export async function restoreExportShares(
  api: Pick<SiteApi, "listShares" | "createShare" | "updateShare">,
  shares: readonly ExportShare[],
  context: {
    /** Who imports: an admin's GET /api/shares lists everyone's links, and only theirs count. */
    uploaderId: string;
    photoIdByHash: ReadonlyMap<string, string>;
    albums: readonly ExportAlbum[];
    siteAlbumIdByPath: ReadonlyMap<string, string>;
    now?: Date;
  },
): Promise<SharesRestored> {
  const result: SharesRestored = { created: 0, locked: 0, present: 0, failures: [], notes: [] };
  if (shares.length === 0) return result;
  const now = context.now ?? new Date();
  const onSite = new Map<string, number>();
  try {
    for (const share of await api.listShares()) {
      if (share.owner.id !== context.uploaderId) continue;
      const signature = siteSignature(share);
      onSite.set(signature, (onSite.get(signature) ?? 0) + 1);
    }
  } catch (error) {
    result.failures.push(`share links: could not list the ones already on the site, so none were made: ${error instanceof Error ? error.message : String(error)}`);
    return result;
  }
  const exportedAlbumPhotos = new Map(context.albums.map((album) => [albumPathKeyOf(album.path), album.photos]));

  for (const [index, share] of shares.entries()) {
    const name = `share link ${index + 1} of ${shares.length} ("${share.title}")`;
    const photoIds = share.photos.map((sha256) => context.photoIdByHash.get(sha256)).filter((id): id is string => id !== undefined);
    if (photoIds.length === 0) {
      result.notes.push(`${name}: none of its photos are on the site; not made`);
      continue;
    }
    if (photoIds.length > MAX_SHARE_PHOTOS) {
      result.failures.push(`${name}: ${photoIds.length} photos, more than a link holds (${MAX_SHARE_PHOTOS}); not made`);
      continue;
    }
    // From its album when it held exactly the album's photos (as exported): the link stays tied to the album.
    const albumKey = share.albumPath === null ? null : albumPathKeyOf(share.albumPath);
    const siteAlbumId = albumKey === null ? undefined : context.siteAlbumIdByPath.get(albumKey);
    const albumPhotos = albumKey === null ? undefined : exportedAlbumPhotos.get(albumKey);
    const fromAlbum = siteAlbumId !== undefined && albumPhotos !== undefined && photoIds.length === share.photos.length && sameOrder(albumPhotos, share.photos);
    const expired = share.expiresAt !== null && Date.parse(share.expiresAt) <= now.getTime();
    const revoke = share.revoked || expired;
    const signature = signatureOf({ ...share, albumId: fromAlbum ? (siteAlbumId ?? null) : null, photoCount: photoIds.length, revoked: revoke });
    const present = onSite.get(signature) ?? 0;
    if (present > 0) {
      onSite.set(signature, present - 1);
      result.present += 1;
      continue;
    }
    try {
      const { id } = await api.createShare({
        ...(fromAlbum ? { albumId: siteAlbumId } : { photoIds }),
        ...(share.title.trim() ? { title: share.title } : {}),
        message: share.message,
        download: share.download,
        allowZip: share.allowZip,
        showExif: share.showExif,
        showLocation: share.showLocation,
        allowPicks: share.allowPicks,
        pickLimit: share.pickLimit,
        maxViews: share.maxViews,
        // A passed expiry cannot be set again (the API takes only the future): the link comes back revoked instead.
        expiresAt: expired ? null : share.expiresAt,
        ...(share.hasPassword ? { password: lockingPassword() } : {}),
      });
      if (revoke) await api.updateShare(id, { revoked: true });
      result.created += 1;
      if (share.hasPassword && !revoke) result.locked += 1;
      if (photoIds.length < share.photos.length) result.notes.push(`${name}: ${share.photos.length - photoIds.length} of its photos are not on the site (not imported); made without them`);
      if (expired && !share.revoked) result.notes.push(`${name}: its expiry (${share.expiresAt}) has passed; made revoked`);
    } catch (error) {
      result.failures.push(`failed to make ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return result;
}

/** The lines the person running the import reads: counts, never a link or its key. */
export function sharesRestoredText(restored: SharesRestored): string[] {
  const lines: string[] = [];
  const plural = (count: number) => `${count} share link${count === 1 ? "" : "s"}`;
  if (restored.created > 0 || restored.present > 0) {
    lines.push(`share links: ${plural(restored.created)} made with new addresses${restored.present > 0 ? `, ${restored.present} already there` : ""}; find them on the site's Shares page, /admin/shares (an address holds its link's key, a secret, so none is printed here)`);
  }
  if (restored.locked > 0) {
    lines.push(
      `share links: ${plural(restored.locked)} asked for a password, which an export never holds: locked until you set a new password on the link's page under /admin/shares; until then nobody can open ${restored.locked === 1 ? "it" : "them"}`,
    );
  }
  return [...lines, ...restored.notes];
}
