import "server-only";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { LOCATION_PRECISIONS, type LocationPrecision, VISIBILITIES, type Visibility } from "@/src/db/database";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { getLogger } from "@/src/log/logger";
import { SITE_DESCRIPTION, SITE_TITLE } from "@/src/ui/site-identity";
import { announceSettingsChanged, onSettingsChanged } from "./settings-changes";
import { findSettings, upsertSetting } from "./settings.repository";
import type { UpdateSiteSettingsInput } from "./site-settings.schemas";

/** The settings an admin chooses for the whole site. */
export interface SiteSettings {
  /** The site's name: header, <title>, feeds. */
  siteTitle: string;
  /** One line about the site: the description meta tag and link previews. */
  siteDescription: string;
  /** The visibility new uploads start with (PRODUCT.md: private unless an admin changes it). */
  defaultVisibility: Visibility;
  /** Whether new uploads show their location to others. Off by default. */
  showLocationByDefault: boolean;
  /**
   * How precisely others learn a shown location, for every photo that did not choose its own
   * (src/photos/location-precision.ts). Exact by default, as before the setting existed.
   */
  locationPrecision: LocationPrecision;
  /** Whether people other than a photo's owner may download it (a download copy); each photo may override it. Off by default. */
  allowDownloads: boolean;
  /** The analytics script public pages load; null: ANALYTICS_SCRIPT_URL from the environment, if any. */
  analyticsScriptUrl: string | null;
  /** How many days audit log entries are kept before the daily purge deletes them. */
  auditRetentionDays: number;
  /** How many days photos stay in the trash before they and their files are deleted for good. 30 by default. */
  trashRetentionDays: number;
}

type SettingName = keyof SiteSettings;

/** A stored whole number of days, or undefined (then the default) when it is not one. */
function readDays(text: string): number | undefined {
  return /^\d+$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}

/** Each setting's key in the settings table, its default, and how its stored text reads back. */
const SETTINGS: { [Name in SettingName]: { key: string; fallback: SiteSettings[Name]; read(text: string): SiteSettings[Name] | undefined } } = {
  siteTitle: { key: "site.title", fallback: SITE_TITLE, read: (text) => text || undefined },
  siteDescription: { key: "site.description", fallback: SITE_DESCRIPTION, read: (text) => text },
  defaultVisibility: { key: "site.default_visibility", fallback: "private", read: (text) => VISIBILITIES.find((visibility) => visibility === text) },
  showLocationByDefault: { key: "site.show_location", fallback: false, read: (text) => text === "true" },
  locationPrecision: { key: "site.location_precision", fallback: "exact", read: (text) => LOCATION_PRECISIONS.find((precision) => precision === text) },
  allowDownloads: { key: "site.allow_downloads", fallback: false, read: (text) => text === "true" },
  analyticsScriptUrl: { key: "site.analytics_script_url", fallback: null, read: (text) => text || null },
  auditRetentionDays: { key: "audit.retention_days", fallback: 365, read: readDays },
  trashRetentionDays: { key: "site.trash_retention_days", fallback: 30, read: readDays },
};

const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];
const SETTING_KEYS = SETTING_NAMES.map((name) => SETTINGS[name].key);

/**
 * Settings are read on every page (the header's title) and by many services, so they are kept in
 * memory: dropped at once when this process changes them (settings-changes.ts), and after
 * CACHE_TTL_MS, which bounds how long a change made on another instance takes to show there.
 * Keyed by the database handle, so tests' databases never share a copy; a transaction reads afresh.
 * A change made inside a caller's transaction is announced before that commits: a read in between
 * may keep the old value, for CACHE_TTL_MS at most.
 */
const CACHE_TTL_MS = 5_000;
let cached = new WeakMap<object, { settings: Promise<SiteSettings>; expiresAt: number }>();
onSettingsChanged(() => {
  cached = new WeakMap();
});

async function readSiteSettings(db: DatabaseHandle): Promise<SiteSettings> {
  const stored = await findSettings(db, SETTING_KEYS);
  const settings: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const setting = SETTINGS[name];
    const text = stored.get(setting.key);
    settings[name] = (text === undefined ? undefined : setting.read(text)) ?? setting.fallback;
  }
  return settings as unknown as SiteSettings;
}

export async function getSiteSettings(db: DatabaseHandle): Promise<SiteSettings> {
  // Inside a transaction: what it sees, never a shared copy (it may hold changes not yet committed).
  if (db.isTransaction) return readSiteSettings(db);
  const now = Date.now();
  const held = cached.get(db);
  if (held && held.expiresAt > now) return held.settings;
  const settings = readSiteSettings(db);
  cached.set(db, { settings, expiresAt: now + CACHE_TTL_MS });
  // A failed read is not kept.
  settings.catch(() => cached.delete(db));
  return settings;
}

/** The settings as stored text, one per key, for upsertSetting. */
function toStoredText(value: SiteSettings[SettingName]): string {
  return value === null ? "" : String(value);
}

/**
 * Changes the settings given (already validated by updateSiteSettingsSchema), audited with the
 * fields that changed before and after, in one transaction; every cache of them is dropped after
 * it commits, so the next answer (also the visitor's cached `/`) shows the change.
 */
export async function updateSiteSettings(db: DatabaseHandle, actor: SessionUser, input: UpdateSiteSettingsInput): Promise<SiteSettings> {
  // The handler wrapper checks this too; services check again so no caller can forget.
  if (actor.role !== "admin") throw new AppError("FORBIDDEN", "Only admins can change the site's settings.");
  const now = new Date().toISOString();
  await inTransaction(db, async (transaction) => {
    const current = await readSiteSettings(transaction);
    const before: Partial<Record<SettingName, unknown>> = {};
    const after: Partial<Record<SettingName, unknown>> = {};
    for (const name of SETTING_NAMES) {
      const value = input[name];
      if (value === undefined || value === current[name]) continue;
      before[name] = current[name];
      after[name] = value;
      await upsertSetting(transaction, SETTINGS[name].key, toStoredText(value));
    }
    if (Object.keys(after).length === 0) return;
    await insertAuditEntry(transaction, { actorId: actor.id, action: "settings.update", targetId: null, targetType: "settings", details: { before, after } }, now);
  });
  announceSettingsChanged();
  return getSiteSettings(db);
}

/**
 * The site's title and description for every page's frame (header, <title>, manifest). When the
 * database cannot answer, the defaults: the error page a failing request ends on must still render.
 */
export async function getSiteIdentity(db: DatabaseHandle): Promise<{ siteTitle: string; siteDescription: string }> {
  try {
    const { siteTitle, siteDescription } = await getSiteSettings(db);
    return { siteTitle, siteDescription };
  } catch (error) {
    getLogger().warn({ err: error }, "could not read the site's title; showing the default");
    return { siteTitle: SITE_TITLE, siteDescription: SITE_DESCRIPTION };
  }
}
