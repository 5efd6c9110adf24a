"use client";

import { SessionProvider } from "next-auth/react";
import type { ReactNode } from "react";
import { Toaster } from "react-hot-toast";

/** Client-side context for every page: the session and the toasts (with the library's defaults). */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <SessionProvider>
      {children}
      <Toaster position="bottom-right" />
    </SessionProvider>
  );
}
