// Playing cards drawn as SVG: faces for the codes of core.cards.Card.code ("TS" = 10♠,
// "QC"), backs for face-down cards (null). The suit shapes and the back live once in
// the page's sprite (index.html); each card is a small <svg> that refers to them.

const SVG = "http://www.w3.org/2000/svg";

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
// The court cards' and the ace's letters where a language has its own (as the bot's
// card labels: bot/presenters/common.py).
const LETTERS = { ru: { J: "В", Q: "Д", K: "К", A: "Т" } };
const COURT = new Set(["J", "Q", "K"]);

export function suitSymbol(suit) {
  return SUITS[suit] ?? "";
}

function rankText(rank, locale) {
  if (rank === "T") return "10";
  return LETTERS[locale]?.[rank] ?? rank;
}

/** A card as people read it: "10♥", "Q♣" (in Russian "Д♣"). */
export function cardLabel(code, locale) {
  return rankText(code[0], locale) + suitSymbol(code[1]);
}

function node(name, attributes = {}, children = []) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  for (const child of children) element.append(child);
  return element;
}

function text(x, y, content, className, anchor = "middle") {
  const element = node("text", { x, y, class: className, "text-anchor": anchor });
  element.textContent = content;
  return element;
}

function suitShape(suit, x, y, size, className = "") {
  return node("use", {
    href: `#suit-${suit}`,
    x: x - size / 2,
    y: y - size / 2,
    width: size,
    height: size,
    class: className,
  });
}

function corner(rank, suit, locale) {
  const label = rankText(rank, locale);
  return node("g", { class: "corner" }, [
    text(label.length > 1 ? 15 : 14, 31, label, label.length > 1 ? "index narrow" : "index"),
    suitShape(suit, 14, 47, 18),
  ]);
}

function centre(rank, suit, locale) {
  if (COURT.has(rank)) {
    return node("g", { class: "court" }, [
      node("rect", { x: 26, y: 22, width: 48, height: 96, rx: 6, class: "frame" }),
      text(50, 78, rankText(rank, locale), "court-letter"),
      suitShape(suit, 50, 98, 18),
    ]);
  }
  const size = rank === "A" ? 58 : 44;
  return suitShape(suit, 50, 70, size, "pip");
}

/** A face-up card: an <svg> whose data-card is its code. */
export function face(code, locale) {
  const [rank, suit] = code;
  const red = suit === "D" || suit === "H";
  const svg = node(
    "svg",
    {
      viewBox: "0 0 100 140",
      class: `card face ${red ? "red" : "black"} ${SUIT_NAMES[suit]}`,
      role: "img",
      "aria-label": cardLabel(code, locale),
      "data-card": code,
    },
    [
      node("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, class: "paper" }),
      corner(rank, suit, locale),
      node("g", { transform: "rotate(180 50 70)" }, [corner(rank, suit, locale)]),
      centre(rank, suit, locale),
    ],
  );
  return svg;
}

/** A face-down card. */
export function back() {
  return node("svg", { viewBox: "0 0 100 140", class: "card back", "aria-hidden": "true" }, [
    node("use", { href: "#card-back", width: 100, height: 140 }),
  ]);
}

/** A card code, or null for a face-down one. */
export function card(code, locale) {
  return code ? face(code, locale) : back();
}

/** A suit's shape alone (the trump badge). */
export function suitIcon(suit) {
  const red = suit === "D" || suit === "H";
  return node("svg", { viewBox: "0 0 100 100", class: `suit-icon ${red ? "red" : "black"}`, role: "img", "aria-label": suitSymbol(suit) }, [
    node("use", { href: `#suit-${suit}`, width: 100, height: 100 }),
  ]);
}
