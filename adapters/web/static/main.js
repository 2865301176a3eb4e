// The web table: says who it is (Telegram's initData, a signed link, or a Discord
// Activity's token: activity.js) in the socket's first message, draws every state the
// bot pushes, sends the presses of its actions and reconnects after a drop, catching up
// from the last version it showed. WEB.md is the contract with the server (adapters/web).

import { currentSession, discordSession, inDiscord, Refusal } from "./activity.js";
import { followView, obvious, share, sharing, startMiniApp } from "./miniapp.js";
import { backButton, haptic, initData, loadTelegramScript, startTheme } from "./theme.js";
import { buttons, draw, drawClock, resultKey } from "./view.js";

// The closes after which the server will not take this page back (WEB.md).
const FINAL_CLOSES = new Set([4401, 4403, 4404, 4429]);
const FINAL_ERRORS = new Set([
  "auth",
  "expired",
  "revoked",
  "not-found",
  "too-many",
  "not-participant",
  "no-game",
  "challenge",
]);
const BACKOFF_FIRST = 500;
const BACKOFF_LAST = 8000;
const PING_EVERY = 25000;
// A drop shorter than this goes unsaid (the page reconnects at once); a longer one is
// told in the banner, with the player's own time left when it is his turn.
const LOST_AFTER = 5000;
// A ping unanswered this long, or the browser going offline, is a lost socket too
// (a connection that died without a close, as when a phone changes networks).
const PONG_WITHIN = 5000;

const $ = (id) => document.getElementById(id);

// --- Words ---------------------------------------------------------------------------

const strings = {
  locale: null,
  table: {},
  loading: Promise.resolve(),
  t(id) {
    return this.table[id] ?? "";
  },
  // The words of `locale`. A load of them on its way is waited for, not repeated: the
  // first state, in the page's own language, is drawn once its words are in.
  load(locale) {
    if (locale !== this.locale) {
      this.locale = locale;
      this.loading = this.request(locale);
    }
    return this.loading;
  },
  async request(locale) {
    try {
      const url = new URL(`api/strings?locale=${encodeURIComponent(locale)}`, document.baseURI);
      const response = await fetch(url, { credentials: "omit" });
      if (response.ok && this.locale === locale) this.table = await response.json();
    } catch {
      // Keep the words we have; the next state asks again only for another locale.
    }
  },
};

// The page's language, decided once by the server for this request (the link's lang,
// else Accept-Language, else the bot's default) and said in every hello: the page's
// words, a refusal and the views are in it (WEB.md). Read before any view sets it.
const PAGE_LOCALE = document.documentElement.lang === "ru" ? "ru" : "en";

// --- Who this page is ----------------------------------------------------------------

function hello(version) {
  const message = { type: "hello", locale: PAGE_LOCALE };
  // A signed link decides where there is one (a DM's web_app button carries both).
  const link = new URLSearchParams(location.search).get("t");
  const data = initData();
  const discord = currentSession();
  if (link) message.link = link;
  else if (data) message.init_data = data;
  else if (discord) message.discord = discord;
  else return null;
  if (version !== null) message.version = version;
  return message;
}

// --- The page's state ----------------------------------------------------------------

const ui = {
  view: null,
  version: null,
  selection: new Set(),
  locked: false,
  resultShown: null,
  pressId: 0,
  pending: null,
  sharing: null, // the id of the share asked of the bot
  received: 0, // performance.now() of the last state: the clock counts from it
  toggle(code) {
    if (this.locked || !this.view) return;
    if (this.selection.has(code)) this.selection.delete(code);
    else this.selection.add(code);
    haptic.select();
    redraw();
  },
  press(action) {
    if (this.locked || !socket.send({ type: "press", id: ++this.pressId, token: action.token })) {
      return;
    }
    this.pending = this.pressId;
    this.locked = true;
    haptic.press();
    redraw();
  },
};

function clock() {
  const turn = ui.view?.turn;
  if (!turn || turn.seconds_left === null || turn.seconds_left === undefined) {
    return { clockText: "", hurry: false };
  }
  const left = Math.max(0, Math.ceil(turn.seconds_left - (performance.now() - ui.received) / 1000));
  const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  return { clockText: text, hurry: left <= 10 };
}

function redraw() {
  if (ui.view) {
    draw(ui.view, ui, strings, clock());
    const action = obvious(buttons(ui.view.actions ?? [], ui.selection));
    followView(ui.view, action, ui.locked, (pressed) => ui.press(pressed));
    drawShare(ui.view);
  }
  backButton(!$("result").classList.contains("hidden"), closeResult);
}

// --- Sharing the result (inside Telegram) ------------------------------------------

/** "Share" for a player of a game over, where the client can share: on the result
 * and, once it is closed, among the actions. */
function drawShare(view) {
  const can = view.phase === "over" && view.you !== null && view.you !== undefined && sharing();
  const words = strings.t("web-share");
  const onResult = $("result-share");
  onResult.textContent = words;
  onResult.classList.toggle("hidden", !can);
  if (!can) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button share";
  button.textContent = words;
  button.addEventListener("click", askShare);
  $("actions").append(button);
  $("actions").classList.remove("empty");
}

function askShare() {
  if (sharing() !== "prepared") {
    share(null, ui.view?.game);
    return;
  }
  ui.sharing = ++ui.pressId;
  if (!socket.send({ type: "share", id: ui.sharing })) share(null, ui.view?.game);
}

function onShared(frame) {
  if (frame.id !== ui.sharing) return;
  ui.sharing = null;
  if (frame.ok) share(frame.prepared, frame.query);
}

function closeResult() {
  if (ui.view) ui.resultShown = resultKey(ui.view);
  redraw();
}

async function onState(frame) {
  if (ui.version !== null && frame.version < ui.version) return;
  const mineBefore = ui.view?.turn?.seat === ui.view?.you;
  ui.view = frame.view;
  ui.version = frame.version;
  ui.received = performance.now();
  // A selection lives on while some action still plays all of its cards.
  const actions = ui.view.actions ?? [];
  const chosen = [...ui.selection];
  if (!actions.some((action) => chosen.every((code) => (action.cards ?? []).includes(code)))) {
    ui.selection.clear();
  }
  if (ui.pending === null) ui.locked = false;
  await strings.load(ui.view.locale || PAGE_LOCALE);
  banner("");
  drawBanner();
  redraw();
  const mine = ui.view.turn && ui.view.you !== null && ui.view.turn.seat === ui.view.you;
  if (mine && !mineBefore) haptic.notify("success");
}

function onAnswer(frame) {
  if (frame.id !== ui.pending) return;
  ui.pending = null;
  ui.locked = false;
  if (frame.ok) ui.selection.clear();
  else haptic.notify("error");
  if (frame.text) toast(frame.text);
  redraw();
}

// --- Messages to the person ----------------------------------------------------------

let toastTimer = null;

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.add("hidden"), 3500);
}

// The line on top: a message id of the page's words (drawn again once they load) or
// the server's text; a final one stays.
const shownBanner = { id: "", text: "", final: false };

function banner(id, { text = "", final = false } = {}) {
  if (shownBanner.final) return;
  Object.assign(shownBanner, { id, text, final });
  drawBanner();
}

function drawBanner() {
  const box = $("banner");
  const words = shownBanner.text || (shownBanner.id ? strings.t(shownBanner.id) : "");
  box.replaceChildren(words);
  const { clockText } = clock();
  const mine = ui.view?.turn && ui.view.you !== null && ui.view.turn.seat === ui.view.you;
  if (shownBanner.id === "web-reconnecting" && mine && clockText) {
    const line = document.createElement("span");
    line.className = "banner-clock";
    line.textContent = `${strings.t("web-your-time")} ${clockText}`;
    box.append(line);
  }
  box.classList.toggle("hidden", !words);
  box.classList.toggle("final", shownBanner.final);
}

// --- The socket ----------------------------------------------------------------------

const socket = {
  ws: null,
  backoff: BACKOFF_FIRST,
  final: false,
  pinger: null,
  lost: null, // the timer that tells of a drop once it lasts LOST_AFTER
  pong: null, // the timer that drops the socket when a ping goes unanswered
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  },
  open() {
    const first = hello(ui.version);
    if (!first) {
      this.stop("", "web-no-link");
      return;
    }
    const url = new URL("ws", document.baseURI);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify(first));
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.ping(ws), PING_EVERY);
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => this.closed(ws, event.code));
  },
  ping(ws) {
    if (!this.send({ type: "ping" })) return;
    clearTimeout(this.pong);
    this.pong = setTimeout(() => this.drop(ws), PONG_WITHIN);
  },
  // Give up a socket that no longer carries anything: the page reconnects as after a
  // close (whose event, when it comes, is then ignored).
  drop(ws) {
    if (!ws || ws !== this.ws) return;
    this.closed(ws, 1006);
    ws.close();
  },
  receive(data) {
    clearTimeout(this.pong);
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (frame.type === "state") {
      this.backoff = BACKOFF_FIRST;
      clearTimeout(this.lost);
      this.lost = null;
      onState(frame);
    } else if (frame.type === "answer") {
      onAnswer(frame);
    } else if (frame.type === "shared") {
      onShared(frame);
    } else if (frame.type === "error") {
      if (FINAL_ERRORS.has(frame.code)) this.stop(frame.text);
      else if (frame.text) toast(frame.text);
    }
  },
  closed(ws, code) {
    if (ws !== this.ws) return;
    clearInterval(this.pinger);
    clearTimeout(this.pong);
    this.ws = null;
    // A press in flight is lost with the socket: the next state shows what happened.
    ui.pending = null;
    ui.locked = true;
    redraw();
    if (this.final) return;
    if (FINAL_CLOSES.has(code)) {
      this.stop("");
      return;
    }
    if (this.lost === null) this.lost = setTimeout(() => banner("web-reconnecting"), LOST_AFTER);
    setTimeout(() => this.open(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, BACKOFF_LAST);
  },
  stop(text, id = "web-closed") {
    this.final = true;
    banner(id, { text, final: true });
    this.ws?.close();
  },
};

// --- Start ---------------------------------------------------------------------------

function start() {
  startTheme();
  startMiniApp();
  loadTelegramScript(() => {
    startTheme();
    startMiniApp();
    redraw();
  });
  $("result-close").addEventListener("click", closeResult);
  $("result-share").addEventListener("click", askShare);
  setInterval(() => {
    if (ui.view?.turn) drawClock(ui.view, strings, clock());
    if (shownBanner.id === "web-reconnecting") drawBanner();
  }, 1000);
  if (!ui.view) banner("web-connecting");
  strings.load(PAGE_LOCALE).then(() => {
    $("result-close").textContent = strings.t("web-close");
    const title = strings.t("web-title");
    if (title && !ui.view) $("title").textContent = document.title = title;
    drawBanner();
  });
  window.addEventListener("offline", () => socket.drop(socket.ws));
  if (!inDiscord()) {
    socket.open();
    return;
  }
  // Inside Discord: who he is, asked of Discord before the socket opens.
  banner("web-discord-signing-in");
  signIn(BACKOFF_FIRST);
}

// Discord's word on who he is; asked again (a new code) while Discord does not answer.
function signIn(backoff) {
  discordSession(PAGE_LOCALE).then(
    () => {
      banner("web-connecting");
      socket.open();
    },
    (error) => {
      const refusal = error instanceof Refusal ? error : new Refusal("");
      if (refusal.code !== "unavailable") {
        socket.stop(refusal.text, refusal.id);
        return;
      }
      banner("", { text: refusal.text });
      setTimeout(() => signIn(Math.min(backoff * 2, BACKOFF_LAST)), backoff);
    },
  );
}

start();
