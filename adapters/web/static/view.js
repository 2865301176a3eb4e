// Draws a view (the "state" frame's "view", see WEB.md) into the page. Nothing of the
// rules is here: the seats, trick, trump, stock, scores, status, hand and actions are
// drawn as the server sends them; the page only keeps the selection of hand cards.

import { back, card, cardLabel, suitIcon } from "./cards.js";

const PLACES = ["bottom", "left", "top", "right"];
const MAX_BACKS = 8;

function $(id) {
  return document.getElementById(id);
}

function el(tag, className = "", text = "") {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text) element.textContent = text;
  return element;
}

/** Where seat ``seat`` sits on this viewer's screen: the viewer at the bottom, the next
 * seat on his left, his partner across (a spectator sees seat 0 at the bottom). */
export function place(seat, you) {
  return PLACES[(seat - (you ?? 0) + 4) % 4];
}

/** The actions a selection of cards enables: an action with cards needs exactly those
 * cards selected (as a set); an action without cards is always enabled. */
export function enabled(action, selection) {
  const cards = action.cards ?? [];
  if (cards.length === 0) return true;
  return cards.length === selection.size && cards.every((code) => selection.has(code));
}

/** The buttons to show: every action without cards, and the actions whose cards are
 * exactly the selection (the others wait until their cards are chosen). */
export function buttons(actions, selection) {
  return actions.filter((action) => enabled(action, selection));
}

/** Whether some action needs cards (the page then asks to choose them). */
export function needsCards(actions) {
  return actions.some((action) => (action.cards ?? []).length > 0);
}

/** The cards some action plays (a selection keeps only these). */
export function tappable(actions) {
  return new Set(actions.flatMap((action) => action.cards ?? []));
}

/** The cards a tap may change now: the selected ones, and those that with the
 * selection still make part of some action's cards. */
export function choosable(actions, selection) {
  const can = new Set(selection);
  for (const action of actions) {
    const cards = action.cards ?? [];
    if ([...selection].every((code) => cards.includes(code))) {
      for (const code of cards) can.add(code);
    }
  }
  return can;
}

function seatBox(seat, view, strings, now) {
  const box = el("div", "plate");
  box.classList.toggle("turn", Boolean(seat.turn));
  box.classList.toggle("away", Boolean(seat.away));
  box.classList.add(`team-${seat.team === "B" ? "b" : "a"}`);
  box.dataset.seat = String(seat.seat);
  const name = el("div", "name");
  name.append(el("span", "team-dot", seat.team ?? ""), el("span", "who", seat.name ?? ""));
  if (seat.computer) name.append(el("span", "tag", strings.t("web-computer")));
  if (view.you === seat.seat) name.append(el("span", "tag you", strings.t("web-you-tag")));
  box.append(name);
  const marks = el("div", "marks");
  for (const mark of seat.marks_text ?? []) marks.append(el("span", "mark", mark));
  if (seat.away) marks.append(el("span", "mark away", strings.t("web-away")));
  if (seat.taken) marks.append(el("span", "taken", seat.taken));
  if (marks.childElementCount) box.append(marks);
  if (seat.turn && view.turn && view.turn.seat === seat.seat && now.clockText) {
    box.append(el("div", "seat-clock", now.clockText));
  }
  return box;
}

function backs(count, className) {
  const fan = el("div", className);
  fan.dataset.count = String(count);
  for (let i = 0; i < Math.min(count, MAX_BACKS); i += 1) fan.append(back());
  if (count > 0) fan.append(el("span", "count", String(count)));
  return fan;
}

function drawSeats(view, strings, now) {
  for (const where of PLACES) $(`seat-${where}`).replaceChildren();
  for (const seat of view.seats ?? []) {
    const where = place(seat.seat, view.you);
    const slot = $(`seat-${where}`);
    slot.append(seatBox(seat, view, strings, now));
    if (where !== "bottom" || view.you === null || view.you === undefined) {
      slot.append(backs(seat.cards ?? 0, "backs"));
    }
  }
}

function drawTrick(view) {
  for (const where of PLACES) $(`play-${where}`).replaceChildren();
  for (const play of view.trick ?? []) {
    const spot = $(`play-${place(play.seat, view.you)}`);
    const fan = el("div", "fan");
    for (const code of play.cards ?? []) fan.append(card(code, view.locale));
    spot.append(fan);
  }
}

function drawDeck(view, strings) {
  const deck = $("deck");
  deck.replaceChildren();
  const trump = view.trump;
  if (trump) {
    const box = el("div", "trump");
    if (trump.card) box.append(card(trump.card, view.locale));
    else if (trump.suit) box.append(suitIcon(trump.suit));
    deck.append(box);
    const words = view.trump_text || (trump.suit ? "" : strings.t("web-no-trump"));
    if (words) deck.append(el("div", "trump-line", words));
  }
  if (view.stock !== null && view.stock !== undefined) {
    const stock = el("div", "stock");
    if (view.stock > 0) stock.append(back());
    stock.append(el("span", "count", `${strings.t("web-stock")} ${view.stock}`));
    deck.append(stock);
  }
}

function drawScores(view) {
  const scores = $("scores");
  scores.replaceChildren();
  for (const line of view.score ?? []) {
    const item = el("span", "score");
    item.append(el("span", "label", line.label), el("b", "value", line.value));
    scores.append(item);
  }
}

function drawHand(view, ui) {
  const hand = $("hand");
  hand.replaceChildren();
  hand.classList.toggle("empty", !view.hand || view.hand.length === 0);
  const can = choosable(view.actions ?? [], ui.selection);
  hand.dataset.count = String(view.hand?.length ?? 0);
  for (const code of view.hand ?? []) {
    const item = el("button", "hand-card");
    item.type = "button";
    item.dataset.card = code;
    item.setAttribute("aria-label", cardLabel(code, view.locale));
    item.append(card(code, view.locale));
    const live = can.has(code) && !ui.locked;
    item.disabled = !live;
    item.classList.toggle("live", can.has(code));
    item.classList.toggle("selected", ui.selection.has(code));
    item.setAttribute("aria-pressed", ui.selection.has(code) ? "true" : "false");
    item.addEventListener("click", () => ui.toggle(code));
    hand.append(item);
  }
}

function drawActions(view, ui, strings) {
  const box = $("actions");
  box.replaceChildren();
  const actions = view.actions ?? [];
  const shown = buttons(actions, ui.selection);
  for (const action of shown) {
    const button = el("button", action.cards?.length ? "button play" : "button", action.label);
    button.type = "button";
    button.disabled = ui.locked;
    button.dataset.token = action.token;
    button.addEventListener("click", () => ui.press(action));
    box.append(button);
  }
  const waiting = needsCards(actions) && !shown.some((action) => action.cards?.length);
  if (waiting) box.append(el("span", "hint", strings.t("web-select-hint")));
  box.classList.toggle("empty", shown.length === 0 && !waiting);
}

function drawLog(view, strings) {
  const list = $("log");
  list.replaceChildren();
  const lines = view.log ?? [];
  for (const line of lines) list.append(el("li", "", line));
  $("log-summary").textContent = lines.length ? lines[lines.length - 1] : strings.t("web-log");
  $("log-box").classList.toggle("hidden", lines.length === 0);
}

/** A result is shown until its reader closes it; a new result opens again. */
export function resultKey(view) {
  return view.result ? JSON.stringify(view.result) : null;
}

function drawResult(view, ui, strings) {
  const result = view.result;
  const overlay = $("result");
  const open = Boolean(result) && ui.resultShown !== resultKey(view);
  overlay.classList.toggle("hidden", !open);
  if (!result) return;
  $("result-title").textContent = result.title ?? "";
  const lines = $("result-lines");
  lines.replaceChildren(...(result.lines ?? []).map((line) => el("li", "", line)));
  $("result-close").textContent = strings.t("web-close");
}

/** The status line: the view's, or the phase's word where the view says nothing. */
function drawStatus(view, strings, now) {
  const words = { lobby: "web-lobby", over: "web-over", cancelled: "web-cancelled" };
  const text = view.status || (words[view.phase] ? strings.t(words[view.phase]) : "");
  $("status").textContent = text;
  const clock = $("clock");
  clock.textContent = now.clockText;
  clock.classList.toggle("hidden", !now.clockText);
  clock.classList.toggle("hurry", now.hurry);
  $("status-line").classList.toggle("mine", Boolean(view.turn && view.turn.seat === view.you));
  const notes = $("notes");
  notes.replaceChildren(...(view.notes ?? []).map((line) => el("li", "", line)));
  notes.classList.toggle("hidden", notes.childElementCount === 0);
}

/** Draw the whole view. ``ui``: {selection, locked, resultShown, toggle, press};
 * ``now``: {clockText, hurry}. */
export function draw(view, ui, strings, now) {
  document.documentElement.lang = view.locale || "en";
  document.title = view.title || document.title;
  $("title").textContent = view.title ?? "";
  const viewer = $("viewer");
  const spectator = view.you === null || view.you === undefined;
  viewer.textContent = spectator ? strings.t("web-spectator") : "";
  viewer.classList.toggle("hidden", !spectator);
  $("app").classList.toggle("spectator", spectator);
  $("app").dataset.phase = view.phase ?? "";
  $("app").dataset.version = String(view.version ?? "");
  drawScores(view);
  drawSeats(view, strings, now);
  drawTrick(view);
  drawDeck(view, strings);
  drawStatus(view, strings, now);
  drawHand(view, ui);
  drawActions(view, ui, strings);
  drawLog(view, strings);
  drawResult(view, ui, strings);
}

/** Only the clock (every second between states). */
export function drawClock(view, strings, now) {
  drawStatus(view, strings, now);
  for (const node of document.querySelectorAll(".seat-clock")) node.textContent = now.clockText;
}
