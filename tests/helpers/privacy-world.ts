import { expect } from "vitest";
import type { Visibility } from "@/src/db/database";
import { uploadCorpusFile, waitForProcessing } from "./photos";
import { createTestUser, signedInAs, TestClient, type TestUser } from "./test-client";

// The world every "never for a visitor" test of issue 15 probes (SECURITY.md 43): one photo of each
// visibility, each with its own camera, a word of its own in its title, caption and alt text, a tag
// of its own; all four in a public album; the public one also in a private album whose title is
// secret; and a share link (with a secret title) holding the private one.
//
// Every surface (search, facets, counts, suggestions, browse pages, feeds, sitemap, OG, oEmbed)
// checks both ways: what must show (the public photo's word, camera, tag: the positive control, so
// an empty answer can never pass) and what must not (every secret of `secretsHiddenFrom`).
//
// Made through the API as an editor would, so the photos are real corpus files, processed. The
// integration server and its database are shared by every test file, and other files upload the
// same corpus files as public photos: judge a camera, lens or year by this world's photo ids and
// words (or compare a count before and after), never by the camera's name being absent.

/** Each visibility's file: four different cameras, so a camera's page and count can leak on its own. */
const PRIVACY_FILES: Record<Visibility, string> = {
  /** Apple iPhone 6, with a lens model: the positive control for cameras and lenses. */
  public: "exif-samples/jpg/hdr/iphone_hdr_YES.jpg",
  /** Canon EOS 40D. */
  unlisted: "exif-samples/jpg/Canon_40D.jpg",
  /** PENTAX K10D. */
  members: "exif-samples/jpg/Pentax_K10D.jpg",
  /** NIKON D70s with the lens "18.0-70.0 mm f/3.5-4.5", GPS and a serial number. */
  private: "exif-samples/jpg/tests/87_OSError.jpg",
};

/** One word per visibility; made unique per world so two worlds on one server never see each other's. */
const WORD_STEMS: Record<Visibility, string> = { public: "zebrapublic", unlisted: "quokkaunlisted", members: "narwhalmembers", private: "axolotlprivate" };

export interface PrivacyPhoto {
  id: string;
  visibility: Visibility;
  /** In the title, the caption and the alt text; nowhere else on the site. */
  word: string;
  /** A tag only this photo has (its name; the key is the same in lower case). */
  tag: string;
  /** As processing recorded it: "Canon EOS 40D" and so on (the EXIF panel's words). */
  cameraModel: string | null;
  lens: string | null;
}

export interface PrivacyWorld {
  /** The editor who owns every photo, album and share here. */
  owner: TestClient;
  ownerUser: TestUser;
  /** A signed-in user with the viewer role (sees public and members-only photos). */
  member: TestClient;
  /** No cookies at all. */
  visitor: TestClient;
  photos: Record<Visibility, PrivacyPhoto>;
  /** Public; holds all four photos (an album never widens who may see a photo). */
  publicAlbum: { id: string; slug: string; title: string };
  /** Private; holds the public photo. Its title's word must never reach anyone but the owner and admins. */
  privateAlbum: { id: string; slug: string; title: string; word: string };
  /** A live share link holding the private photo; shares are never listed anywhere. */
  share: { id: string; key: string; url: string; title: string; word: string };
  /** The ids, words, tags and share/album words a viewer of this kind must never meet. */
  secretsHiddenFrom(viewer: "visitor" | "member"): string[];
}

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** Builds a fresh world; `label` keeps its words apart from other worlds' (use the test file's name). */
export async function createPrivacyWorld(label: string): Promise<PrivacyWorld> {
  const suffix = `${label.toLowerCase().replace(/[^a-z]/g, "")}${Math.random().toString(36).replace(/[^a-z]/g, "").slice(0, 6)}`;
  const { client: owner, user: ownerUser, admin } = await signedInAs("editor");
  const member = new TestClient();
  const memberUser = await createTestUser(admin, "viewer");
  await member.signIn(memberUser.email, memberUser.password);
  expect(member.sessionToken).toBeTruthy();

  const photos = {} as Record<Visibility, PrivacyPhoto>;
  for (const visibility of ["public", "unlisted", "members", "private"] as const) {
    const uploaded = await uploadCorpusFile(owner, PRIVACY_FILES[visibility]);
    const processed = await waitForProcessing(owner, uploaded.id);
    expect(processed.status).toBe("ready");
    const word = `${WORD_STEMS[visibility]}${suffix}`;
    const tag = `tag${word}`;
    await json(
      await owner.request(`/api/photos/${uploaded.id}`, {
        method: "PATCH",
        body: { json: { title: `The ${word} photo`, caption: `A caption about ${word}.`, altText: `${word} in the frame`, visibility } },
      }),
      200,
    );
    await json(await owner.request(`/api/photos/${uploaded.id}/tags`, { method: "PUT", body: { json: { names: [tag] } } }), 200);
    const exif = processed.exif as { cameraModel?: string | null; lens?: string | null };
    photos[visibility] = { id: uploaded.id, visibility, word, tag, cameraModel: exif.cameraModel ?? null, lens: exif.lens ?? null };
  }

  const createAlbum = async (title: string, visibility: Visibility, photoIds: string[]) => {
    const { album } = await json<{ album: { id: string; slug: string; title: string } }>(
      await owner.request("/api/albums", { body: { json: { title, visibility } } }),
      201,
    );
    await json(await owner.request(`/api/albums/${album.id}/photos`, { body: { json: { photoIds } } }), 200);
    return album;
  };
  const publicAlbum = await createAlbum(`Privacy album ${suffix}`, "public", Object.values(photos).map((photo) => photo.id));
  const privateAlbumWord = `ocelotalbum${suffix}`;
  const privateAlbum = { ...(await createAlbum(`The ${privateAlbumWord} album`, "private", [photos.public.id])), word: privateAlbumWord };

  const shareWord = `pangolinshare${suffix}`;
  const { share } = await json<{ share: { id: string; url: string; title: string } }>(
    await owner.request("/api/shares", { body: { json: { photoIds: [photos.private.id], title: `The ${shareWord} link` } } }),
    201,
  );

  const shareKey = new URL(share.url).pathname.split("/")[2];
  expect(shareKey).toMatch(/^[\w-]{24}$/);
  const secretsOf = (visibility: Visibility) => [photos[visibility].id, photos[visibility].word, photos[visibility].tag.toLowerCase()];
  return {
    owner,
    ownerUser,
    member,
    visitor: new TestClient(),
    photos,
    publicAlbum,
    privateAlbum,
    share: { id: share.id, key: shareKey, url: share.url, title: share.title, word: shareWord },
    secretsHiddenFrom(viewer) {
      const hidden: Visibility[] = viewer === "visitor" ? ["unlisted", "members", "private"] : ["unlisted", "private"];
      return [...hidden.flatMap(secretsOf), privateAlbum.id, privateAlbum.word, shareKey, shareWord];
    },
  };
}

/** Fails with every secret found in `text`, naming where it was found. */
export function expectNoSecrets(text: string, secrets: string[], where: string): void {
  const folded = text.toLowerCase();
  const found = secrets.filter((secret) => folded.includes(secret.toLowerCase()));
  expect(found, `${where} reveals ${found.join(", ")}`).toEqual([]);
}
