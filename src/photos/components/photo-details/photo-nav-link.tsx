import Link from "next/link";

/** A quiet arrow to the previous or next photo; a greyed one, hidden from screen readers, at either end. */
export function PhotoNavLink({ href, direction }: { href: string | null; direction: "previous" | "next" }) {
  const arrow = <ArrowIcon direction={direction === "previous" ? "left" : "right"} />;
  if (!href) {
    return (
      <span className="photo-nav-link" aria-hidden="true" data-disabled="">
        {arrow}
      </span>
    );
  }
  const label = direction === "previous" ? "Previous photo" : "Next photo";
  return (
    <Link href={href} rel={direction === "previous" ? "prev" : "next"} className="photo-nav-link" aria-label={label} title={`${label} (${direction === "previous" ? "←" : "→"})`}>
      {arrow}
    </Link>
  );
}

function ArrowIcon({ direction }: { direction: "left" | "right" }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={direction === "left" ? "M15 5l-7 7 7 7" : "M9 5l7 7-7 7"} />
    </svg>
  );
}
