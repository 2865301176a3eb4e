// What the page asks of Telegram when it runs as a Mini App (Telegram.WebApp, from
// telegram-web-app.js; absent in a browser, where all of this does nothing):
// - full screen on a phone whose client's version allows it (Bot API 8.0), the safe
//   areas kept clear in CSS (--tg-safe-area-inset-*, --tg-content-safe-area-inset-*);
// - a confirmation before closing while the reader is seated in an open game;
// - no vertical swipe closing the app during his turn (Bot API 7.7);
// - the main button for the one obvious action ("Play 7♣ Q♣"), pressing what the
//   page's own button presses;
// - sharing a finished game's result card: the bot's prepared message
//   (shareMessage, Bot API 8.0), else the bot's inline mode (switchInlineQuery, 6.7).
// Each is asked only when its state changes, and only of a client that has it.

import { telegram } from "./theme.js";

const INSETS = [
  ["safeAreaInset", "--tg-safe-area-inset"],
  ["contentSafeAreaInset", "--tg-content-safe-area-inset"],
];
const SIDES = ["top", "bottom", "left", "right"];
// Full screen is for phones: on a computer it would hide everything else.
const PHONES = new Set(["android", "android_x", "ios"]);

/** Whether the client has Bot API ``version``'s Mini App features. */
function has(app, version) {
  return typeof app.isVersionAtLeast === "function" && app.isVersionAtLeast(version);
}

/** The client's safe areas as CSS variables (Telegram's script sets the same ones;
 * the page sets them too, so that its CSS does not depend on that script's version). */
function applyInsets(app) {
  const root = document.documentElement;
  for (const [field, prefix] of INSETS) {
    const inset = app[field];
    if (!inset) continue;
    for (const side of SIDES) {
      const value = Number(inset[side]);
      if (Number.isFinite(value)) root.style.setProperty(`${prefix}-${side}`, `${value}px`);
    }
  }
}

/** Full screen, and the safe areas followed as they change (rotation, full screen). */
export function startMiniApp() {
  const app = telegram();
  if (!app) return;
  document.documentElement.classList.add("mini-app");
  applyInsets(app);
  for (const event of ["safeAreaChanged", "contentSafeAreaChanged", "fullscreenChanged"]) {
    app.onEvent?.(event, () => applyInsets(app));
  }
  if (has(app, "8.0") && PHONES.has(app.platform) && !app.isFullscreen) app.requestFullscreen?.();
}

// What was last asked (null: nothing yet), so that a call is made only on a change.
const asked = { closing: null, swipes: null, main: null };
let mainHandler = null;

/** The one obvious action among those the page shows now (``shown``: the actions of
 * its buttons): the only one, or nothing. */
export function obvious(shown) {
  return shown.length === 1 ? shown[0] : null;
}

/** Follow the view: closing confirmation, vertical swipes and the main button.
 * ``action``: the one obvious action (or null); ``locked``: a press is on its way;
 * ``onPress(action)``: the page's own press. */
export function followView(view, action, locked, onPress) {
  const app = telegram();
  if (!app) return;
  const seated = view.you !== null && view.you !== undefined;
  const open = view.phase === "lobby" || view.phase === "play";
  const closing = seated && open;
  if (closing !== asked.closing && has(app, "6.2")) {
    asked.closing = closing;
    if (closing) app.enableClosingConfirmation?.();
    else app.disableClosingConfirmation?.();
  }
  const mine = seated && view.phase === "play" && view.turn?.seat === view.you;
  if (mine !== asked.swipes && has(app, "7.7")) {
    asked.swipes = mine;
    if (mine) app.disableVerticalSwipes?.();
    else app.enableVerticalSwipes?.();
  }
  mainButton(app, action, locked, onPress);
}

/** How this client shares a result: "prepared" (shareMessage), "inline"
 * (switchInlineQuery) or null (it cannot: a browser, an old client). */
export function sharing() {
  const app = telegram();
  if (!app) return null;
  if (has(app, "8.0") && typeof app.shareMessage === "function") return "prepared";
  if (has(app, "6.7") && typeof app.switchInlineQuery === "function") return "inline";
  return null;
}

/** Share the result: the bot's ``prepared`` message where the client sends one, else
 * the bot's inline query ``query`` (the game) typed in a chat the player picks. */
export function share(prepared, query) {
  const app = telegram();
  if (!app) return;
  if (prepared && sharing() === "prepared") app.shareMessage(prepared);
  else if (query && typeof app.switchInlineQuery === "function") {
    app.switchInlineQuery(query, ["users", "groups", "channels"]);
  }
}

function mainButton(app, action, locked, onPress) {
  const button = app.MainButton;
  if (!button) return;
  const want = action ? `${action.token}|${action.label}|${locked}` : "";
  if (want === asked.main) return;
  asked.main = want;
  if (mainHandler) button.offClick?.(mainHandler);
  mainHandler = null;
  if (!action) {
    button.hide?.();
    return;
  }
  mainHandler = () => onPress(action);
  button.onClick?.(mainHandler);
  button.setParams?.({ text: action.label, is_visible: true, is_active: !locked });
}
