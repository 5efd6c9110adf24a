// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorBoundaryView } from "./error-boundary-view";

vi.mock("next/link", () => ({
  default: ({ href, children }: { href: string; children: React.ReactNode }) => <a href={href}>{children}</a>,
}));

afterEach(cleanup);

describe("ErrorBoundaryView", () => {
  it("names an exception in the browser as the seed does, without a status", () => {
    render(<ErrorBoundaryView error={new Error("boom")} />);
    expect(screen.getByRole("heading").textContent).toBe("Application error: a client-side exception has occurred");
    expect(document.title).toBe("Application error: a client-side exception has occurred");
  });

  it("shows a server error (it carries a digest) as 500 Internal Server Error, without its detail", () => {
    render(<ErrorBoundaryView error={Object.assign(new Error("secret detail"), { digest: "123" })} />);
    expect(screen.getByRole("heading").textContent).toBe("500Internal Server Error");
    expect(document.title).toBe("500: Internal Server Error");
    expect(document.body.textContent).not.toContain("secret detail");
  });
});
