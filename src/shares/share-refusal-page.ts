import { THEME_SCRIPT } from "@/src/ui/theme/theme-choice";
import { sharePath } from "./share-key";
import { describePasswordProblem, SHARE_REFUSAL_WORDS, type SharePageRefusal } from "./share-refusal-words";

/**
 * The whole HTML document of a share link's 401 page, answered by the interceptor (proxy.ts) for a
 * browser's first request to a refused page, so the status is 401 and the page is there without
 * JavaScript: Next.js renders a page's unauthorized() fallback only in the browser. Self-contained
 * (the app's stylesheet has a hashed name): the site's colour tokens for both themes, the reader's
 * theme choice honoured, and the password and "View photos" forms as plain form posts.
 */

export interface ShareRefusalPage {
  key: string;
  siteTitle: string;
  shareTitle: string | null;
  reason: SharePageRefusal;
  /** The page asked for, where a right password returns to. */
  next: string;
  /** "wrong" or "limited", from the form post's way back. */
  problem: string | null;
  retryAfterSeconds: number | null;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

// The site's tokens (app/styles/tokens.css), in both themes, for the few rules this page needs.
const STYLE = `
:root{color-scheme:light dark;--bg:light-dark(#fbfbfa,#0e0e0f);--surface:light-dark(#fff,#18181a);--sunken:light-dark(#f2f2f0,#111112);--ink:light-dark(#1a1a1a,#ececea);--muted:light-dark(#5c5c5c,#a3a3a0);--line:light-dark(#e3e3e0,#2c2c2e);--line-strong:light-dark(#c4c4c0,#48484b);--accent:light-dark(#1f5fd1,#7fa8ff);--accent-hover:light-dark(#174ca9,#a5c2ff);--on-accent:light-dark(#fff,#0b1530);--danger:light-dark(#b42318,#ff8a80);--danger-soft:light-dark(#fdecea,#3a1714);--focus:light-dark(#1f5fd1,#a5c2ff)}
:root[data-theme=light]{color-scheme:light}:root[data-theme=dark]{color-scheme:dark}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--ink);font:16px/1.55 ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased}
header{display:flex;align-items:center;min-height:3.5rem;padding:.5rem clamp(.5rem,2.2vw,2rem);border-bottom:1px solid var(--line)}
.site-title{font-weight:650;letter-spacing:.01em;font-size:1.125rem}
main{padding:0 clamp(.5rem,2.2vw,2rem)}
.card{width:100%;max-width:26rem;margin:clamp(1.5rem,10vh,4rem) auto;padding:2rem;display:grid;gap:.5rem;justify-items:center;text-align:center;background:var(--surface);border:1px solid var(--line);border-radius:14px}
.icon{display:grid;place-items:center;width:3rem;height:3rem;margin-bottom:.5rem;border-radius:999px;background:var(--sunken);color:var(--muted)}
.icon svg{width:1.5rem;height:1.5rem;fill:none;stroke:currentColor;stroke-width:1.7;stroke-linecap:round;stroke-linejoin:round}
.share{margin:0;font-size:.75rem;font-weight:500;letter-spacing:.06em;text-transform:uppercase;color:var(--muted);overflow-wrap:anywhere}
h1{margin:0;font-size:1.375rem;line-height:1.25;letter-spacing:-.01em;text-wrap:balance}
p{margin:0}.body,.site{color:var(--muted)}.site{margin-top:.75rem;font-size:.875rem}
form{display:grid;gap:1rem;width:100%;margin-top:.75rem;text-align:left}
label{display:grid;gap:.25rem;font-size:.875rem;font-weight:500}
input{width:100%;min-height:2.75rem;padding:0 .75rem;font:inherit;color:var(--ink);background:var(--surface);border:1px solid var(--line-strong);border-radius:8px}
input:focus-visible,button:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
button{min-height:2.75rem;padding:0 1rem;font:inherit;font-weight:500;color:var(--on-accent);background:var(--accent);border:1px solid var(--accent);border-radius:8px;cursor:pointer}
button:hover{background:var(--accent-hover);border-color:var(--accent-hover)}
.notice{padding:.75rem 1rem;border-radius:8px;border:1px solid var(--danger);background:var(--danger-soft);color:var(--danger)}
@media (max-width:40rem){.card{padding:1.5rem}}
`;

const LOCK_ICON = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="5" y="10.5" width="14" height="10" rx="2"/><path d="M8.5 10.5V7.5a3.5 3.5 0 0 1 7 0v3"/></svg>';
const LINK_OFF_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1"/><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"/><path d="M4 4l16 16"/></svg>';

const PHOTO_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="3.5" y="5" width="17" height="14" rx="2"/><circle cx="9" cy="10" r="1.6"/><path d="M20.5 16l-5-5-8 8"/></svg>';

/**
 * Sends the "View photos" form as soon as a person's browser shows the page, so a visitor with
 * JavaScript never sees it for more than a moment. Not while the page is only being prerendered:
 * nobody is looking yet. A bot that fetches the page without running it counts nothing.
 */
const ENTER_SCRIPT =
  '(function(){var form=document.getElementById("share-enter");if(!form)return;function go(){form.submit()}' +
  'if(document.prerendering)document.addEventListener("prerenderingchange",go,{once:true});else go()})()';

function passwordForm(page: ShareRefusalPage): string {
  const problem = describePasswordProblem(page.problem, page.retryAfterSeconds);
  return (
    `<form method="post" action="${escapeHtml(`${sharePath(page.key)}/api/password`)}" aria-label="Enter the link's password">` +
    (problem ? `<p class="notice" role="alert" data-testid="share-password-problem">${escapeHtml(problem)}</p>` : "") +
    `<input type="hidden" name="next" value="${escapeHtml(page.next)}">` +
    `<label>Password<input name="password" type="password" autocomplete="current-password" required maxlength="256" autofocus data-testid="share-password"></label>` +
    `<button type="submit">View photos</button></form>`
  );
}

/** The "View photos" form of a link the browser may come in to: a person's POST is what counts a view (SECURITY.md 59). */
function enterForm(page: ShareRefusalPage): string {
  const action = `${sharePath(page.key)}/api/enter?next=${encodeURIComponent(page.next)}`;
  return (
    `<form id="share-enter" method="post" action="${escapeHtml(action)}" aria-label="Open the shared photos">` +
    `<button type="submit" data-testid="share-enter">View photos</button></form><script>${ENTER_SCRIPT}</script>`
  );
}

export function renderShareRefusalPage(page: ShareRefusalPage): string {
  const words = SHARE_REFUSAL_WORDS[page.reason];
  const shareTitle = page.reason === "unknown" ? null : page.shareTitle;
  const form = page.reason === "password_required" ? passwordForm(page) : page.reason === "enter" ? enterForm(page) : "";
  const icon = page.reason === "password_required" ? LOCK_ICON : page.reason === "enter" ? PHOTO_ICON : LINK_OFF_ICON;
  const title = `${shareTitle ?? "Shared photos"} · ${page.siteTitle}`;
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="same-origin"><title>${escapeHtml(title)}</title>` +
    `<script>${THEME_SCRIPT}</script><style>${STYLE}</style></head><body>` +
    `<header><span class="site-title">${escapeHtml(page.siteTitle)}</span></header>` +
    `<main id="main"><section class="card" aria-labelledby="share-refusal-title" data-testid="share-refusal" data-reason="${page.reason}">` +
    `<div class="icon">${icon}</div>` +
    (shareTitle ? `<p class="share">${escapeHtml(shareTitle)}</p>` : "") +
    `<h1 id="share-refusal-title">${escapeHtml(words.heading)}</h1><p class="body">${escapeHtml(words.body)}</p>` +
    form +
    `<p class="site">Shared from ${escapeHtml(page.siteTitle)}</p></section></main></body></html>`
  );
}
