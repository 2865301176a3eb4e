// The colours: Telegram's theme where the page runs as a Mini App (the URL fragment's
// tgWebAppThemeParams, or Telegram.WebApp.themeParams), else the browser's
// prefers-color-scheme (table.css). Telegram.WebApp (telegram-web-app.js) is optional:
// where it is present it also gives the back button and haptics.

const COLOURS = {
  bg_color: "--bg",
  secondary_bg_color: "--bg2",
  text_color: "--text",
  hint_color: "--hint",
  link_color: "--link",
  button_color: "--button",
  button_text_color: "--button-text",
  destructive_text_color: "--danger",
};
const HEX = /^#[0-9a-fA-F]{6}$/;

/** The launch parameters of the URL fragment (#tgWebAppData=...&tgWebAppThemeParams=...). */
export function launchParams() {
  return new URLSearchParams(location.hash.slice(1));
}

export function telegram() {
  return window.Telegram?.WebApp ?? null;
}

function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Apply a Telegram theme ({bg_color: "#ffffff", ...}); a theme without a usable
 * background leaves the browser's scheme in charge. */
export function applyTheme(params) {
  const root = document.documentElement;
  if (!params || !HEX.test(params.bg_color ?? "")) return;
  for (const [key, variable] of Object.entries(COLOURS)) {
    const value = params[key];
    if (HEX.test(value ?? "")) root.style.setProperty(variable, value);
  }
  const dark = luminance(params.bg_color) < 0.5;
  root.classList.toggle("theme-dark", dark);
  root.classList.toggle("theme-light", !dark);
}

function fragmentTheme() {
  const raw = launchParams().get("tgWebAppThemeParams");
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** The theme at start, and Telegram's when it changes. */
export function startTheme() {
  applyTheme(fragmentTheme());
  const app = telegram();
  if (!app) return;
  applyTheme(app.themeParams);
  app.onEvent?.("themeChanged", () => applyTheme(app.themeParams));
  app.ready?.();
  app.expand?.();
}

/** Telegram's launch data, from the fragment or from telegram-web-app.js. */
export function initData() {
  return launchParams().get("tgWebAppData") || telegram()?.initData || "";
}

/** Telegram's script, loaded only inside Telegram (the fragment says so); the page
 * works the same when it cannot load. */
export function loadTelegramScript(onLoad) {
  if (!launchParams().has("tgWebAppData") || telegram()) return;
  const script = document.createElement("script");
  script.src = "https://telegram.org/js/telegram-web-app.js";
  script.async = true;
  script.addEventListener("load", onLoad);
  document.head.append(script);
}

export const haptic = {
  select() {
    telegram()?.HapticFeedback?.selectionChanged?.();
  },
  press() {
    telegram()?.HapticFeedback?.impactOccurred?.("light");
  },
  notify(kind) {
    telegram()?.HapticFeedback?.notificationOccurred?.(kind);
  },
};

/** Telegram's back button closes ``onBack``'s panel while ``shown``. */
export function backButton(shown, onBack) {
  const button = telegram()?.BackButton;
  if (!button) return;
  button.offClick?.(backButton.handler ?? (() => {}));
  backButton.handler = onBack;
  if (shown) {
    button.onClick?.(onBack);
    button.show?.();
  } else {
    button.hide?.();
  }
}
