"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, type KeyboardEvent, type PointerEvent, useId, useRef, useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import { MIN_MANUAL_FACE_SIDE } from "../face-limits";
import { type FaceAnswer, faceAnswer } from "./person-answers";
import { NEW_PERSON, PersonChoice } from "./person-choice";

// The photo's face boxes, for its owner, and drawing a face by hand where detection missed one
// (issue 32). Boxes are fractions (0-1) of the upright photo, as stored, so they are placed with
// percentages over any size of the image. A drag draws a box; a tap (or Enter on the focused
// photo) places a box around that point, for fingers and keyboards. "Someone without a face" adds a
// person with no box (someone turned away): listed with the photo's people, never drawn.

/** A face of the photo, as GET /api/photos/{id}/faces answers it. */
type EditorFace = Pick<FaceAnswer["face"], "id" | "personName" | "box" | "source">;
type Box = NonNullable<FaceAnswer["face"]["box"]>;

interface FaceBoxEditorProps {
  photoId: string;
  imageUrl: string;
  /** Width over height of the upright photo. */
  aspectRatio: number;
  faces: EditorFace[];
  /** The owner's named people, to give the face to. */
  people: Array<{ id: string; name: string }>;
}

/** A tap places a box this share of the photo's shorter side, centred where it landed. */
const TAP_BOX_SIDE = 0.2;

const clamp = (value: number) => Math.min(1, Math.max(0, value));

/** The box a tap at (x, y) places: square on screen, inside the photo. */
function tapBox(x: number, y: number, aspectRatio: number): Box {
  const width = aspectRatio >= 1 ? TAP_BOX_SIDE / aspectRatio : TAP_BOX_SIDE;
  const height = aspectRatio >= 1 ? TAP_BOX_SIDE : TAP_BOX_SIDE * aspectRatio;
  return { left: Math.min(clamp(x - width / 2), 1 - width), top: Math.min(clamp(y - height / 2), 1 - height), width, height };
}

function percent(box: Box) {
  return { left: `${box.left * 100}%`, top: `${box.top * 100}%`, width: `${box.width * 100}%`, height: `${box.height * 100}%` };
}

export function FaceBoxEditor({ photoId, imageUrl, aspectRatio, faces, people }: FaceBoxEditorProps) {
  const router = useRouter();
  const titleId = useId();
  const hintId = useId();
  const frame = useRef<HTMLDivElement>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const [isShown, setIsShown] = useState(false);
  const [isDrawing, setIsDrawing] = useState(false);
  const [draft, setDraft] = useState<Box | null>(null);
  const [isDrafted, setIsDrafted] = useState(false);
  const [isTagging, setIsTagging] = useState(false);
  const [choice, setChoice] = useState(people.length > 0 ? people[0].id : NEW_PERSON);
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function pointAt(event: PointerEvent<HTMLDivElement>): { x: number; y: number } {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: clamp((event.clientX - rect.left) / rect.width), y: clamp((event.clientY - rect.top) / rect.height) };
  }

  function handlePointerDown(event: PointerEvent<HTMLDivElement>) {
    if (!isDrawing || isDrafted) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    start.current = pointAt(event);
    setDraft(null);
  }

  function handlePointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!start.current) return;
    const here = pointAt(event);
    const from = start.current;
    setDraft({ left: Math.min(from.x, here.x), top: Math.min(from.y, here.y), width: Math.abs(here.x - from.x), height: Math.abs(here.y - from.y) });
  }

  function handlePointerUp(event: PointerEvent<HTMLDivElement>) {
    if (!start.current) return;
    const from = start.current;
    start.current = null;
    const here = pointAt(event);
    const dragged = { left: Math.min(from.x, here.x), top: Math.min(from.y, here.y), width: Math.abs(here.x - from.x), height: Math.abs(here.y - from.y) };
    // Too small to be a drawn box: a tap, which places a box around the point.
    const box = dragged.width < MIN_MANUAL_FACE_SIDE * 3 || dragged.height < MIN_MANUAL_FACE_SIDE * 3 ? tapBox(here.x, here.y, aspectRatio) : dragged;
    setDraft(box);
    setIsDrafted(true);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!isDrawing || isDrafted || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    setDraft(tapBox(0.5, 0.5, aspectRatio));
    setIsDrafted(true);
  }

  function startDrawing() {
    setIsShown(true);
    setIsDrawing(true);
    setDraft(null);
    setIsDrafted(false);
    setError(null);
    requestAnimationFrame(() => frame.current?.focus());
  }

  function stopDrawing() {
    setIsTagging(false);
    setIsDrawing(false);
    setDraft(null);
    setIsDrafted(false);
    setError(null);
  }

  async function send(work: () => Promise<unknown>, done: string) {
    setIsBusy(true);
    setError(null);
    try {
      await work();
      toast.success(done);
      stopDrawing();
      router.refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "That did not work. Try again.");
    } finally {
      setIsBusy(false);
    }
  }

  /** Adds the person the form names (a new name or one of the owner's people) to the photo, with this box or none. */
  function addPerson(event: FormEvent<HTMLFormElement>, box: Box | null, done: (label: string) => string) {
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    if (choice === NEW_PERSON && !name) {
      setError("Type the person's name, or choose one of your people.");
      return;
    }
    const body = choice === NEW_PERSON ? { box, name } : { box, personId: choice };
    const label = choice === NEW_PERSON ? name : (people.find((person) => person.id === choice)?.name ?? "them");
    void send(() => callApi(`/api/photos/${photoId}/faces`, { method: "POST", body }, faceAnswer), done(label));
  }

  function handleSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (draft) addPerson(event, draft, (label) => `Face added for ${label}.`);
  }

  function startTagging() {
    stopDrawing();
    setIsTagging(true);
  }

  function handleTag(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    addPerson(event, null, (label) => `${label} added to this photo, without a face.`);
  }

  function removeFace(face: EditorFace) {
    void send(() => callApi(`/api/faces/${face.id}`, { method: "DELETE" }), `Face of ${face.personName ?? "an unnamed person"} removed.`);
  }

  const manualFaces = faces.filter((face) => face.source === "manual");
  const tags = faces.filter((face) => face.source === "tag");
  const boxed = faces.flatMap((face) => (face.box ? [{ ...face, box: face.box }] : []));
  return (
    <section className="face-editor" aria-labelledby={titleId} data-testid="face-editor">
      <div className="face-editor-bar">
        <h2 id={titleId}>Faces</h2>
        <button type="button" className="button secondary" aria-pressed={isShown} onClick={() => setIsShown(!isShown)} data-testid="face-boxes-toggle">
          {isShown ? "Hide boxes" : "Show boxes"}
        </button>
        {!isDrawing && (
          <button type="button" className="button secondary" onClick={startDrawing} data-testid="face-add">
            Add a face
          </button>
        )}
        {!isDrawing && !isTagging && (
          <button type="button" className="button secondary" onClick={startTagging} data-testid="person-tag-add">
            Someone without a face
          </button>
        )}
      </div>
      {isTagging && (
        <form className="face-editor-form" onSubmit={handleTag} aria-label="Add someone without a face" noValidate>
          <p className="face-editor-hint face-editor-form-hint">Someone in the photo whose face does not show (turned away, behind the camera): they are listed with the photo&apos;s people, with no box.</p>
          <PersonChoice label="Person" people={people} value={choice} onChange={setChoice} testIds={{ select: "person-tag-person", name: "person-tag-name" }} />
          <div className="face-editor-actions">
            <button type="submit" disabled={isBusy} aria-busy={isBusy} data-testid="person-tag-save">
              {isBusy ? "Adding…" : "Add to photo"}
            </button>
            <button type="button" className="button secondary" onClick={stopDrawing}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {isTagging && error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {tags.length > 0 && !isTagging && (
        <ul className="face-editor-manual" aria-label="People without a face in this photo" data-testid="person-tags">
          {tags.map((face) => (
            <li key={face.id}>
              <span>{face.personName ?? "Unnamed"}, without a face</span>
              <button type="button" className="button secondary" disabled={isBusy} onClick={() => removeFace(face)} aria-label={`Remove ${face.personName ?? "this person"} from this photo`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {isShown && (
        <>
          {isDrawing && (
            <p id={hintId} className="face-editor-hint">
              {isDrafted ? "Who is this?" : "Drag a box around the face, or tap it. With a keyboard, press Enter to place a box in the middle."}
            </p>
          )}
          <div
            ref={frame}
            className={isDrawing && !isDrafted ? "face-frame is-drawing" : "face-frame"}
            style={{ aspectRatio: String(aspectRatio) }}
            tabIndex={isDrawing && !isDrafted ? 0 : undefined}
            role={isDrawing && !isDrafted ? "application" : undefined}
            aria-label={isDrawing && !isDrafted ? "The photo: draw a face box" : undefined}
            aria-describedby={isDrawing ? hintId : undefined}
            onPointerDown={handlePointerDown}
            onPointerMove={handlePointerMove}
            onPointerUp={handlePointerUp}
            onKeyDown={handleKeyDown}
            data-testid="face-frame"
          >
            {/* eslint-disable-next-line @next/next/no-img-element -- a variant already sized; the boxes are placed over it in percentages */}
            <img src={imageUrl} alt="" draggable={false} />
            {boxed.map((face) => (
              <span key={face.id} className={face.source === "manual" ? "face-box is-manual" : "face-box"} style={percent(face.box)} data-testid="face-box">
                <span className="face-box-name">{face.personName ?? "Unnamed"}</span>
              </span>
            ))}
            {draft && <span className="face-box is-draft" style={percent(draft)} data-testid="face-draft" aria-hidden="true" />}
          </div>
          {isDrafted && draft && (
            <form className="face-editor-form" onSubmit={handleSave} aria-label="Name the face" noValidate>
              <PersonChoice label="Person" people={people} value={choice} onChange={setChoice} testIds={{ select: "face-person", name: "face-name" }} />
              <div className="face-editor-actions">
                <button type="submit" disabled={isBusy} aria-busy={isBusy} data-testid="face-save">
                  {isBusy ? "Saving…" : "Save face"}
                </button>
                <button type="button" className="button secondary" onClick={() => {
                    setIsDrafted(false);
                    setDraft(null);
                  }}
                >
                  Draw again
                </button>
                <button type="button" className="button secondary" onClick={stopDrawing}>
                  Cancel
                </button>
              </div>
            </form>
          )}
          {isDrawing && !isDrafted && (
            <button type="button" className="button secondary face-editor-cancel" onClick={stopDrawing}>
              Cancel
            </button>
          )}
          {error && !isTagging && (
            <p className="notice error" role="alert">
              {error}
            </p>
          )}
          {manualFaces.length > 0 && !isDrawing && (
            <ul className="face-editor-manual" aria-label="Faces you drew">
              {manualFaces.map((face) => (
                <li key={face.id}>
                  <span>{face.personName ?? "Unnamed"}</span>
                  <button type="button" className="button secondary" disabled={isBusy} onClick={() => removeFace(face)}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
