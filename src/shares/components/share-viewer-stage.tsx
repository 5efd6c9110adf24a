"use client";

import { type ReactNode, useMemo } from "react";
import type { z } from "zod";
import { PhotoViewerStage } from "@/src/photos/components/viewer/photo-viewer-stage";
import type { LoadViewerInfo, LoadViewerNeighbours, LoadViewerPosition, ViewerSlide } from "@/src/photos/components/viewer/viewer-slide";
import { readAnswer } from "@/src/ui/api-client";
import type { sharePhotoDetailSchema } from "../share-visitor.schemas";
import { toShareViewerInfo, toShareViewerSlide } from "../share-viewer-slides";
import { sharePhotoDetailAnswer } from "./share-visitor-answers";

type SharePhotoDetail = z.output<typeof sharePhotoDetailSchema>;

/** How many photos either side the viewer is handed when it opens; it asks for more older ones as the reader nears the end. */
const NEIGHBOURS_EACH_SIDE = 3;

/**
 * The viewer's questions answered from the visitor API, under the link's grant (the cookie on
 * /s/[key]): the photo's neighbours in the link's order, one step at a time, its place in that
 * order for the gallery viewer's counter ("3 / 24"), and its info panel from what the link's
 * policy let through, all from the one answer per photo. A refused answer (the link closed
 * meanwhile) throws, so the viewer says it could not open (the counter alone just stays hidden).
 */
function shareViewerLoaders(shareKey: string): { loadNeighbours: LoadViewerNeighbours; loadPosition: LoadViewerPosition; loadInfo: LoadViewerInfo } {
  const details = new Map<string, Promise<SharePhotoDetail>>();
  function detailOf(photoId: string): Promise<SharePhotoDetail> {
    if (!details.has(photoId)) {
      const answer = fetch(`/s/${shareKey}/api/photos/${encodeURIComponent(photoId)}`, { credentials: "same-origin" }).then((response) =>
        readAnswer(response, sharePhotoDetailAnswer),
      );
      // A failure is forgotten, so the next attempt asks again.
      answer.catch(() => details.delete(photoId));
      details.set(photoId, answer);
    }
    return details.get(photoId)!;
  }
  async function walk(fromId: string | null, step: (detail: SharePhotoDetail) => string | null): Promise<ViewerSlide[]> {
    const slides: ViewerSlide[] = [];
    for (let id = fromId; id !== null && slides.length < NEIGHBOURS_EACH_SIDE; ) {
      const detail = await detailOf(id);
      const slide = toShareViewerSlide(detail.photo);
      if (slide) slides.push(slide);
      id = step(detail);
    }
    return slides;
  }
  return {
    async loadNeighbours(photoId) {
      const detail = await detailOf(photoId);
      const [newer, older] = await Promise.all([
        walk(detail.previousId, (next) => next.previousId),
        walk(detail.nextId, (next) => next.nextId),
      ]);
      return { newer, older };
    },
    loadPosition: async (photoId) => (await detailOf(photoId)).position,
    loadInfo: async (photoId) => toShareViewerInfo((await detailOf(photoId)).photo),
  };
}

/**
 * A share link's photo page's image as the gallery's full-screen viewer (src/photos/components/viewer):
 * the same `<video>` slide for a video and LIVE badge for a Live Photo, walking the link's photos
 * and keeping the address under /s/[key]/p/.
 */
export function ShareViewerStage({ shareKey, slide, children }: { shareKey: string; slide: ViewerSlide; children: ReactNode }) {
  const loaders = useMemo(() => shareViewerLoaders(shareKey), [shareKey]);
  return (
    <PhotoViewerStage slide={slide} {...loaders} photoPath={`/s/${shareKey}/p/`}>
      {children}
    </PhotoViewerStage>
  );
}
