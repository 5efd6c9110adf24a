import type { ShareState } from "../share.types";
import { STATE_LABELS } from "./share-client";

const TONES: Record<ShareState, string> = { active: "badge-success", expired: "badge-warning", used_up: "badge-warning", revoked: "badge-danger" };

/** A link's state in one word: active, expired, used up or revoked. */
export function ShareStateBadge({ state }: { state: ShareState }) {
  return <span className={`badge ${TONES[state]}`}>{STATE_LABELS[state]}</span>;
}
