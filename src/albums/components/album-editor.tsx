"use client";

import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { arrayMove, rectSortingStrategy, SortableContext, useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type CSSProperties, type FormEvent, useId, useState } from "react";
import toast from "react-hot-toast";
import type { Visibility } from "@/src/db/database";
import { AdminPanel } from "@/src/ui/admin-page";
import { ConfirmDialog } from "@/src/ui/dialog";
import type { AlbumSort } from "../albums.types";
import { describePhotoCount } from "./album-card-data";
import { type EditorAlbum, type EditorPhoto, parentChoices, SORT_CHOICES, VISIBILITY_CHOICES, VISIBILITY_HINT } from "./album-editor-data";
import { type AlbumFields, type AlbumMove, deleteAlbumRequest, movePhotoRequest, removePhotosRequest, updateAlbumRequest } from "./albums-api";
import { gridKeyboardCoordinates } from "./grid-keyboard-moves";
import { PhotoPicker } from "./photo-picker";

/** What the arrow keys do to a lifted photo (grid-keyboard-moves.ts), said in the hint and to screen readers. */
const KEYBOARD_MOVES = "Left and Right arrows move it one place, Up and Down one row";

interface AlbumEditorProps {
  album: EditorAlbum;
  /** The album's photos in its order (for its editor: every one they may see). */
  photos: EditorPhoto[];
  /** False when the album has more photos than the editor lays out at once. */
  isComplete: boolean;
  /** Every album this editor may manage, for the parent picker. */
  albums: EditorAlbum[];
}

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error ? error.message : fallback;
}

const FIELD_NAMES: Record<keyof AlbumFields, string> = {
  title: "title",
  slug: "address",
  description: "description",
  visibility: "visibility",
  parentId: "place",
  sort: "order",
};

/** What the details form shows, as one key: it changes only when one of those fields does. */
function detailsVersion(album: Pick<AlbumFields, "title" | "slug" | "description" | "visibility" | "parentId">): string {
  return JSON.stringify([album.title, album.slug, album.description, album.visibility, album.parentId]);
}

function listInWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/**
 * /admin/albums/[id]: the album's details, its order, its photos (dragged, or moved with the
 * keyboard and buttons, in manual order), its cover, adding and removing photos, and deleting it.
 * Every change goes to the albums API and is confirmed by a toast naming what changed; the page is
 * then read again, so what shows is what the server holds.
 */
export function AlbumEditor({ album: serverAlbum, photos: serverPhotos, isComplete, albums }: AlbumEditorProps) {
  const router = useRouter();
  // Local copies for instant feedback; replaced whenever the server's props change (after refresh).
  const [album, setAlbum] = useState(serverAlbum);
  const [photos, setPhotos] = useState(serverPhotos);
  const [seen, setSeen] = useState({ serverAlbum, serverPhotos });
  if (seen.serverAlbum !== serverAlbum || seen.serverPhotos !== serverPhotos) {
    setSeen({ serverAlbum, serverPhotos });
    setAlbum(serverAlbum);
    setPhotos(serverPhotos);
  }
  const [selected, setSelected] = useState<string[]>([]);
  const [isBusy, setIsBusy] = useState(false);
  const [isPicking, setIsPicking] = useState(false);
  const [isDeleting, setIsDeleting] = useState(false);
  const [positionInput, setPositionInput] = useState("");
  const hintId = useId();
  // dnd-kit numbers its instructions' element per process unless given an id: the server's number
  // (its counter runs across requests) then differs from the browser's, and every handle's
  // aria-describedby pointed at nothing, so screen readers never heard which keys move a photo.
  const dndId = useId();
  const isManual = album.sort === "manual";
  const selectedPhotos = photos.filter((photo) => selected.includes(photo.id));
  const single = selectedPhotos.length === 1 ? selectedPhotos[0] : null;
  const singleIndex = single ? photos.findIndex((photo) => photo.id === single.id) : -1;

  /** Runs one change: a toast for its outcome, then the page is read again. Answers whether it worked. */
  async function run(action: () => Promise<string>, fallback: string, onFailure?: () => void): Promise<boolean> {
    setIsBusy(true);
    try {
      toast.success(await action());
      router.refresh();
      return true;
    } catch (error) {
      onFailure?.();
      toast.error(messageOf(error, fallback));
      router.refresh();
      return false;
    } finally {
      setIsBusy(false);
    }
  }

  async function handleDetails(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next: Partial<AlbumFields> = {
      title: String(form.get("title") ?? "").trim(),
      slug: String(form.get("slug") ?? "").trim(),
      description: String(form.get("description") ?? "").trim(),
      visibility: String(form.get("visibility") ?? album.visibility) as Visibility,
      parentId: String(form.get("parentId") ?? "") || null,
    };
    const changes = Object.fromEntries(Object.entries(next).filter(([key, value]) => album[key as keyof AlbumFields] !== value)) as Partial<AlbumFields>;
    const changed = Object.keys(changes) as Array<keyof AlbumFields>;
    if (changed.length === 0) {
      toast("Nothing to save: the details are as they were.");
      return;
    }
    await run(async () => {
      const saved = await updateAlbumRequest(album.id, changes);
      setAlbum((current) => ({ ...current, ...changes, slug: saved.slug, title: saved.title }));
      return `Saved the ${listInWords(changed.map((key) => FIELD_NAMES[key]))} of ${saved.title}`;
    }, "The details could not be saved.");
  }

  async function changeSort(sort: AlbumSort) {
    const before = album.sort;
    setAlbum((current) => ({ ...current, sort }));
    await run(
      async () => {
        await updateAlbumRequest(album.id, { sort });
        return `${album.title} is now sorted ${SORT_CHOICES.find((choice) => choice.value === sort)?.short ?? sort}`;
      },
      "The order could not be changed.",
      () => setAlbum((current) => ({ ...current, sort: before })),
    );
  }

  /** Moves one photo to a new index: shown at once, sent as "after the photo now before it". */
  async function movePhoto(photoId: string, toIndex: number) {
    const fromIndex = photos.findIndex((photo) => photo.id === photoId);
    if (fromIndex === -1 || toIndex < 0 || toIndex >= photos.length || toIndex === fromIndex) return;
    const before = photos;
    const moved = arrayMove(photos, fromIndex, toIndex);
    setPhotos(moved);
    const target: AlbumMove = toIndex === 0 ? { after: null } : { after: moved[toIndex - 1].id };
    const name = photos[fromIndex].name;
    await run(
      async () => {
        await movePhotoRequest(album.id, photoId, target);
        return `Moved ${name} to position ${toIndex + 1} of ${photos.length} in ${album.title}`;
      },
      "The photo could not be moved.",
      () => setPhotos(before),
    );
  }

  async function setCover(photo: EditorPhoto | null) {
    await run(async () => {
      await updateAlbumRequest(album.id, { coverPhotoId: photo?.id ?? null });
      setAlbum((current) => ({ ...current, coverPhotoId: photo?.id ?? null }));
      return photo ? `${photo.name} is now the cover of ${album.title}` : `${album.title} now shows its first photo as the cover`;
    }, "The cover could not be changed.");
  }

  async function removeSelected() {
    const ids = selectedPhotos.map((photo) => photo.id);
    if (ids.length === 0) return;
    const isDone = await run(async () => {
      const { removed } = await removePhotosRequest(album.id, ids);
      setPhotos((current) => current.filter((photo) => !ids.includes(photo.id)));
      return `${describePhotoCount(removed).replace("No photos yet", "No photos")} removed from ${album.title}`;
    }, "The photos could not be removed.");
    if (isDone) setSelected([]);
  }

  async function confirmDelete() {
    setIsBusy(true);
    try {
      await deleteAlbumRequest(album.id);
      toast.success(`Deleted the album ${album.title}; its photos are still in the library`);
      router.push("/admin/albums");
      router.refresh();
    } catch (error) {
      toast.error(messageOf(error, "The album could not be deleted."));
      setIsBusy(false);
      setIsDeleting(false);
    }
  }

  function toggle(photoId: string) {
    setSelected((current) => (current.includes(photoId) ? current.filter((id) => id !== photoId) : [...current, photoId]));
  }

  const sensors = useSensors(
    // A few pixels of travel before a drag starts, so a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    // Arrow keys move by the grid as it is drawn: Left/Right one place, Up/Down one row.
    useSensor(KeyboardSensor, { coordinateGetter: gridKeyboardCoordinates }),
  );

  const nameOf = (id: UniqueIdentifier) => photos.find((photo) => photo.id === id)?.name ?? "the photo";
  const positionOf = (id: UniqueIdentifier) => photos.findIndex((photo) => photo.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, at position ${positionOf(active.id)} of ${photos.length}.`,
    onDragOver: ({ active, over }) => (over ? `${nameOf(active.id)} would move to position ${positionOf(over.id)} of ${photos.length}.` : `${nameOf(active.id)} is not over a place in the album.`),
    onDragEnd: ({ active, over }) => (over ? `${nameOf(active.id)} dropped at position ${positionOf(over.id)} of ${photos.length}.` : `${nameOf(active.id)} dropped where it was.`),
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled; it stays at position ${positionOf(active.id)}.`,
  };

  function handleDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    void movePhoto(String(active.id), photos.findIndex((photo) => photo.id === over.id));
  }

  const parentOptions = parentChoices(albums, album.id);
  const coverId = album.coverPhotoId;

  return (
    <div className="album-editor">
      <div className="album-editor-links">
        <a className="button secondary" href={`/albums/${album.slug}`}>
          View album
        </a>
        <Link className="button-ghost button" href="/admin/albums">
          All albums
        </Link>
      </div>

      <AdminPanel title="Details">
        {/* Drawn afresh when the saved details change (so it shows what was saved), but not when
            something else about the album does: a cover or an order change refreshes the page,
            and must not throw away details being typed. */}
        <form className="admin-form album-form" onSubmit={handleDetails} aria-label="Album details" key={detailsVersion(album)}>
          <label className="field">
            Title
            <input name="title" required maxLength={200} defaultValue={album.title} autoComplete="off" />
          </label>
          <label className="field">
            Address
            <input name="slug" required maxLength={80} pattern="[a-z0-9]+(-[a-z0-9]+)*" defaultValue={album.slug} autoComplete="off" aria-describedby={`${hintId}-slug`} />
            <span id={`${hintId}-slug`} className="field-hint">
              /albums/{album.slug}; the old address keeps working after a change.
            </span>
          </label>
          <label className="field">
            Visibility
            <select name="visibility" defaultValue={album.visibility} aria-describedby={`${hintId}-visibility`}>
              {VISIBILITY_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
            <span id={`${hintId}-visibility`} className="field-hint">
              {VISIBILITY_HINT}
            </span>
          </label>
          <label className="field">
            Inside
            <select name="parentId" defaultValue={album.parentId ?? ""}>
              <option value="">Nothing (a top-level album)</option>
              {parentOptions.map((choice) => (
                <option key={choice.id} value={choice.id} title={choice.path}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field album-form-wide">
            Description
            <textarea name="description" maxLength={5000} rows={3} defaultValue={album.description} />
          </label>
          <div className="admin-form-submit">
            <button type="submit" disabled={isBusy}>
              Save details
            </button>
          </div>
        </form>
      </AdminPanel>

      <section className="album-editor-photos" aria-labelledby={`${hintId}-photos`}>
        <div className="album-editor-bar">
          <h2 id={`${hintId}-photos`}>
            Photos <span className="muted album-editor-count">{photos.length}</span>
          </h2>
          <label className="field album-editor-sort">
            Order
            <select value={album.sort} onChange={(event) => void changeSort(event.target.value as AlbumSort)} disabled={isBusy}>
              {SORT_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={() => setIsPicking(true)}>
            <svg className="button-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M12 5v14M5 12h14" />
            </svg>
            Add photos
          </button>
        </div>
        <p id={`${hintId}-hint`} className="muted album-editor-hint">
          {isManual
            ? `Drag a photo by its handle to move it. With a keyboard: Tab to a handle and press Space to pick the photo up; ${KEYBOARD_MOVES}; Space again drops it, Escape cancels. Or select one photo and use Move earlier, Move later or Move to.`
            : "The album sorts itself. Choose Manual to arrange the photos in your own order."}
          {!isComplete && " Only the first 2,000 photos are shown here."}
        </p>

        {selectedPhotos.length > 0 && (
          <div className="album-editor-toolbar" role="toolbar" aria-label="Selected photos" data-testid="album-selection-toolbar">
            <span className="album-editor-selected" aria-live="polite">
              {selectedPhotos.length === 1 ? `Selected: ${selectedPhotos[0].name}` : `${selectedPhotos.length} photos selected`}
            </span>
            {isManual && single && (
              <>
                <button type="button" className="secondary button-small" disabled={isBusy || singleIndex <= 0} onClick={() => void movePhoto(single.id, singleIndex - 1)}>
                  Move earlier
                </button>
                <button type="button" className="secondary button-small" disabled={isBusy || singleIndex >= photos.length - 1} onClick={() => void movePhoto(single.id, singleIndex + 1)}>
                  Move later
                </button>
                <form
                  className="album-editor-move-to"
                  onSubmit={(event) => {
                    event.preventDefault();
                    const position = Number(positionInput);
                    if (!Number.isInteger(position) || position < 1 || position > photos.length) {
                      toast.error(`Choose a position from 1 to ${photos.length}.`);
                      return;
                    }
                    void movePhoto(single.id, position - 1).then(() => setPositionInput(""));
                  }}
                >
                  <label htmlFor={`${hintId}-position`} className="visually-hidden">
                    Move to position (1 to {photos.length})
                  </label>
                  <input
                    id={`${hintId}-position`}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={photos.length}
                    placeholder={String(singleIndex + 1)}
                    value={positionInput}
                    onChange={(event) => setPositionInput(event.target.value)}
                  />
                  <button type="submit" className="secondary button-small" disabled={isBusy || positionInput === ""}>
                    Move to
                  </button>
                </form>
              </>
            )}
            {single && (
              <button type="button" className="secondary button-small" disabled={isBusy || coverId === single.id} onClick={() => void setCover(single)}>
                Use as cover
              </button>
            )}
            <button type="button" className="danger button-small" disabled={isBusy} onClick={() => void removeSelected()}>
              Remove from album
            </button>
            <button type="button" className="button-ghost button-small" onClick={() => setSelected([])}>
              Clear selection
            </button>
          </div>
        )}

        {photos.length === 0 ? (
          <div className="empty-state album-editor-empty">
            <p>No photos in this album yet.</p>
            <button type="button" onClick={() => setIsPicking(true)}>
              Add photos from your library
            </button>
          </div>
        ) : (
          <DndContext
            id={dndId}
            sensors={sensors}
            collisionDetection={closestCenter}
            onDragEnd={handleDragEnd}
            accessibility={{ announcements, screenReaderInstructions: { draggable: `To move a photo, press Space to pick it up; ${KEYBOARD_MOVES}; Space again drops it, Escape cancels.` } }}
          >
            <SortableContext items={photos.map((photo) => photo.id)} strategy={rectSortingStrategy} disabled={!isManual || isBusy}>
              <ol className="album-editor-grid" aria-describedby={`${hintId}-hint`} data-testid="album-editor-photos">
                {photos.map((photo, index) => (
                  <EditorTile
                    key={photo.id}
                    photo={photo}
                    position={index + 1}
                    total={photos.length}
                    isManual={isManual}
                    isCover={coverId === photo.id}
                    isSelected={selected.includes(photo.id)}
                    isBusy={isBusy}
                    onToggle={() => toggle(photo.id)}
                    onCover={() => void setCover(coverId === photo.id ? null : photo)}
                  />
                ))}
              </ol>
            </SortableContext>
          </DndContext>
        )}
      </section>

      <section className="album-editor-danger" aria-labelledby={`${hintId}-danger`}>
        <h2 id={`${hintId}-danger`}>Delete this album</h2>
        <p className="muted">The album goes, with its address. Its photos stay in the library{photos.length > 0 ? " and in any other album" : ""}.</p>
        <button type="button" className="danger" onClick={() => setIsDeleting(true)}>
          Delete album
        </button>
      </section>

      {isPicking && (
      <PhotoPicker
        albumId={album.id}
        albumTitle={album.title}
        inAlbum={photos.map((photo) => photo.id)}
        onClose={() => setIsPicking(false)}
        onAdded={() => {
          setIsPicking(false);
          router.refresh();
        }}
      />
      )}

      <ConfirmDialog
        open={isDeleting}
        title={`Delete ${album.title}?`}
        confirmLabel="Delete album"
        tone="danger"
        isBusy={isBusy}
        onConfirm={() => void confirmDelete()}
        onClose={() => setIsDeleting(false)}
      >
        <p className="dialog-text">
          The album and its address go; its {describePhotoCount(photos.length).replace("No photos yet", "photos")} stay in the library. Albums inside it move to the top level.
        </p>
      </ConfirmDialog>
    </div>
  );
}

interface EditorTileProps {
  photo: EditorPhoto;
  position: number;
  total: number;
  isManual: boolean;
  isCover: boolean;
  isSelected: boolean;
  isBusy: boolean;
  onToggle: () => void;
  onCover: () => void;
}

function EditorTile({ photo, position, total, isManual, isCover, isSelected, isBusy, onToggle, onCover }: EditorTileProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: photo.id });
  const style: CSSProperties = { transform: CSS.Transform.toString(transform), transition, backgroundColor: photo.color ?? undefined };
  const checkboxId = useId();
  return (
    <li
      ref={setNodeRef}
      style={style}
      className="album-editor-tile"
      data-selected={isSelected ? "" : undefined}
      data-dragging={isDragging ? "" : undefined}
      data-photo-id={photo.id}
      data-testid="album-editor-photo"
    >
      <label htmlFor={checkboxId} className="album-editor-image">
        {/* eslint-disable-next-line @next/next/no-img-element -- an already small variant; private ones must not go through /_next/image */}
        {photo.thumbnail ? <img src={photo.thumbnail} alt="" loading="lazy" decoding="async" draggable={false} /> : <span className="muted">Processing…</span>}
      </label>
      <input id={checkboxId} type="checkbox" className="album-editor-check" checked={isSelected} onChange={onToggle} aria-label={`Select ${photo.name}, position ${position} of ${total}`} />
      <span className="album-editor-position" aria-hidden="true">
        {position}
      </span>
      <span className="album-editor-badges">
        {isCover && <span className="badge badge-success">Cover</span>}
        {photo.badge && <span className="badge">{photo.badge}</span>}
      </span>
      <button
        type="button"
        className="album-editor-tile-button album-editor-cover"
        aria-pressed={isCover}
        aria-label={isCover ? `${photo.name} is the cover (press to stop using it)` : `Use ${photo.name} as the cover`}
        title={isCover ? "The album's cover" : "Use as cover"}
        disabled={isBusy}
        onClick={onCover}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />
        </svg>
      </button>
      {isManual && (
        <button
          type="button"
          ref={setActivatorNodeRef}
          className="album-editor-tile-button album-editor-handle"
          {...attributes}
          {...listeners}
          aria-label={`Move ${photo.name}, position ${position} of ${total}`}
          title="Drag to move"
          data-testid="album-editor-handle"
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <circle cx="9" cy="6" r="1.4" />
            <circle cx="15" cy="6" r="1.4" />
            <circle cx="9" cy="12" r="1.4" />
            <circle cx="15" cy="12" r="1.4" />
            <circle cx="9" cy="18" r="1.4" />
            <circle cx="15" cy="18" r="1.4" />
          </svg>
        </button>
      )}
    </li>
  );
}
