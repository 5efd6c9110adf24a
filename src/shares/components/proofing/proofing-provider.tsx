"use client";

import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import toast from "react-hot-toast";
import { type AnswerReader, ApiRequestError, callApi } from "@/src/ui/api-client";
import type { VisitorFeedback, VisitorResponse } from "../../proofing-api.schemas";
import { feedbackAnswer, visitorAnswer } from "../share-visitor-answers";
import { VisitorNameDialog } from "./visitor-name-dialog";

/**
 * Proofing on a share's pages, for the visitor. Put one <ProofingProvider shareKey={key}> around a
 * share page (gallery or photo page); inside it, <PickToggle>, <CommentBox> and <SelectionBar> read
 * and change the visitor's state through useProofing(). The provider fetches GET
 * /s/[key]/api/visitor once; on a link that does not invite picks (404) every proofing component
 * renders nothing. The first pick or comment asks for the visitor's name (VisitorNameDialog).
 * Changes show at once and are rolled back, with a toast, when the server refuses them.
 */

export type ProofingStatus = "loading" | "off" | "ready";

export interface ProofingContextValue {
  status: ProofingStatus;
  /** The visitor's name, or null before they give one. */
  visitorName: string | null;
  pickCount: number;
  pickLimit: number | null;
  locked: boolean;
  sentAt: string | null;
  ownerName: string;
  /** Whether anything changed since the selection was last sent (or nothing was sent yet). */
  hasUnsentChanges: boolean;
  feedbackFor(photoId: string): { picked: boolean; comment: string | null };
  togglePick(photoId: string): Promise<void>;
  /** Saves (or, with "" or null, removes) the visitor's comment; true when it was stored. */
  saveComment(photoId: string, comment: string | null): Promise<boolean>;
  sendSelection(): Promise<void>;
}

const ProofingContext = createContext<ProofingContextValue | null>(null);

/** The proofing state of the page; null outside a ProofingProvider. */
export function useProofing(): ProofingContextValue | null {
  return useContext(ProofingContext);
}

interface State {
  status: ProofingStatus;
  visitorName: string | null;
  feedback: Map<string, VisitorFeedback>;
  pickLimit: number | null;
  locked: boolean;
  sentAt: string | null;
  ownerName: string;
  changedSinceSent: boolean;
}

const INITIAL: State = { status: "loading", visitorName: null, feedback: new Map(), pickLimit: null, locked: false, sentAt: null, ownerName: "", changedSinceSent: false };

function fromResponse(answer: VisitorResponse, changedSinceSent: boolean): State {
  return {
    status: "ready",
    visitorName: answer.visitor?.name ?? null,
    feedback: new Map((answer.visitor?.feedback ?? []).map((each) => [each.photoId, each])),
    pickLimit: answer.pickLimit,
    locked: answer.locked,
    sentAt: answer.visitor?.sentAt ?? null,
    ownerName: answer.ownerName,
    changedSinceSent,
  };
}

function request<Answer>(url: string, method: string, answer: AnswerReader<Answer>, body?: unknown): Promise<Answer> {
  return callApi(url, { method, body }, answer);
}

export function ProofingProvider({ shareKey, children }: { shareKey: string; children: ReactNode }) {
  const api = `/s/${encodeURIComponent(shareKey)}/api`;
  const [state, setState] = useState<State>(INITIAL);
  // The latest state for the callbacks (kept in step after each render, read only in handlers).
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);
  const [isAskingName, setIsAskingName] = useState(false);
  const nameAnswer = useRef<((named: boolean) => void) | null>(null);

  useEffect(() => {
    let isCurrent = true;
    request(`${api}/visitor`, "GET", visitorAnswer)
      .then((answer) => {
        if (isCurrent) setState(fromResponse(answer, false));
      })
      .catch(() => {
        // No picks on this link (404) or no access: proofing stays out of the way.
        if (isCurrent) setState({ ...INITIAL, status: "off" });
      });
    return () => {
      isCurrent = false;
    };
  }, [api]);

  /** Resolves true once the visitor has a name (asking for it if needed), false if they cancel. */
  const ensureVisitor = useCallback((): Promise<boolean> => {
    if (stateRef.current.visitorName !== null) return Promise.resolve(true);
    setIsAskingName(true);
    return new Promise((resolve) => {
      nameAnswer.current = resolve;
    });
  }, []);

  const finishNaming = useCallback((answer: VisitorResponse | null) => {
    setIsAskingName(false);
    if (answer) setState(fromResponse(answer, false));
    nameAnswer.current?.(answer !== null);
    nameAnswer.current = null;
  }, []);

  const putFeedback = useCallback(
    async (photoId: string, change: { picked?: boolean; comment?: string | null }): Promise<boolean> => {
      if (stateRef.current.locked) return false;
      if (!(await ensureVisitor())) return false;
      const previous = stateRef.current.feedback.get(photoId);
      const optimistic: VisitorFeedback = {
        photoId,
        picked: change.picked ?? previous?.picked ?? false,
        comment: change.comment === undefined ? (previous?.comment ?? null) : change.comment?.trim() || null,
      };
      const setFeedback = (value: VisitorFeedback | undefined) =>
        setState((current) => {
          const feedback = new Map(current.feedback);
          if (value && (value.picked || value.comment !== null)) feedback.set(photoId, value);
          else feedback.delete(photoId);
          return { ...current, feedback, changedSinceSent: true };
        });
      setFeedback(optimistic);
      try {
        const answer = await request(`${api}/feedback/${encodeURIComponent(photoId)}`, "PUT", feedbackAnswer, change);
        setFeedback(answer.feedback);
        return true;
      } catch (error) {
        setFeedback(previous);
        toast.error(error instanceof Error ? error.message : "That did not save.");
        // The owner locked meanwhile: show the selection read-only from now on.
        if (error instanceof ApiRequestError && error.status === 409 && /locked/i.test(error.message)) setState((current) => ({ ...current, locked: true }));
        return false;
      }
    },
    [api, ensureVisitor],
  );

  const sendSelection = useCallback(async () => {
    try {
      const answer = await request(`${api}/selection`, "POST", visitorAnswer);
      setState(fromResponse(answer, false));
      toast.success("Your selection was sent.");
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Your selection could not be sent.");
      if (error instanceof ApiRequestError && error.status === 409 && /locked/i.test(error.message)) setState((current) => ({ ...current, locked: true }));
    }
  }, [api]);

  const value = useMemo<ProofingContextValue>(() => {
    const pickCount = [...state.feedback.values()].filter((each) => each.picked).length;
    return {
      status: state.status,
      visitorName: state.visitorName,
      pickCount,
      pickLimit: state.pickLimit,
      locked: state.locked,
      sentAt: state.sentAt,
      ownerName: state.ownerName,
      hasUnsentChanges: state.sentAt === null || state.changedSinceSent,
      feedbackFor: (photoId) => {
        const feedback = state.feedback.get(photoId);
        return { picked: feedback?.picked ?? false, comment: feedback?.comment ?? null };
      },
      togglePick: async (photoId) => {
        await putFeedback(photoId, { picked: !(stateRef.current.feedback.get(photoId)?.picked ?? false) });
      },
      saveComment: (photoId, comment) => putFeedback(photoId, { comment: comment?.trim() ? comment : null }),
      sendSelection,
    };
  }, [state, putFeedback, sendSelection]);

  return (
    <ProofingContext.Provider value={value}>
      {children}
      {state.status === "ready" && <VisitorNameDialog open={isAskingName} api={api} onDone={finishNaming} />}
    </ProofingContext.Provider>
  );
}
