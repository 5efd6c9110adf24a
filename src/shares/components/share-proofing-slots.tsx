"use client";

import type { ReactNode } from "react";

/**
 * Where proofing (picks and comments) plugs into the visitor's pages; until it does, each slot
 * renders nothing but its children. Each is used in exactly one place:
 * - ShareProofingProvider: around every granted page of the link (app/s/[key]/layout.tsx);
 * - ShareTilePick: over each tile of the gallery grid (share-gallery.tsx, the grid's renderTileExtra);
 * - SharePhotoPick and SharePhotoComment: the photo page's actions and below its words
 *   (app/s/[key]/p/[photoId]/page.tsx);
 * - ShareSelectionBar: the sticky "7 of 20 picked · Send my selection" bar (app/s/[key]/layout.tsx).
 * They get only what the page already knows; the visitor's own state comes from /s/[key]/api/visitor.
 */

export interface ShareProofingSettings {
  shareKey: string;
  allowsPicks: boolean;
  pickLimit: number | null;
  selectionLocked: boolean;
}

export function ShareProofingProvider({ settings, children }: { settings: ShareProofingSettings; children: ReactNode }) {
  void settings;
  return <>{children}</>;
}

export function ShareTilePick({ photoId, name }: { photoId: string; name: string }) {
  void photoId;
  void name;
  return null;
}

export function SharePhotoPick({ photoId, name }: { photoId: string; name: string }) {
  void photoId;
  void name;
  return null;
}

export function SharePhotoComment({ photoId }: { photoId: string }) {
  void photoId;
  return null;
}

export function ShareSelectionBar() {
  return null;
}
