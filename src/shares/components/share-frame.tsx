"use client";

import { createContext, type ReactNode, useContext } from "react";
import type { ShareRefusal } from "../share.types";

/**
 * What the link's layout knows about this request's access, for what renders below it without
 * props: the branded 401 page (app/s/[key]/unauthorized.tsx, which Next.js gives no params) and
 * the 404 page. Nothing secret: the visitor has the key; a refused link shows its title only when
 * the key named a real link.
 */
export interface ShareFrame {
  key: string;
  siteTitle: string;
  /** The link's title, once the key named a real link. */
  shareTitle: string | null;
  access: "granted" | "admissible" | "refused";
  reason: ShareRefusal | null;
}

const ShareFrameContext = createContext<ShareFrame | null>(null);

export function ShareFrameProvider({ frame, children }: { frame: ShareFrame; children: ReactNode }) {
  return <ShareFrameContext.Provider value={frame}>{children}</ShareFrameContext.Provider>;
}

export function useShareFrame(): ShareFrame | null {
  return useContext(ShareFrameContext);
}
