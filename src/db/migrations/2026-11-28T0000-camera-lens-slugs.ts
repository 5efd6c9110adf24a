import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any> and
// its own copy of the slug rule (src/photos/camera-slug.ts is the living one).

function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

function describeCamera(make: string | null, model: string | null): string | null {
  if (!model) return make;
  if (!make) return model;
  const brand = make.split(/\s+/)[0].toLowerCase();
  return model.toLowerCase().startsWith(brand) ? model : `${make} ${model}`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The URL names of a photo's camera and lens (/cameras/[slug], /lenses/[slug], `camera:` and
  // `lens:` in search), set with the EXIF summary. On the row, so a camera's page and its count
  // walk an index instead of describing every photo's camera.
  await db.schema.alterTable("photos").addColumn("camera_slug", "text").execute();
  await db.schema.alterTable("photos").addColumn("lens_slug", "text").execute();

  // Existing photos: one update per distinct camera and per distinct lens.
  const cameras = await db.selectFrom("photos").select(["camera_make", "camera_model"]).distinct().execute();
  for (const { camera_make, camera_model } of cameras) {
    const name = describeCamera(camera_make, camera_model);
    const slug = name ? slugify(name) || null : null;
    if (slug === null) continue;
    await db
      .updateTable("photos")
      .set({ camera_slug: slug })
      .where((eb) => eb.and([camera_make === null ? eb("camera_make", "is", null) : eb("camera_make", "=", camera_make), camera_model === null ? eb("camera_model", "is", null) : eb("camera_model", "=", camera_model)]))
      .execute();
  }
  const lenses = await db.selectFrom("photos").select("lens").distinct().where("lens", "is not", null).execute();
  for (const { lens } of lenses) {
    const slug = slugify(lens) || null;
    if (slug !== null) await db.updateTable("photos").set({ lens_slug: slug }).where("lens", "=", lens).execute();
  }

  // A camera's (or lens's) photos of one visibility in gallery order: one index range per
  // visibility the viewer may list, like the gallery's own. Partial: photos without EXIF stay out.
  await db.schema
    .createIndex("photos_camera_slug")
    .on("photos")
    .columns(["camera_slug", "visibility", "sort_at", "id"])
    .where("camera_slug", "is not", null)
    .execute();
  await db.schema
    .createIndex("photos_lens_slug")
    .on("photos")
    .columns(["lens_slug", "visibility", "sort_at", "id"])
    .where("lens_slug", "is not", null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("photos_lens_slug").execute();
  await db.schema.dropIndex("photos_camera_slug").execute();
  await db.schema.alterTable("photos").dropColumn("lens_slug").execute();
  await db.schema.alterTable("photos").dropColumn("camera_slug").execute();
}
