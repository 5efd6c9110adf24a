"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { LOCATION_PRECISION_LABELS, LOCATION_PRECISIONS, VISIBILITIES } from "@/src/db/database";
import { AdminPanel } from "@/src/ui/admin-page";
import { callApi } from "@/src/ui/api-client";
import { AUDIT_RETENTION_MAX_DAYS, SITE_DESCRIPTION_MAX_LENGTH, SITE_TITLE_MAX_LENGTH, siteSettingsResponseSchema } from "../site-settings.schemas";
import type { SiteSettings } from "../site-settings.service";

const VISIBILITY_LABELS: Record<(typeof VISIBILITIES)[number], string> = {
  public: "Public – everyone, listed in the gallery",
  unlisted: "Unlisted – anyone with the link",
  members: "Members – signed-in users",
  private: "Private – only the owner and admins",
};

interface SiteSettingsFormProps {
  initialSettings: SiteSettings;
  /** ANALYTICS_SCRIPT_URL from the environment: what loads when the setting is empty. */
  environmentAnalyticsUrl: string | null;
}

/** The site's settings as one form; saving sends only what changed, and the server checks it all again. */
export function SiteSettingsForm({ initialSettings, environmentAnalyticsUrl }: SiteSettingsFormProps) {
  const router = useRouter();
  const [settings, setSettings] = useState(initialSettings);
  const [isSaving, setIsSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = {
      siteTitle: String(form.get("siteTitle") ?? ""),
      siteDescription: String(form.get("siteDescription") ?? ""),
      defaultVisibility: String(form.get("defaultVisibility") ?? "private"),
      showLocationByDefault: form.get("showLocationByDefault") === "on",
      locationPrecision: String(form.get("locationPrecision") ?? "exact"),
      allowDownloads: form.get("allowDownloads") === "on",
      analyticsScriptUrl: String(form.get("analyticsScriptUrl") ?? "").trim() || null,
      auditRetentionDays: Number(form.get("auditRetentionDays")),
      trashRetentionDays: Number(form.get("trashRetentionDays")),
    };
    const changes = Object.fromEntries(Object.entries(next).filter(([name, value]) => value !== settings[name as keyof SiteSettings]));
    if (Object.keys(changes).length === 0) {
      toast.success("Nothing to save.");
      return;
    }
    setIsSaving(true);
    setError(null);
    try {
      const body = await callApi("/api/admin/settings", { method: "PATCH", body: changes }, siteSettingsResponseSchema);
      setSettings(body.settings);
      toast.success("Settings saved.");
      // The header and <title> come from the server: render them again with the new title.
      router.refresh();
    } catch (saveError) {
      setError(saveError instanceof Error ? saveError.message : "Could not save the settings.");
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <form className="settings-form" onSubmit={handleSubmit} aria-label="Site settings" noValidate>
      {error && (
        <p className="notice error" role="alert" data-testid="settings-error">
          {error}
        </p>
      )}
      <AdminPanel title="Identity">
        <div className="settings-fields">
          <label className="field">
            Site title
            <input name="siteTitle" required maxLength={SITE_TITLE_MAX_LENGTH} defaultValue={settings.siteTitle} data-testid="site-title-input" />
            <span className="field-hint">In the header, every page&apos;s title and feeds.</span>
          </label>
          <label className="field">
            Description
            <textarea name="siteDescription" rows={2} maxLength={SITE_DESCRIPTION_MAX_LENGTH} defaultValue={settings.siteDescription} />
            <span className="field-hint">One line for search results and link previews.</span>
          </label>
        </div>
      </AdminPanel>

      <AdminPanel title="New uploads">
        <div className="settings-fields">
          <label className="field">
            Default visibility
            <select name="defaultVisibility" defaultValue={settings.defaultVisibility}>
              {VISIBILITIES.map((visibility) => (
                <option key={visibility} value={visibility}>
                  {VISIBILITY_LABELS[visibility]}
                </option>
              ))}
            </select>
            <span className="field-hint">Each photo can be changed afterwards.</span>
          </label>
          <label className="checkbox-field">
            <input type="checkbox" name="showLocationByDefault" defaultChecked={settings.showLocationByDefault} />
            Show the location of new photos to others
          </label>
          <label className="field">
            Location precision others see
            <select name="locationPrecision" defaultValue={settings.locationPrecision} data-testid="location-precision-select">
              {LOCATION_PRECISIONS.map((precision) => (
                <option key={precision} value={precision}>
                  {LOCATION_PRECISION_LABELS[precision]}
                </option>
              ))}
            </select>
            <span className="field-hint">For every photo whose location is shown and that has not chosen its own precision. Rounded on the server.</span>
          </label>
        </div>
      </AdminPanel>

      <AdminPanel title="Visitors">
        <div className="settings-fields">
          <label className="checkbox-field">
            <input type="checkbox" name="allowDownloads" defaultChecked={settings.allowDownloads} />
            Let people who can see a photo download it (each photo can override this)
          </label>
          <label className="field">
            Analytics script URL
            <input
              name="analyticsScriptUrl"
              type="url"
              inputMode="url"
              maxLength={2048}
              defaultValue={settings.analyticsScriptUrl ?? ""}
              placeholder={environmentAnalyticsUrl ?? "https://analytics.example.com/script.js"}
            />
            <span className="field-hint">
              Loaded on public pages only, never on admin or sign-in pages.
              {environmentAnalyticsUrl ? " Empty: the server's ANALYTICS_SCRIPT_URL." : " Empty: none."}
            </span>
          </label>
        </div>
      </AdminPanel>

      <AdminPanel title="Trash">
        <div className="settings-fields">
          <label className="field settings-number">
            Keep deleted photos for (days)
            <input name="trashRetentionDays" type="number" min={1} max={3650} step={1} required defaultValue={settings.trashRetentionDays} />
            <span className="field-hint">Until then they can be restored from the trash; after that they and their files are deleted for good.</span>
          </label>
        </div>
      </AdminPanel>

      <AdminPanel title="Audit log">
        <div className="settings-fields">
          <label className="field settings-number">
            Keep entries for (days)
            <input name="auditRetentionDays" type="number" min={1} max={AUDIT_RETENTION_MAX_DAYS} step={1} required defaultValue={settings.auditRetentionDays} />
            <span className="field-hint">Older entries are deleted once a day.</span>
          </label>
        </div>
      </AdminPanel>

      <div className="settings-submit">
        <button type="submit" disabled={isSaving} aria-busy={isSaving}>
          {isSaving ? "Saving…" : "Save settings"}
        </button>
      </div>
    </form>
  );
}
